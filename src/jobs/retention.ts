// Retention: idempotency keys after 24 h, journal events and settled webhook deliveries by plan (trial 30
// days, starter 3 months, professional and enterprise 18 months), request logs after 30 days, channel
// messages' credentials after a day and the messages after 30 days. Deleted in bounded batches.
import type { Deps } from '../deps.ts';
import { RETENTION_DAYS } from '../domain/plans.ts';
import { purgeCredentialBodies } from '../domain/channels/outbox.ts';

/** Plans not in RETENTION_DAYS keep the longest retention. */
const DEFAULT_RETENTION_DAYS = 548;

const BATCH = 5000;

export async function pruneIdempotencyKeys(deps: Deps): Promise<number> {
  const r = await deps.db.query(
    `DELETE FROM idempotency_keys WHERE (client_id, mode, method, path, key) IN (
       SELECT client_id, mode, method, path, key FROM idempotency_keys
        WHERE created_at < now() - interval '24 hours' LIMIT ${BATCH})`,
  );
  return r.rowCount;
}

/**
 * Deletes up to BATCH rows of `table` older than their client's plan retention. One statement per plan
 * with a fixed cutoff, so the table's created_at index finds the old rows (a cutoff computed per joined
 * client could only be checked row by row, over the whole table). `extra` narrows the rows further.
 */
async function pruneByPlan(deps: Deps, table: 'events' | 'webhook_deliveries', extra = ''): Promise<number> {
  const plans = Object.keys(RETENTION_DAYS);
  let deleted = 0;
  for (const [plan, days] of [...Object.entries(RETENTION_DAYS), [null, DEFAULT_RETENTION_DAYS] as const]) {
    const clients =
      plan === null
        ? 'SELECT id FROM clients WHERE NOT (plan = ANY($1::text[]))'
        : 'SELECT id FROM clients WHERE plan = $1';
    const r = await deps.db.query(
      `DELETE FROM ${table} WHERE id IN (
         SELECT id FROM ${table} WHERE created_at < now() - interval '${Number(days)} days' ${extra}
            AND client_id IN (${clients})
          LIMIT ${BATCH - deleted})`,
      [plan === null ? plans : plan],
    );
    deleted += r.rowCount;
    if (deleted >= BATCH) break;
  }
  return deleted;
}

export const pruneEvents = (deps: Deps): Promise<number> => pruneByPlan(deps, 'events');

/**
 * Settled webhook deliveries go with the journal (same plan retention): each holds a full copy of its
 * event (phone and sender name included), which would otherwise outlive the event and stay resendable.
 * Pending ones stay until they settle.
 */
export const pruneDeliveries = (deps: Deps): Promise<number> =>
  pruneByPlan(deps, 'webhook_deliveries', "AND status <> 'pending'");

export async function pruneRequestLogs(deps: Deps): Promise<number> {
  const r = await deps.db.query(
    `DELETE FROM request_logs
      WHERE id IN (SELECT id FROM request_logs WHERE created_at < now() - interval '30 days' LIMIT ${BATCH})`,
  );
  return r.rowCount;
}

/**
 * Channel messages: a settled one that carried a credential loses its text after a day (sealed, and
 * masked for the operator, it has done its job; see domain/channels/outbox.ts); every settled one goes
 * after 30 days, as the operator's outbox view needs only the recent ones. Pending ones stay.
 */
export async function pruneOutbox(deps: Deps): Promise<number> {
  const purged = await purgeCredentialBodies(deps, BATCH);
  const r = await deps.db.query(
    `DELETE FROM outbox_messages WHERE id IN (
       SELECT id FROM outbox_messages WHERE status <> 'pending' AND created_at < now() - interval '30 days'
        ORDER BY created_at LIMIT ${BATCH - purged})`,
  );
  return purged + r.rowCount;
}
