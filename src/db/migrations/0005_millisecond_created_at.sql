-- created_at of every row a list pages through keeps millisecond precision, as the webhook tables'
-- already did (0003). A keyset cursor carries the position of a page's last row as a JS Date
-- (milliseconds): with a microsecond tail stored, the next page's `(created_at, id) < (cursor)` skipped
-- the rows created in the same millisecond that sort after it, so a payment, an event or a link created
-- alongside another could be missing from a list (and an `until` equal to a shown created_at excluded its
-- own row).
-- The default truncates, as JSON shows every other timestamp (a JS Date drops the microseconds): a
-- link's expires_at minus its created_at stays its whole TTL. The type alone would round, and a
-- created_at rounded up shows 1 ms later than the updated_at and expires_at written with it.
-- timestamptz(3) keeps any other writer to milliseconds too. Existing rows are truncated here (each
-- table is rewritten once).
ALTER TABLE operations ALTER COLUMN created_at TYPE timestamptz(3) USING date_trunc('milliseconds', created_at),
  ALTER COLUMN created_at SET DEFAULT date_trunc('milliseconds', now());
ALTER TABLE events ALTER COLUMN created_at TYPE timestamptz(3) USING date_trunc('milliseconds', created_at),
  ALTER COLUMN created_at SET DEFAULT date_trunc('milliseconds', now());
ALTER TABLE payment_links ALTER COLUMN created_at TYPE timestamptz(3) USING date_trunc('milliseconds', created_at),
  ALTER COLUMN created_at SET DEFAULT date_trunc('milliseconds', now());
-- A column's statistics go with its old type: gather them again, for the planner's sake.
ANALYZE operations;
ANALYZE events;
ANALYZE payment_links;
