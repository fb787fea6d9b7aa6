-- Staff alerts (decisions 28): each team member's choice, per mode, of the alerts it wants and by which
-- channel. A user without a row has its role's defaults (domain/notifications/alert-settings.ts: the
-- receipt-failed alert by e-mail for owner and admin, nothing else), so no row is written for a user who
-- never changed them, and a payment's subscriber finds nothing to read for a client whose team asked
-- for nothing.
CREATE TABLE notification_settings (
  user_id bigint NOT NULL REFERENCES users(id),
  client_id bigint NOT NULL REFERENCES clients(id),
  mode text NOT NULL CHECK (mode IN ('live', 'test')),
  payment_paid boolean NOT NULL,
  refund_completed boolean NOT NULL,
  receipt_failed boolean NOT NULL,
  daily_summary boolean NOT NULL,
  -- the local hour (Asia/Almaty, UTC+5) at which the previous day's summary is sent
  summary_hour smallint NOT NULL CHECK (summary_hour BETWEEN 0 AND 23),
  by_email boolean NOT NULL,
  by_messenger boolean NOT NULL,
  -- the local day whose summary was last sent for (the day it was sent on): once per user, mode and day
  summary_sent_on date,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, mode)
);
-- The subscriber of a paid payment or a refund: this client's rows of this mode (none for most clients).
CREATE INDEX notification_settings_client_idx ON notification_settings (client_id, mode);
-- The summary job: the rows that asked for it, by hour.
CREATE INDEX notification_settings_summary_idx ON notification_settings (summary_hour) WHERE daily_summary;
