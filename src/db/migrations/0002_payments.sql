-- Payments: provider accounts, operations, refunds, the event journal, idempotency keys and the
-- sandbox provider's own ledger.

CREATE TABLE provider_accounts (
  id bigserial PRIMARY KEY,
  client_id bigint NOT NULL REFERENCES clients(id),
  mode text NOT NULL CHECK (mode IN ('live', 'test')),
  driver text NOT NULL,
  display_name text NOT NULL,
  org_type text,
  org_bin text,
  is_default boolean NOT NULL DEFAULT false,
  session_alive boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX provider_accounts_client_idx ON provider_accounts (client_id, mode) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX provider_accounts_default_key ON provider_accounts (client_id, mode) WHERE is_default AND deleted_at IS NULL;

CREATE TABLE operations (
  id text PRIMARY KEY,
  seq bigserial NOT NULL UNIQUE,
  client_id bigint NOT NULL REFERENCES clients(id),
  mode text NOT NULL CHECK (mode IN ('live', 'test')),
  type text NOT NULL CHECK (type IN ('qr', 'invoice')),
  status text NOT NULL CHECK (status IN ('created', 'paid', 'expired', 'cancelled', 'declined', 'partially_refunded', 'refunded')),
  amount bigint NOT NULL CHECK (amount > 0),
  refunded_amount bigint NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0 AND refunded_amount <= amount),
  comment text,
  items jsonb,
  phone text,
  sender_name text,
  transaction_id text,
  provider_account_id bigint NOT NULL REFERENCES provider_accounts(id),
  provider_ref text NOT NULL,
  raw_provider_status text,
  qr_token text,
  deep_link text,
  source text NOT NULL CHECK (source IN ('api', 'cabinet', 'payment_link', 'v1')),
  link_token text,
  metadata jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  paid_at timestamptz,
  expires_at timestamptz NOT NULL,
  -- lease of the expiry sweeper while it asks the provider about this operation
  sweep_locked_until timestamptz
);
-- Keyset pages per client and mode, newest first, optionally by status or type.
CREATE INDEX operations_page_idx ON operations (client_id, mode, created_at DESC, id DESC);
CREATE INDEX operations_status_page_idx ON operations (client_id, mode, status, created_at DESC, id DESC);
CREATE INDEX operations_type_page_idx ON operations (client_id, mode, type, created_at DESC, id DESC);
-- The expiry sweeper reads only operations still waiting.
CREATE INDEX operations_due_idx ON operations (expires_at) WHERE status = 'created';
-- Plan limits and usage count live paid payments by day.
CREATE INDEX operations_paid_idx ON operations (client_id, paid_at) WHERE mode = 'live' AND paid_at IS NOT NULL;

CREATE TABLE refunds (
  id text PRIMARY KEY,
  operation_id text NOT NULL REFERENCES operations(id),
  client_id bigint NOT NULL,
  mode text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  reason text,
  status text NOT NULL CHECK (status IN ('completed', 'pending', 'failed')),
  provider_ref text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refunds_operation_idx ON refunds (operation_id);

CREATE TABLE events (
  id text PRIMARY KEY,
  client_id bigint NOT NULL,
  mode text NOT NULL CHECK (mode IN ('live', 'test')),
  type text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_page_idx ON events (client_id, mode, created_at DESC, id DESC);
CREATE INDEX events_type_page_idx ON events (client_id, mode, type, created_at DESC, id DESC);
CREATE INDEX events_created_idx ON events (created_at);

CREATE TABLE idempotency_keys (
  client_id bigint NOT NULL,
  mode text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  state text NOT NULL CHECK (state IN ('running', 'done')),
  response_status integer,
  response_body text,
  locked_until timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, mode, method, path, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

-- The sandbox provider's ledger: what "the provider" knows, kept apart from Tolem's operations so that
-- status synchronisation works exactly as with a real provider, across processes.
CREATE TABLE sandbox_payments (
  ref text PRIMARY KEY,
  kind text NOT NULL,
  amount bigint NOT NULL,
  phone text,
  status text NOT NULL,
  sender_name text,
  sender_phone text,
  transaction_id text,
  paid_at timestamptz,
  refunded bigint NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
