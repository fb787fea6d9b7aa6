-- Webhooks: subscriptions, their deliveries (the outbox rows the worker claims), and cabinet
-- notifications. created_at of listed rows has millisecond precision: keyset cursors carry a JS Date,
-- and a microsecond tail would make the next page skip rows of the same millisecond.

CREATE TABLE webhooks (
  id bigserial PRIMARY KEY,
  client_id bigint NOT NULL REFERENCES clients(id),
  mode text NOT NULL CHECK (mode IN ('live', 'test')),
  url text NOT NULL,
  events text[] NOT NULL,
  description text,
  is_active boolean NOT NULL DEFAULT true,
  -- why it is off: 'manual' (disable), 'auto' (24 h failure series), 'gone' (receiver answered 410);
  -- only the automatic reasons are lifted by a successful manual retry or test
  disabled_reason text CHECK (disabled_reason IN ('manual', 'auto', 'gone')),
  -- secrets are AES-GCM sealed with APP_SECRET; the previous one signs too until its grace ends
  secret_enc text NOT NULL,
  secret_version integer NOT NULL DEFAULT 1,
  secret_revealed_at timestamptz NOT NULL DEFAULT now(),
  previous_secret_enc text,
  previous_secret_expires_at timestamptz,
  failing_since timestamptz,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_client_idx ON webhooks (client_id, mode, created_at DESC, id DESC);

CREATE TABLE webhook_deliveries (
  id bigserial PRIMARY KEY,
  webhook_id bigint NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  client_id bigint NOT NULL,
  mode text NOT NULL CHECK (mode IN ('live', 'test')),
  -- X-Webhook-ID / webhook-id: one per event and webhook, the same on every attempt
  message_id text NOT NULL,
  event_id text NOT NULL,
  event_type text NOT NULL,
  -- the exact bytes sent, fixed at enqueue time so every attempt (and the signature) covers the same body
  body text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  -- lease of the worker that claimed the row; an expired lease makes the row claimable again
  locked_until timestamptz,
  lease_token text,
  last_status integer,
  last_error text,
  last_attempt_at timestamptz,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
);
CREATE UNIQUE INDEX webhook_deliveries_message_key ON webhook_deliveries (message_id);
CREATE UNIQUE INDEX webhook_deliveries_event_key ON webhook_deliveries (webhook_id, event_id);
-- The worker reads only rows still waiting, oldest due first.
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_page_idx ON webhook_deliveries (webhook_id, created_at DESC, id DESC);
-- last_delivery_at / last_delivery_status of the webhook list.
CREATE INDEX webhook_deliveries_last_idx ON webhook_deliveries (webhook_id, last_attempt_at DESC) WHERE last_attempt_at IS NOT NULL;

CREATE TABLE notifications (
  id bigserial PRIMARY KEY,
  client_id bigint NOT NULL REFERENCES clients(id),
  type text NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  -- optional: the same key for one client creates one notification only (e.g. one "trial ending" per trial)
  dedupe_key text,
  read_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
);
CREATE INDEX notifications_client_idx ON notifications (client_id, created_at DESC, id DESC);
CREATE INDEX notifications_unread_idx ON notifications (client_id) WHERE read_at IS NULL;
CREATE UNIQUE INDEX notifications_dedupe_key ON notifications (client_id, dedupe_key) WHERE dedupe_key IS NOT NULL;
