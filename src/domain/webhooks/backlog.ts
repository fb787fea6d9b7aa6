// How far behind the delivery workers are, for /metrics (deploy/prometheus/alerts.yml): deliveries due now
// that no attempt has settled yet, and how long the oldest of them has been due. Only what a worker would
// claim counts: deliveries of a switched-off webhook wait on purpose and are not a backlog.
import type { Queryable } from '../../db/db.ts';

/** Due deliveries are counted up to this many: the count is for a dashboard, the age for the alert. */
export const BACKLOG_COUNT_CAP = 10_000;

export interface Backlog {
  /** due and not yet settled, at most BACKLOG_COUNT_CAP */
  due: number;
  /** seconds since the oldest of them became due; 0 when none is */
  oldestSeconds: number;
}

/** Both read through the partial index on due deliveries (webhook_deliveries_due_idx). */
export async function deliveryBacklog(db: Queryable): Promise<Backlog> {
  const r = await db.query<{ due: number; oldest: number | null }>(
    `SELECT (SELECT count(*) FROM (
               SELECT 1 FROM webhook_deliveries wd JOIN webhooks w ON w.id = wd.webhook_id AND w.is_active
                WHERE wd.status = 'pending' AND wd.next_attempt_at <= now() LIMIT $1) d)::int AS due,
            EXTRACT(EPOCH FROM now() - (
              SELECT wd.next_attempt_at FROM webhook_deliveries wd
                JOIN webhooks w ON w.id = wd.webhook_id AND w.is_active
               WHERE wd.status = 'pending' AND wd.next_attempt_at <= now()
               ORDER BY wd.next_attempt_at LIMIT 1))::float8 AS oldest`,
    [BACKLOG_COUNT_CAP],
  );
  return { due: r.rows[0].due, oldestSeconds: Math.max(0, r.rows[0].oldest ?? 0) };
}
