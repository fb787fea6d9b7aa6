-- Subscriptions (decisions 20): the operator is the payee. Its own client (is_platform) takes the plan
-- QRs as live operations with source `subscription`; the paying client and plan ride on the operation.
ALTER TABLE clients ADD COLUMN is_platform boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX clients_platform_key ON clients (is_platform) WHERE is_platform;
INSERT INTO clients (name, email, plan, trial_ends_at, is_platform, terms_accepted_at)
VALUES ('Tolem platform', 'platform@tolem.invalid', 'enterprise', now(), true, now());

ALTER TABLE operations DROP CONSTRAINT operations_source_check;
ALTER TABLE operations ADD CONSTRAINT operations_source_check CHECK (source IN ('api', 'cabinet', 'payment_link', 'v1', 'subscription'));
ALTER TABLE operations ADD COLUMN subscription_client_id bigint;
ALTER TABLE operations ADD COLUMN subscription_plan text;
CREATE INDEX operations_subscription_idx ON operations (subscription_client_id, created_at DESC) WHERE subscription_client_id IS NOT NULL;
