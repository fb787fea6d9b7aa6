// Claiming due deliveries under a lease (decisions 8). `FOR UPDATE SKIP LOCKED` lets any number of
// workers share the table without waiting on each other; the lease (locked_until) makes a row claimable
// again when the worker that took it dies mid-delivery, so nothing is lost (at-least-once).
import type { Queryable } from '../../db/db.ts';
import { DELIVERY_COLUMNS, type DeliveryRow, type WebhookRow } from './store.ts';

export interface ClaimOptions {
  limit: number;
  leaseSeconds: number;
  leaseToken: string;
  /** WEBHOOK_RETRY_SCHEDULE[0]: a first attempt is due that long after its event */
  firstDelaySeconds: number;
  /** only this client's deliveries (tests sharing one database) */
  clientId?: number;
}

export interface Claimed {
  delivery: DeliveryRow;
  webhook: WebhookRow;
}

export async function claimDue(db: Queryable, o: ClaimOptions): Promise<Claimed[]> {
  const params: unknown[] = [o.limit, o.leaseSeconds, o.leaseToken, o.firstDelaySeconds];
  let scope = '';
  if (o.clientId !== undefined) {
    params.push(o.clientId);
    scope = `AND wd.client_id = $${params.length}`;
  }
  // Deliveries of a switched-off webhook wait (they are not claimed) and resume when it is enabled.
  const r = await db.query<DeliveryRow>(
    `UPDATE webhook_deliveries d
        SET locked_until = now() + make_interval(secs => $2), lease_token = $3
       FROM (SELECT wd.id FROM webhook_deliveries wd
               JOIN webhooks w ON w.id = wd.webhook_id AND w.is_active
              WHERE wd.status = 'pending' AND wd.next_attempt_at <= now()
                AND (wd.attempts > 0 OR wd.next_attempt_at <= now() - make_interval(secs => $4))
                AND (wd.locked_until IS NULL OR wd.locked_until <= now()) ${scope}
              ORDER BY wd.next_attempt_at
              LIMIT $1
              FOR UPDATE OF wd SKIP LOCKED) due
      WHERE d.id = due.id
      RETURNING ${DELIVERY_COLUMNS.split(',').map((c) => `d.${c.trim()}`).join(', ')}`,
    params,
  );
  if (!r.rows.length) return [];
  const hooks = await db.query<WebhookRow>('SELECT * FROM webhooks WHERE id = ANY($1::bigint[])', [[...new Set(r.rows.map((d) => d.webhook_id))]]);
  const byId = new Map(hooks.rows.map((w) => [w.id, w]));
  return r.rows.filter((d) => byId.has(d.webhook_id)).map((d) => ({ delivery: d, webhook: byId.get(d.webhook_id)! }));
}
