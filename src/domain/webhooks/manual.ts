// What a merchant does by hand with deliveries: read the log, retry one delivery, send a test event.
// Retry and test are synchronous: the answer reports what the receiver said.
import type { Deps, DbSecretsDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { randomToken } from '../../crypto.ts';
import { newId } from '../ids.ts';
import { page, type PageResult, type Position, type Paging } from '../pagination.ts';
import type { Tenant } from '../tenant.ts';
import {
  applyHealth,
  failureText,
  isSuccess,
  recordAttempt,
  responsePreview,
  send,
  type OperatorLog,
} from './attempt.ts';
import { deliveryBody } from './enqueue.ts';
import { DELIVERY_COLUMNS, findWebhook, type DeliveryRow } from './store.ts';

/**
 * Lease of a claimed delivery (worker batch or manual retry): the time-out plus room for recording the
 * outcome. A lease that runs out early only risks a duplicate, never a loss: the outcome is recorded
 * anyway unless another worker has claimed the row meanwhile.
 */
export const leaseSecondsFor = (timeoutMs: number) => Math.ceil(timeoutMs / 1000) + 5;

export async function listDeliveries(
  deps: DbSecretsDeps,
  scope: Tenant,
  webhookId: number,
  filters: { status?: string },
  paging: Paging,
): Promise<PageResult<DeliveryRow>> {
  await findWebhook(deps.db, scope, webhookId);
  const res = await page<DeliveryRow>(
    {
      secret: deps.secrets.appSecret,
      endpoint: `/me/webhooks/${webhookId}/deliveries`,
      filters: { status: filters.status },
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after: Position | undefined, take: number) => {
      const params: unknown[] = [webhookId];
      let where = 'webhook_id = $1';
      if (filters.status) {
        params.push(filters.status);
        where += ` AND status = $${params.length}`;
      }
      if (after) {
        params.push(after.createdAt, Number(after.id));
        where += ` AND (created_at, id) < ($${params.length - 1}, $${params.length})`;
      }
      const r = await deps.db.query<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE ${where}
          ORDER BY created_at DESC, id DESC LIMIT ${take}`,
        params,
      );
      return r.rows;
    },
    (d) => String(d.id),
  );
  return res;
}

/**
 * Sends one delivery again, now. A pending delivery takes this as its next scheduled attempt; a failed
 * or delivered one gets an extra attempt (delivered on success, otherwise unchanged). While a worker
 * holds the delivery the answer is 409 delivery_in_progress.
 */
export async function retryDelivery(
  deps: Pick<Deps, 'config' | 'db' | 'secrets'>,
  scope: Tenant,
  webhookId: number,
  deliveryId: number,
  log?: OperatorLog,
): Promise<DeliveryRow> {
  const webhook = await findWebhook(deps.db, scope, webhookId);
  const token = randomToken(12);
  const claimed = await deps.db.query<DeliveryRow>(
    `UPDATE webhook_deliveries SET locked_until = now() + make_interval(secs => $3), lease_token = $4
      WHERE id = $1 AND webhook_id = $2 AND (locked_until IS NULL OR locked_until <= now())
      RETURNING ${DELIVERY_COLUMNS}`,
    [deliveryId, webhookId, leaseSecondsFor(deps.config.webhookTimeoutMs), token],
  );
  const d = claimed.rows[0];
  if (!d) {
    const exists = await deps.db.query('SELECT 1 FROM webhook_deliveries WHERE id = $1 AND webhook_id = $2', [
      deliveryId,
      webhookId,
    ]);
    if (exists.rows.length)
      throw new AppError('delivery_in_progress', 'this delivery is being sent right now; try again in a few seconds');
    throw new AppError('delivery_not_found', `delivery ${deliveryId} not found`);
  }
  const result = await send(deps, webhook, d, log);
  const row = await recordAttempt(deps, d, webhook, result, 'manual', token);
  if (!row) throw new AppError('delivery_in_progress', 'the delivery was taken over by a worker');
  return row;
}

export interface TestResult {
  status_code: number;
  response_preview: string;
  duration_ms: number;
  /**
   * why nothing was received (refused address, TLS, connection, time-out); null when an answer came. A
   * refused address, or a name that does not resolve, reads "address not allowed" whatever the reason.
   */
  error: string | null;
  delivery_id: number;
}

/**
 * Sends a `webhook.test` event now (whatever the webhook subscribes to, and even when it is switched
 * off: the merchant asked for it) and records it as a delivery. It is not retried automatically; it
 * can be retried by hand like any delivery.
 */
export async function testWebhook(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock'>,
  scope: Tenant,
  webhookId: number,
  log?: OperatorLog,
): Promise<TestResult> {
  const webhook = await findWebhook(deps.db, scope, webhookId);
  const event = {
    id: newId('evt'),
    type: 'webhook.test',
    created_at: deps.clock.now(),
    data: {
      webhook_id: webhook.id,
      livemode: webhook.mode === 'live',
      message: 'Test event from Tolem: your endpoint is reachable.',
    },
  };
  const d = { message_id: newId('msg'), event_type: event.type, body: deliveryBody(event) };
  const result = await send(deps, webhook, d, log);
  const ok = isSuccess(result.status);
  const id = await deps.db.tx(async (tx) => {
    const r = await tx.query<{ id: number }>(
      `INSERT INTO webhook_deliveries (webhook_id, client_id, mode, message_id, event_id, event_type, body, status,
                                       attempts, last_status, last_error, last_response, last_attempt_at, delivered_at,
                                       next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9, $10, $12, now(), CASE WHEN $11::boolean THEN now() END, NULL)
       RETURNING id`,
      [
        webhook.id,
        webhook.client_id,
        webhook.mode,
        d.message_id,
        event.id,
        event.type,
        d.body,
        ok ? 'delivered' : 'failed',
        result.status,
        ok ? null : failureText(result),
        ok,
        result.status === 0 ? null : responsePreview(result.body),
      ],
    );
    await applyHealth(tx, webhook, result, 'test');
    return r.rows[0].id;
  });
  return {
    status_code: result.status,
    response_preview: responsePreview(result.body),
    duration_ms: result.durationMs,
    error: result.status === 0 ? result.error : null,
    delivery_id: id,
  };
}
