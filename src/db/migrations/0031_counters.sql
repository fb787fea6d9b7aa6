-- Counters (decisions 28): a till of a trade point where a cashier makes QRs, each through one of the
-- client's provider accounts of the counter's mode. Archived rather than deleted: its payments keep
-- pointing at it, and the day's reports name it.
CREATE TABLE counters (
  id text PRIMARY KEY,
  client_id bigint NOT NULL REFERENCES clients(id),
  mode text NOT NULL CHECK (mode IN ('live', 'test')),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  provider_account_id bigint NOT NULL REFERENCES provider_accounts(id),
  -- lists page by it: milliseconds, as 0005 explains
  created_at timestamptz(3) NOT NULL DEFAULT date_trunc('milliseconds', now()),
  archived_at timestamptz
);
CREATE INDEX counters_client_idx ON counters (client_id, mode, created_at DESC, id DESC) WHERE archived_at IS NULL;

-- A QR made at a counter says which counter and which cashier (a team member's user id) made it.
ALTER TABLE operations ADD COLUMN counter_id text REFERENCES counters(id),
  ADD COLUMN cashier_id bigint REFERENCES users(id);
ALTER TABLE operations DROP CONSTRAINT operations_source_check;
ALTER TABLE operations ADD CONSTRAINT operations_source_check
  CHECK (source IN ('api', 'cabinet', 'payment_link', 'v1', 'subscription', 'counter'));
-- The counter's payments of the day, newest first.
CREATE INDEX operations_counter_idx ON operations (counter_id, created_at DESC, id DESC) WHERE counter_id IS NOT NULL;

-- decisions 28: the cashier joins the team roles.
ALTER TABLE users DROP CONSTRAINT users_role_check;
ALTER TABLE users ADD CONSTRAINT users_role_check
  CHECK (role IN ('owner', 'admin', 'accountant', 'support', 'viewer', 'cashier'));
