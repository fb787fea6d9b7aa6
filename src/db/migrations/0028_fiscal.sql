-- Fiscal receipts (decisions 27): the merchant's cloud cash registers, the receipts Tolem asks them for, their
-- shifts, and the sandbox driver's own ledger (test mode: no outside call).

CREATE TABLE fiscal_registers (
  id text PRIMARY KEY,
  client_id bigint NOT NULL REFERENCES clients(id),
  mode text NOT NULL CHECK (mode IN ('live', 'test')),
  driver text NOT NULL,
  display_name text,
  -- the merchant's credentials for the service, sealed with APP_SECRET; never returned
  credentials_sealed text NOT NULL,
  register_number text NOT NULL,
  payment_type text NOT NULL DEFAULT 'mobile' CHECK (payment_type IN ('mobile', 'card')),
  vat_payer boolean NOT NULL DEFAULT false,
  vat_rate_bps integer NOT NULL DEFAULT 1600 CHECK (vat_rate_bps BETWEEN 0 AND 10000),
  default_item_name text NOT NULL DEFAULT 'Оплата',
  section_code text,
  -- null: every provider account of the mode
  provider_account_id bigint REFERENCES provider_accounts(id),
  auto boolean NOT NULL DEFAULT true,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'blocked', 'offline', 'auth_failed')),
  unique_number text,
  registration_number text,
  ofd jsonb,
  shift_number integer,
  shift_opened_at timestamptz,
  checked_at timestamptz,
  -- the driver's session (an access token), sealed
  session_sealed text,
  -- one request at a time per register: the job that holds the lease is the only one talking to it
  lease_until timestamptz,
  -- lists page by (created_at, id) with millisecond cursors: the column keeps milliseconds (0005)
  created_at timestamptz(3) NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX fiscal_registers_client_idx ON fiscal_registers (client_id, mode, created_at DESC, id DESC)
  WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX fiscal_registers_number_key ON fiscal_registers (client_id, mode, driver, register_number)
  WHERE deleted_at IS NULL;

CREATE TABLE fiscal_receipts (
  id text PRIMARY KEY,
  client_id bigint NOT NULL REFERENCES clients(id),
  mode text NOT NULL CHECK (mode IN ('live', 'test')),
  kind text NOT NULL CHECK (kind IN ('sale', 'return')),
  operation_id text NOT NULL REFERENCES operations(id),
  refund_id text REFERENCES refunds(id),
  register_id text NOT NULL REFERENCES fiscal_registers(id),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'issued', 'failed')),
  offline boolean NOT NULL DEFAULT false,
  amount bigint NOT NULL CHECK (amount > 0),
  payment_type text NOT NULL,
  items jsonb NOT NULL,
  customer_email text,
  fiscal_sign text,
  registration_number text,
  shift_number integer,
  check_url text,
  ticket_url text,
  -- the service's own id of the receipt (a return's basis may name it)
  ref text,
  issued_at timestamptz,
  error jsonb,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  -- set before each request goes out: a receipt sent once is looked up by its number before any resend
  sent_at timestamptz,
  -- retried with back-off until then, then failed (decisions 27: 24 hours)
  give_up_at timestamptz NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'sale') = (refund_id IS NULL))
);
-- Never two receipts for one payment or one refund.
CREATE UNIQUE INDEX fiscal_receipts_sale_key ON fiscal_receipts (operation_id) WHERE kind = 'sale';
CREATE UNIQUE INDEX fiscal_receipts_return_key ON fiscal_receipts (refund_id) WHERE kind = 'return';
CREATE INDEX fiscal_receipts_page_idx ON fiscal_receipts (client_id, mode, created_at DESC, id DESC);
CREATE INDEX fiscal_receipts_due_idx ON fiscal_receipts (register_id, next_attempt_at) WHERE status = 'pending';

CREATE TABLE fiscal_shifts (
  register_id text NOT NULL REFERENCES fiscal_registers(id),
  number integer NOT NULL,
  opened_at timestamptz,
  closed_at timestamptz,
  sale_count integer,
  sale_total bigint,
  return_count integer,
  return_total bigint,
  offline_count integer,
  PRIMARY KEY (register_id, number)
);

-- The sandbox driver's register state and receipts: what a cloud register would keep, kept here.
CREATE TABLE fiscal_sandbox_registers (
  register_id text PRIMARY KEY,
  registration_number text NOT NULL,
  shift_number integer NOT NULL DEFAULT 0,
  shift_opened_at timestamptz
);
CREATE SEQUENCE fiscal_sandbox_sign START 100000001;
CREATE TABLE fiscal_sandbox_receipts (
  register_id text NOT NULL,
  external_number text NOT NULL,
  kind text NOT NULL,
  fiscal_sign text NOT NULL UNIQUE,
  total bigint NOT NULL,
  shift_number integer NOT NULL,
  issued_at timestamptz NOT NULL,
  lines jsonb NOT NULL,
  -- a return's sale
  basis_sign text,
  PRIMARY KEY (register_id, external_number)
);
