-- The trace a delivery or an outbox message was queued in (decisions 29): the W3C traceparent of the
-- transaction that wrote the row, so the job that sends it later continues that trace. NULL when tracing
-- is off (nothing is written then).
ALTER TABLE webhook_deliveries ADD COLUMN trace_context text;
ALTER TABLE outbox_messages ADD COLUMN trace_context text;
