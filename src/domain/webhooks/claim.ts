// Claiming due deliveries under a lease (decisions 8). `FOR UPDATE SKIP LOCKED` lets any number of
// workers share the table without waiting on each other; the lease (locked_until) makes a row claimable
// again when the worker that took it dies mid-delivery, so nothing is lost (at-least-once).
import type { Queryable } from '../../db/db.ts';
import type { DeliveryRow, WebhookRow } from './store.ts';

export interface ClaimOptions {
  limit: number;
  leaseSeconds: number;
  leaseToken: string;
  /** WEBHOOK_RETRY_SCHEDULE[0]: a first attempt is due that long after its event */
  firstDelaySeconds: number;
  /** only this client's deliveries (tests sharing one database) */
  clientId?: number;
}

/** What sending an attempt and recording its outcome read of a delivery and of its webhook. */
export type ClaimedDelivery = Pick<
  DeliveryRow,
  'id' | 'webhook_id' | 'client_id' | 'mode' | 'message_id' | 'event_id' | 'event_type' | 'body' | 'status' | 'attempts'
>;
export type ClaimedWebhook = Pick<
  WebhookRow,
  'id' | 'client_id' | 'mode' | 'url' | 'secret_enc' | 'previous_secret_enc' | 'previous_secret_expires_at'
>;

export interface Claimed {
  delivery: ClaimedDelivery;
  webhook: ClaimedWebhook;
  /** the traceparent of the transaction that queued the delivery, continued by its attempts */
  traceContext: string | null;
}

type ClaimRow = ClaimedDelivery & {
  w_url: string;
  w_secret_enc: string;
  w_previous_secret_enc: string | null;
  w_previous_secret_expires_at: Date | null;
  trace_context: string | null;
};

export async function claimDue(db: Queryable, o: ClaimOptions): Promise<Claimed[]> {
  const params: unknown[] = [o.limit, o.leaseSeconds, o.leaseToken, o.firstDelaySeconds];
  let scope = '';
  if (o.clientId !== undefined) {
    params.push(o.clientId);
    scope = `AND wd.client_id = $${params.length}`;
  }
  // Deliveries of a switched-off webhook wait (they are not claimed) and resume when it is enabled.
  // The claimed rows come back with their webhook's columns (w_*) in the same statement: a second
  // round trip per claim for the webhooks was a measurable share of a drain on PostgreSQL. Only the
  // columns a send and its record read: every returned timestamp is a Date parsed per row.
  const r = await db.query<ClaimRow>(
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
      RETURNING d.id, d.webhook_id, d.client_id, d.mode, d.message_id, d.event_id, d.event_type, d.body, d.status,
                d.attempts, d.trace_context,
                w.url AS w_url, w.secret_enc AS w_secret_enc, w.previous_secret_enc AS w_previous_secret_enc,
                w.previous_secret_expires_at AS w_previous_secret_expires_at`,
    params,
  );
  return r.rows.map((row) => ({
    delivery: {
      id: row.id,
      webhook_id: row.webhook_id,
      client_id: row.client_id,
      mode: row.mode,
      message_id: row.message_id,
      event_id: row.event_id,
      event_type: row.event_type,
      body: row.body,
      status: row.status,
      attempts: row.attempts,
    },
    // A delivery is enqueued for its webhook's own client and mode, so those two are the delivery's.
    webhook: {
      id: row.webhook_id,
      client_id: row.client_id,
      mode: row.mode,
      url: row.w_url,
      secret_enc: row.w_secret_enc,
      previous_secret_enc: row.w_previous_secret_enc,
      previous_secret_expires_at: row.w_previous_secret_expires_at,
    },
    traceContext: row.trace_context,
  }));
}
