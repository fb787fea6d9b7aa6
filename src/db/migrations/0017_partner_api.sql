-- The partner integration API (decisions 22): a platform upserts its merchants by its own ids and reads
-- the payments of all of them in one list.
ALTER TABLE clients ADD COLUMN phone text;
ALTER TABLE clients ADD COLUMN metadata jsonb;
-- A partner's external id names one client; the upsert and client_ref look it up here.
CREATE UNIQUE INDEX clients_partner_external_key ON clients (partner_id, external_id) WHERE external_id IS NOT NULL;

-- The partner's payments list spans all of its clients: keyset pages over one index need the partner on
-- the operation itself (a client's partner is set when the client is created and never changes). A
-- trigger fills it, so that no path creating operations can forget it; the lookup is one primary-key read.
-- (Statements stay on one line: migrate.ts splits at a semicolon that ends a line.)
ALTER TABLE operations ADD COLUMN partner_id bigint;
UPDATE operations o SET partner_id = c.partner_id FROM clients c WHERE c.id = o.client_id AND c.partner_id IS NOT NULL;
CREATE INDEX operations_partner_page_idx ON operations (partner_id, mode, created_at DESC, id DESC) WHERE partner_id IS NOT NULL;

CREATE FUNCTION operations_set_partner() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN SELECT partner_id INTO NEW.partner_id FROM clients WHERE id = NEW.client_id; RETURN NEW; END $$;
CREATE TRIGGER operations_set_partner BEFORE INSERT ON operations FOR EACH ROW EXECUTE FUNCTION operations_set_partner();
-- A client's partner is set as the client is made; should it ever change, its operations follow, so that
-- the list can never miss or show a payment by a stale partner.
CREATE FUNCTION clients_partner_to_operations() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE operations SET partner_id = NEW.partner_id WHERE client_id = NEW.id; RETURN NEW; END $$;
CREATE TRIGGER clients_partner_to_operations AFTER UPDATE OF partner_id ON clients FOR EACH ROW WHEN (OLD.partner_id IS DISTINCT FROM NEW.partner_id) EXECUTE FUNCTION clients_partner_to_operations();
