// Retention: idempotency keys after 24 h, journal events and settled webhook deliveries by plan (trial 30
// days, starter 3 months, professional and enterprise 18 months), request logs after 30 days. Deleted in
// bounded batches.
import type { Deps } from '../deps.ts';
import { RETENTION_DAYS } from '../domain/plans.ts';

const BATCH = 5000;

export async function pruneIdempotencyKeys(deps: Deps): Promise<number> {
  const r = await deps.db.query(
    `DELETE FROM idempotency_keys WHERE (client_id, mode, method, path, key) IN (
       SELECT client_id, mode, method, path, key FROM idempotency_keys WHERE created_at < now() - interval '24 hours' LIMIT ${BATCH})`,
  );
  return r.rowCount;
}

export async function pruneEvents(deps: Deps): Promise<number> {
  const cases = Object.entries(RETENTION_DAYS).map(([plan, days]) => `WHEN '${plan}' THEN ${days}`).join(' ');
  const r = await deps.db.query(
    `DELETE FROM events WHERE id IN (
       SELECT e.id FROM events e JOIN clients c ON c.id = e.client_id
        WHERE e.created_at < now() - make_interval(days => CASE c.plan ${cases} ELSE 548 END)
        LIMIT ${BATCH})`,
  );
  return r.rowCount;
}

/**
 * Settled webhook deliveries go with the journal (same plan retention): each holds a full copy of its
 * event (phone and sender name included), which would otherwise outlive the event and stay resendable.
 * Pending ones stay until they settle.
 */
export async function pruneDeliveries(deps: Deps): Promise<number> {
  const cases = Object.entries(RETENTION_DAYS).map(([plan, days]) => `WHEN '${plan}' THEN ${days}`).join(' ');
  const r = await deps.db.query(
    `DELETE FROM webhook_deliveries WHERE id IN (
       SELECT d.id FROM webhook_deliveries d JOIN clients c ON c.id = d.client_id
        WHERE d.status IN ('delivered', 'failed')
          AND d.created_at < now() - make_interval(days => CASE c.plan ${cases} ELSE 548 END)
        LIMIT ${BATCH})`,
  );
  return r.rowCount;
}

export async function pruneRequestLogs(deps: Deps): Promise<number> {
  const r = await deps.db.query(
    `DELETE FROM request_logs WHERE id IN (SELECT id FROM request_logs WHERE created_at < now() - interval '30 days' LIMIT ${BATCH})`,
  );
  return r.rowCount;
}
