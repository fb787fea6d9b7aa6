// The webhook delivery worker (ROLE worker | all). It keeps up to `capacity` deliveries in flight: it
// claims due rows under a lease, POSTs each as soon as it is claimed, and claims again as slots free up,
// so one slow receiver (up to WEBHOOK_TIMEOUT_MS) holds one slot, not every other merchant's deliveries.
// Successes are recorded in batches (success-batch.ts), other outcomes one by one (attempt.ts). Claims
// and successes commit without waiting for the disk (Db.relaxed, its own connections, so they never
// queue behind the API's transactions): a database crash can lose only the last fraction of a second of
// them, which sends those deliveries again (a lost claim is claimed again, a lost success is attempted
// again), and at-least-once asks no more. Failures, which move retry schedules and write journal
// events, keep synchronous commits. The
// transaction that writes deliveries NOTIFYs the workers, which claim a few milliseconds later; the
// 250 ms poll remains for retries coming due and for a notification lost with its connection.
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../deps.ts';
import { randomToken } from '../crypto.ts';
import { claimDue, type Claimed } from '../domain/webhooks/claim.ts';
import { failureText, isSuccess, recordAttempt, responsePreview, send } from '../domain/webhooks/attempt.ts';
import { leaseSecondsFor } from '../domain/webhooks/manual.ts';
import { coalesceMsFor, SuccessBatcher } from '../domain/webhooks/success-batch.ts';
import { DELIVERIES_CHANNEL } from '../domain/webhooks/enqueue.ts';
import { failSpan, inSpan, tracingOn, type Span } from '../telemetry/tracing.ts';
import { webhookAttempts, webhookDeliveriesFailed } from '../telemetry/metrics.ts';

export const DELIVERY_POLL_MS = 250;
/** After a notification: long enough to claim the deliveries of several commits in one statement. */
const NOTIFY_COALESCE_MS = 5;
export const DEFAULT_BATCH = 50;

export interface DeliverOptions {
  /** rows claimed (and sent concurrently) per pass */
  batch?: number;
  /** only this client's deliveries: tests that share a database with others */
  clientId?: number;
  /** failures to record; `warn` (when present) also gets refused destinations' detail (attempt.ts send) */
  log?: Pick<FastifyBaseLogger, 'error'> & Partial<Pick<FastifyBaseLogger, 'warn'>>;
}

async function claim(deps: Deps, limit: number, clientId?: number): Promise<{ claimed: Claimed[]; token: string }> {
  const token = randomToken(12);
  const claimed = await claimDue(deps.db.relaxed, {
    limit,
    // Every claimed row is sent at once: one time-out, plus room for recording the outcome.
    leaseSeconds: leaseSecondsFor(deps.config.webhookTimeoutMs),
    leaseToken: token,
    firstDelaySeconds: deps.config.webhookRetrySchedule[0] ?? 0,
    clientId,
  });
  return { claimed, token };
}

/**
 * Sends one claimed delivery and records the outcome. A failure to record (store unavailable) leaves the
 * lease to run out, and the row is attempted again: at least once, never lost. With tracing on, the
 * attempt is a span in the trace of the transaction that queued the delivery (its stored traceparent):
 * a payment's trace goes on through the webhook it caused.
 */
function deliverOne(
  deps: Deps,
  successes: SuccessBatcher,
  c: Claimed,
  token: string,
  log?: DeliverOptions['log'],
): Promise<void> {
  if (!tracingOn()) return attempt(deps, successes, c, token, log, undefined);
  const attributes = {
    'tolem.webhook.id': c.webhook.id,
    'tolem.delivery.id': c.delivery.id,
    'tolem.message.id': c.delivery.message_id,
    'tolem.event.type': c.delivery.event_type,
    'tolem.delivery.attempt': c.delivery.attempts + 1,
  };
  return inSpan('webhook delivery', { kind: 'consumer', parent: c.traceContext, attributes }, (span) =>
    attempt(deps, successes, c, token, log, span),
  );
}

async function attempt(
  deps: Deps,
  successes: SuccessBatcher,
  c: Claimed,
  token: string,
  log: DeliverOptions['log'],
  span: Span | undefined,
): Promise<void> {
  try {
    // The POST alone, as a client span: the receiver's own time, apart from recording the outcome. Only
    // the host: a webhook URL may carry the merchant's token in its path or query.
    const result = !span
      ? await send(deps, c.webhook, c.delivery, log)
      : await inSpan(
          'POST',
          { kind: 'client', attributes: { 'http.request.method': 'POST', 'server.address': hostOf(c.webhook.url) } },
          async (post) => {
            const r = await send(deps, c.webhook, c.delivery, log);
            post?.setAttribute('http.response.status_code', r.status);
            return r;
          },
        );
    const ok = isSuccess(result.status);
    webhookAttempts.labels(ok ? 'delivered' : 'failed').inc();
    span?.setAttribute('http.response.status_code', result.status);
    if (!ok && span) failSpan(span, failureText(result));
    if (ok) {
      await successes.add({
        deliveryId: c.delivery.id,
        leaseToken: token,
        status: result.status,
        response: responsePreview(result.body),
        at: new Date(),
      });
    } else {
      const row = await recordAttempt(deps, c.delivery, c.webhook, result, 'auto', token);
      if (row?.status === 'failed' && c.delivery.status === 'pending') webhookDeliveriesFailed.inc();
    }
  } catch (err) {
    if (span) failSpan(span, err);
    log?.error({ err, delivery: c.delivery.id }, 'webhook delivery not recorded');
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/** One pass: claim up to `batch` due deliveries and attempt each. Returns how many were claimed. */
export async function deliverDue(deps: Deps, opts: DeliverOptions = {}): Promise<number> {
  const { claimed, token } = await claim(deps, opts.batch ?? DEFAULT_BATCH, opts.clientId);
  const successes = new SuccessBatcher(deps.db.relaxed, coalesceMsFor(deps.db.kind));
  await Promise.all(claimed.map((c) => deliverOne(deps, successes, c, token, opts.log)));
  return claimed.length;
}

/** Runs passes until nothing is due (tests; `max` bounds the passes). */
export async function deliverAllDue(deps: Deps, opts: DeliverOptions & { max?: number } = {}): Promise<number> {
  let total = 0;
  for (let i = 0; i < (opts.max ?? 100); i++) {
    const n = await deliverDue(deps, opts);
    total += n;
    if (n === 0) break;
  }
  return total;
}

/** The worker's loop: a window of `capacity` deliveries in flight, refilled as they finish. */
export class DeliveryWorker {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly successes: SuccessBatcher;
  private timer?: NodeJS.Timeout;
  private claiming?: Promise<void>;
  private stopped = false;
  /** the last claim filled every free slot: more is probably due */
  private backlog = false;
  private nudged = false;

  constructor(
    private deps: Deps,
    private log: NonNullable<DeliverOptions['log']>,
    private capacity = DEFAULT_BATCH,
    /** only this client's deliveries: tests that share a database with others */
    private clientId?: number,
  ) {
    this.successes = new SuccessBatcher(deps.db.relaxed, coalesceMsFor(deps.db.kind));
  }

  start(): void {
    this.deps.db
      .listen(DELIVERIES_CHANNEL, () => this.nudge())
      .catch((err) => this.log.error({ err }, 'LISTEN for deliveries failed; polling only'));
    this.wake(0);
  }

  /** New deliveries were committed: claim soon (after the claim under way, if there is one). */
  private nudge(): void {
    if (this.stopped || this.nudged) return;
    this.nudged = true;
    if (!this.claiming) this.wake(NOTIFY_COALESCE_MS);
  }

  /** Stops claiming, then waits for the deliveries in flight to be sent and recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.claiming;
    await Promise.all(this.inFlight);
  }

  private wake(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refill(), ms);
  }

  /**
   * Claims for the free slots. Claiming for a quarter of the window at least keeps the claim statements
   * few under load; an idle worker claims at once.
   */
  private async refill(): Promise<void> {
    if (this.claiming || this.stopped) return;
    const free = this.capacity - this.inFlight.size;
    if (free < Math.max(1, Math.floor(this.capacity / 4))) {
      // Full: a finishing delivery wakes us when work is waiting; the poll covers the rest.
      this.wake(DELIVERY_POLL_MS);
      return;
    }
    this.nudged = false;
    let next = DELIVERY_POLL_MS;
    this.claiming = (async () => {
      try {
        const { claimed, token } = await claim(this.deps, free, this.clientId);
        this.backlog = claimed.length === free;
        for (const c of claimed) {
          const p: Promise<void> = deliverOne(this.deps, this.successes, c, token, this.log).finally(() => {
            this.inFlight.delete(p);
            if ((this.backlog || this.nudged) && !this.claiming) this.wake(0);
          });
          this.inFlight.add(p);
        }
        if (this.backlog) next = 0;
      } catch (err) {
        this.backlog = false;
        this.log.error({ err, job: 'webhook-deliveries' }, 'claiming deliveries failed');
      }
    })();
    await this.claiming;
    this.claiming = undefined;
    this.wake(this.nudged ? Math.min(next, NOTIFY_COALESCE_MS) : next);
  }
}

/**
 * The window of deliveries in flight. The embedded store runs each statement on the main thread, so no
 * answer is read while one runs: a wide window makes each claim and each batch of successes carry many
 * rows, and the statements few (measured with `npm run bench`, quick, PGlite: 50 -> 266-612 deliveries/s
 * drained, 200 -> 824, 500 -> 1,020, lag p99 274 ms at 1,000/s offered). On PostgreSQL the database's
 * work per delivery is what limits the drain, and 100 halves the claims per delivery against 50
 * (bench, PostgreSQL fan-out: 0.44-0.48x -> 0.53x of the bare sender, which is no faster at 100 than at 50).
 */
export const concurrencyFor = (deps: Deps) => deps.config.webhookConcurrency ?? (deps.db.kind === 'pglite' ? 500 : 100);

export function deliveryWorker(deps: Deps, log: FastifyBaseLogger): DeliveryWorker {
  return new DeliveryWorker(deps, log, concurrencyFor(deps));
}
