-- The start of the receiver's answer to a delivery's last attempt (first 500 characters), shown in the
-- delivery log beside its status: what a merchant debugging a receiver wants to see, for successes too.
ALTER TABLE webhook_deliveries ADD COLUMN last_response text;
