-- The live driver as the provider's document describes it (decisions 26).
--
-- r2 refunds go through the provider's return QR: the refund stays pending while the payer is to scan
-- it; the return watcher polls return/status at the interval the provider announced (return_next_poll_at,
-- under a lease like the QR watcher's), then sends payment/return with the return's id. The retry job
-- leaves these refunds alone while they wait for the payer (their next_attempt_at is null).
ALTER TABLE refunds ADD COLUMN return_qr_id text,
  ADD COLUMN return_qr_token text,
  ADD COLUMN return_expires_at timestamptz,
  ADD COLUMN return_status text,
  ADD COLUMN return_poll_interval_s integer,
  ADD COLUMN return_next_poll_at timestamptz,
  ADD COLUMN return_lease_until timestamptz;
CREATE INDEX refunds_return_watch_idx ON refunds (return_next_poll_at) WHERE status = 'pending' AND return_next_poll_at IS NOT NULL;

-- Deleting a released account's device at the provider is a durable job (decisions 26): retried with
-- back-off until the provider confirms it, never skipped because the account's breaker is open; the
-- credentials it needs are wiped only after.
ALTER TABLE provider_accounts ADD COLUMN device_delete_attempts integer NOT NULL DEFAULT 0,
  ADD COLUMN device_delete_next_at timestamptz;
CREATE INDEX provider_accounts_device_delete_idx ON provider_accounts (device_delete_next_at) WHERE device_delete_next_at IS NOT NULL;

-- This installation's id, made once per store and kept: DeviceId is tolem-<installation>-<account>, so two
-- installations on one BIN (staging and production with one certificate) never share or delete each
-- other's device.
CREATE TABLE installation (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
