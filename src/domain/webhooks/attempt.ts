// One delivery attempt and what it changes: the delivery row (retry schedule, failed after the last
// attempt), the webhook's health (failing_since, auto-disable after 24 h of failures, 410, automatic
// re-enable by a successful manual retry or test), and the journal/notifications that go with it.
import type { Queryable } from '../../db/db.ts';
import type { Deps } from '../../deps.ts';
import { appendEvent } from '../events/append.ts';
import { notify } from '../notifications/notify.ts';
import { signingSecrets } from './manage.ts';
import { postJson, type OutboundResult } from './outbound.ts';
import { deliveryHeaders } from './signing.ts';
import { DELIVERY_COLUMNS, type DeliveryRow, type WebhookRow } from './store.ts';

export const AUTO_DISABLE_AFTER_MS = 24 * 3600_000;

export type AttemptKind = 'auto' | 'manual' | 'test';

export type SendTarget = Pick<
  WebhookRow,
  'id' | 'url' | 'secret_enc' | 'previous_secret_enc' | 'previous_secret_expires_at'
>;

/** The operator's log (the app's logger): where what a caller may not read about a destination goes. */
export interface OperatorLog {
  warn?(obj: Record<string, unknown>, msg: string): void;
}

/**
 * Signs (fresh timestamp per attempt) and POSTs one delivery through the guarded client. A refused
 * destination's detail (what the name resolved to, the resolver's error) is written to `log`: the result's
 * `error`, which the API shows and the delivery log keeps, only says the address is not allowed.
 */
export async function send(
  deps: Pick<Deps, 'config' | 'secrets'>,
  w: SendTarget,
  d: Pick<DeliveryRow, 'message_id' | 'event_type' | 'body'>,
  log?: OperatorLog,
): Promise<OutboundResult> {
  const { secret, previousSecret } = signingSecrets(deps, w);
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = deliveryHeaders({
    secret,
    previousSecret,
    messageId: d.message_id,
    eventType: d.event_type,
    timestamp,
    body: d.body,
  });
  const r = await postJson(w.url, headers, d.body, {
    allowPrivate: deps.config.webhooksAllowPrivate,
    timeoutMs: deps.config.webhookTimeoutMs,
  });
  if (r.detail)
    log?.warn?.(
      { webhook_id: w.id, message_id: d.message_id, url: w.url, detail: r.detail },
      'webhook destination refused',
    );
  return r;
}

export const isSuccess = (status: number) => status >= 200 && status < 300;

export const PREVIEW_CHARS = 500;

/**
 * The first 500 characters of a receiver's answer, as kept with the delivery: NUL (which PostgreSQL text
 * refuses) and lone surrogates (a cut pair among them) removed.
 */
export function responsePreview(body: string): string {
  return body
    .replace(/\u0000/g, '')
    .slice(0, PREVIEW_CHARS)
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '');
}

/** Short text of a failed attempt, for last_error. */
export function failureText(r: OutboundResult): string {
  if (r.status === 0) return (r.error ?? 'no response').replace(/\u0000/g, '').slice(0, 300);
  const kind = r.status >= 300 && r.status < 400 ? ' (redirects are not followed)' : '';
  // A receiver's body may be binary (a compressed error page): control characters, NUL among them, which
  // PostgreSQL text refuses (the attempt could then never be recorded), and broken surrogates go.
  const snippet = r.body
    .replace(/[\u0000-\u001f\u007f\ufffd]+|\s+/g, ' ')
    .replace(/[\uD800-\uDFFF]/g, '')
    .trim()
    .slice(0, 120);
  return `HTTP ${r.status}${kind}${snippet ? `: ${snippet}` : ''}`;
}

/** Seconds from a Retry-After header (delta-seconds or HTTP-date); null when absent or unreadable. */
export function parseRetryAfter(v: string | undefined, now = Date.now()): number | null {
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim());
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : Math.max(0, (t - now) / 1000);
}

/**
 * Delay before the next attempt after `attemptsDone` attempts: the schedule's entry with +-10% jitter;
 * on 429/503 a Retry-After longer than that is honoured up to twice the scheduled delay.
 */
export function nextDelaySeconds(
  schedule: number[],
  attemptsDone: number,
  r: OutboundResult,
  random = Math.random,
): number {
  const base = schedule[attemptsDone] ?? schedule[schedule.length - 1] ?? 0;
  const jittered = base * (0.9 + 0.2 * random());
  if (r.status === 429 || r.status === 503) {
    const ra = parseRetryAfter(r.headers['retry-after']);
    if (ra !== null && ra > jittered) return Math.min(ra, 2 * base);
  }
  return jittered;
}

/**
 * Records an attempt of an existing delivery in one transaction, if the caller's lease token is still on
 * the row. A caller whose lease ran out and whose row another worker claimed again records nothing (the
 * other worker's attempt will be recorded). Returns the updated row, or null.
 */
export async function recordAttempt(
  deps: Pick<Deps, 'config' | 'db'>,
  d: Pick<DeliveryRow, 'id' | 'attempts' | 'status' | 'event_id' | 'message_id' | 'event_type'>,
  w: Pick<WebhookRow, 'id' | 'client_id' | 'mode' | 'url'>,
  r: OutboundResult,
  kind: Exclude<AttemptKind, 'test'>,
  leaseToken: string,
): Promise<DeliveryRow | null> {
  const schedule = deps.config.webhookRetrySchedule;
  const ok = isSuccess(r.status);
  const attempts = d.attempts + 1;
  // A manual resend of a delivery already settled keeps its status unless it now succeeds.
  const settled = d.status !== 'pending';
  const final = !ok && !settled && (r.status === 410 || attempts >= schedule.length);
  const status: DeliveryRow['status'] = ok ? 'delivered' : final ? 'failed' : d.status;
  const delay = !ok && !final && !settled ? nextDelaySeconds(schedule, attempts, r) : null;
  return deps.db.tx(async (tx) => {
    const u = await tx.query<DeliveryRow>(
      `UPDATE webhook_deliveries
          SET status = $3, attempts = attempts + 1, last_status = $4, last_error = $5, last_response = $8,
              last_attempt_at = now(),
              delivered_at = CASE WHEN $6::boolean THEN now() ELSE delivered_at END,
              next_attempt_at = CASE WHEN $7::float8 IS NULL THEN next_attempt_at
                                     ELSE now() + make_interval(secs => $7::float8) END,
              locked_until = NULL, lease_token = NULL
        WHERE id = $1 AND lease_token = $2
        RETURNING ${DELIVERY_COLUMNS}`,
      [
        d.id,
        leaseToken,
        status,
        r.status,
        ok ? null : failureText(r),
        ok,
        delay,
        r.status === 0 ? null : responsePreview(r.body),
      ],
    );
    const row = u.rows[0];
    if (!row) return null;
    await applyHealth(tx, w, r, kind);
    if (final) {
      await appendEvent(tx, {
        clientId: w.client_id,
        mode: w.mode,
        type: 'webhook.delivery_failed',
        data: {
          webhook_id: w.id,
          event_id: d.event_id,
          url: w.url,
          last_status: r.status,
          attempts,
          delivery_id: d.id,
          message_id: d.message_id,
          event_type: d.event_type,
        },
      });
    }
    return row;
  });
}

/**
 * The webhook's health after an attempt, in the attempt's transaction. The common case, a worker's
 * success, is one conditional update that locks nothing when there is no failure series to clear.
 * Other outcomes lock the row first (FOR NO KEY UPDATE, which does not block transactions enqueuing
 * deliveries for it), so concurrent attempts of one webhook see each other's failing_since.
 */
export async function applyHealth(
  tx: Queryable,
  w: Pick<WebhookRow, 'id'>,
  r: OutboundResult,
  kind: AttemptKind,
): Promise<void> {
  if (isSuccess(r.status) && kind === 'auto') {
    await tx.query(
      'UPDATE webhooks SET failing_since = NULL, updated_at = now() WHERE id = $1 AND failing_since IS NOT NULL',
      [w.id],
    );
    return;
  }
  const cur = (await tx.query<WebhookRow>('SELECT * FROM webhooks WHERE id = $1 FOR NO KEY UPDATE', [w.id])).rows[0];
  if (!cur) return; // deleted meanwhile
  if (isSuccess(r.status)) {
    const reactivate = !cur.is_active && (cur.disabled_reason === 'auto' || cur.disabled_reason === 'gone');
    if (cur.failing_since === null && !reactivate) return;
    await tx.query(
      `UPDATE webhooks SET failing_since = NULL, updated_at = now()${
        reactivate ? ', is_active = true, disabled_reason = NULL' : ''
      } WHERE id = $1`,
      [cur.id],
    );
    if (reactivate) {
      await appendEvent(tx, {
        clientId: cur.client_id,
        mode: cur.mode,
        type: 'webhook.auto_reactivated',
        data: { webhook_id: cur.id, url: cur.url, via: kind === 'test' ? 'test' : 'retry' },
      });
    }
    return;
  }
  const gone = r.status === 410;
  const longFailing = cur.failing_since !== null && Date.now() - cur.failing_since.getTime() > AUTO_DISABLE_AFTER_MS;
  const disable = cur.is_active && (gone || longFailing);
  await tx.query(
    `UPDATE webhooks SET failing_since = COALESCE(failing_since, now()), updated_at = now()
            ${disable ? ', is_active = false, disabled_reason = $2' : ''}
      WHERE id = $1`,
    disable ? [cur.id, gone ? 'gone' : 'auto'] : [cur.id],
  );
  if (disable) {
    const why = gone
      ? 'its endpoint answered 410 Gone'
      : `its deliveries have been failing since ${cur.failing_since!.toISOString()}`;
    await notify(tx, cur.client_id, {
      type: 'webhook.disabled',
      params: {
        mode: cur.mode,
        url: cur.url,
        variant: gone ? 'gone' : 'failing',
        failing_since: gone ? null : cur.failing_since!.toISOString(),
      },
      title: 'Webhook switched off',
      body:
        `The ${cur.mode} webhook ${cur.url} was switched off because ${why}. ` +
        'Pending deliveries wait; a successful test or retry, or Enable, switches it back on.',
    });
  }
}
