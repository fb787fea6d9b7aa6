-- The live driver for the provider's official QR partner API (decisions 19, 24): an account's scheme,
-- sealed credentials, trade point and registered device; the provider's timing on each live QR, which
-- the watcher polls by; the refundable rest read before a refund is sent.
ALTER TABLE provider_accounts ADD COLUMN scheme text CHECK (scheme IN ('r1', 'r2', 'r3'));
ALTER TABLE provider_accounts ADD COLUMN credentials_sealed text;
ALTER TABLE provider_accounts ADD COLUMN device_id text;
ALTER TABLE provider_accounts ADD COLUMN device_token text;
ALTER TABLE provider_accounts ADD COLUMN trade_point_id bigint;
ALTER TABLE provider_accounts ADD COLUMN trade_point_name text;
ALTER TABLE provider_accounts ADD COLUMN certificate_expires_at timestamptz;

ALTER TABLE operations ADD COLUMN poll_interval_s integer;
ALTER TABLE operations ADD COLUMN confirm_timeout_s integer;
ALTER TABLE operations ADD COLUMN next_poll_at timestamptz;
ALTER TABLE operations ADD COLUMN poll_lease_until timestamptz;
-- The watcher's queue: live QRs still waiting, by when they are next due.
CREATE INDEX operations_watch_idx ON operations (next_poll_at) WHERE status = 'created' AND next_poll_at IS NOT NULL;

ALTER TABLE refunds ADD COLUMN refundable_before bigint;
