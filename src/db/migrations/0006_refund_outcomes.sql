-- A refund whose outcome is unknown (the provider timed out or failed after it may have acted) stays
-- `pending` with its amount reserved, and is sent again under the same refund id until the provider gives
-- a final answer; the provider treats a repeated refund id as the same refund (docs/provider-gateway.md).
-- request_key ties a refund to the Idempotency-Key that created it, so a retry that takes over a dead
-- request's key continues that refund instead of making a second one (not unique: keys live 24 h and
-- may then be used again).
ALTER TABLE refunds ADD COLUMN request_key text,
  ADD COLUMN attempts int NOT NULL DEFAULT 0,
  ADD COLUMN next_attempt_at timestamptz;
CREATE INDEX refunds_request_key_idx ON refunds (client_id, mode, request_key) WHERE request_key IS NOT NULL;
CREATE INDEX refunds_retry_idx ON refunds (next_attempt_at) WHERE status = 'pending';
-- Refunds left pending before this migration are NOT retried (next_attempt_at stays null): they were sent
-- without a refund id, so sending one now would be a second refund. docs/operations.md says how to find
-- and settle them by hand.

-- The sandbox's refund ledger, one row per refund id, so a refund sent twice moves the money once.
CREATE TABLE sandbox_refunds (
  id text PRIMARY KEY,
  ref text NOT NULL,
  amount bigint NOT NULL,
  status text NOT NULL,
  provider_ref text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Settled webhook deliveries are pruned by age with the journal (jobs/retention.ts, one statement per
-- plan with a fixed cutoff): by this index, not by reading the whole table every hour.
CREATE INDEX webhook_deliveries_created_idx ON webhook_deliveries (created_at) WHERE status <> 'pending';
-- Request logs are pruned by age too; and a webhook's delivery log filtered by status (failed ones, say)
-- is read in order by its own index instead of walking every delivery of the webhook.
CREATE INDEX request_logs_created_idx ON request_logs (created_at);
CREATE INDEX webhook_deliveries_status_page_idx ON webhook_deliveries (webhook_id, status, created_at DESC, id DESC);
