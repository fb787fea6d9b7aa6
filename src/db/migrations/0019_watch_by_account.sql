-- The watcher takes each provider account's due QRs in turn (up to its calls per second), instead of the
-- oldest due QRs of all accounts: this index gives one account's due QRs oldest first.
CREATE INDEX operations_watch_account_idx ON operations (provider_account_id, next_poll_at) WHERE status = 'created' AND next_poll_at IS NOT NULL;
