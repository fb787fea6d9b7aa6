-- GET /v2/events?operation_id=: a payment's own events (the dashboard's payment detail) in keyset order,
-- without reading the client's whole journal. Only events about an operation are in the index.
CREATE INDEX events_operation_idx ON events (client_id, mode, (data->>'operation_id'), created_at DESC, id DESC) WHERE data ? 'operation_id';
