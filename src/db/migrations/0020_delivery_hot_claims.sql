-- Room on each page of webhook_deliveries for a claim's new row version: a claim changes only the lease
-- (locked_until, lease_token), which no index covers, so with free space on the page PostgreSQL makes it
-- a heap-only update that touches none of the table's six indexes.
ALTER TABLE webhook_deliveries SET (fillfactor = 70);
