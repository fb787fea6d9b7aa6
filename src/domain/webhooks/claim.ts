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
  // The claimed rows come back with their webhook's columns (w_*) in the same statement: a second
  // round trip per claim for the webhooks was a measurable share of a drain on PostgreSQL.
  const r = await db.query<DeliveryRow & Record<string, unknown>>(
    `UPDATE webhook_deliveries d
        SET locked_until = now() + make_interval(secs => $2), lease_token = $3
       FROM (SELECT wd.id FROM webhook_deliveries wd
               JOIN webhooks w ON w.id = wd.webhook_id AND w.is_active
              WHERE wd.status = 'pending' AND wd.next_attempt_at <= now()
                AND (wd.attempts > 0 OR wd.next_attempt_at <= now() - make_interval(secs => $4))
                AND (wd.locked_until IS NULL OR wd.locked_until <= now()) ${scope}
              ORDER BY wd.next_attempt_at
              LIMIT $1
              FOR UPDATE OF wd SKIP LOCKED) due, webhooks w
      WHERE d.id = due.id AND w.id = d.webhook_id
      RETURNING ${DELIVERY_COLUMNS.split(',').map((c) => `d.${c.trim()}`).join(', ')},
                ${WEBHOOK_COLUMNS.map((c) => `w.${c} AS w_${c}`).join(', ')}`,
    params,
  );
  return r.rows.map((row) => {
    const delivery: Record<string, unknown> = {};
    const webhook: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(row)) {
      if (k.startsWith('w_')) webhook[k.slice(2)] = v;
      else delivery[k] = v;
    }
    return { delivery: delivery as unknown as DeliveryRow, webhook: webhook as unknown as WebhookRow };
  });
}

const WEBHOOK_COLUMNS: (keyof WebhookRow)[] = [
  'id', 'client_id', 'mode', 'url', 'events', 'description', 'is_active', 'disabled_reason', 'secret_enc', 'secret_version',
  'secret_revealed_at', 'previous_secret_enc', 'previous_secret_expires_at', 'failing_since', 'created_at', 'updated_at',
];
