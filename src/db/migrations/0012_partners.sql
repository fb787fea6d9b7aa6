-- The partner cabinet, part one (decisions 12, 21): partner profiles (a client's application, approved by
-- an admin), the clients they bring (at most one partner per client, with its origin), their invites and
-- referral links.
CREATE TABLE partners (
  id bigserial PRIMARY KEY,
  client_id bigint NOT NULL UNIQUE REFERENCES clients(id),
  company_name text NOT NULL,
  website text,
  contact_phone text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'rejected', 'suspended')),
  commission_rate_bps integer NOT NULL DEFAULT 2000 CHECK (commission_rate_bps BETWEEN 0 AND 10000),
  created_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE clients ADD COLUMN partner_id bigint REFERENCES partners(id);
ALTER TABLE clients ADD COLUMN partner_origin text CHECK (partner_origin IN ('referral', 'invite', 'api'));
ALTER TABLE clients ADD COLUMN external_id text;
CREATE INDEX clients_partner_idx ON clients (partner_id, created_at DESC, id DESC) WHERE partner_id IS NOT NULL;

CREATE TABLE partner_invites (
  id bigserial PRIMARY KEY,
  partner_id bigint NOT NULL REFERENCES partners(id),
  email text NOT NULL,
  name text,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  client_id bigint REFERENCES clients(id),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE referral_links (
  id bigserial PRIMARY KEY,
  partner_id bigint NOT NULL REFERENCES partners(id),
  code text NOT NULL UNIQUE,
  name text,
  is_active boolean NOT NULL DEFAULT true,
  clicks integer NOT NULL DEFAULT 0,
  registrations integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX referral_links_partner_idx ON referral_links (partner_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;
ALTER TABLE clients ADD COLUMN referral_link_id bigint REFERENCES referral_links(id);
