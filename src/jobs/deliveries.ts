// The webhook delivery worker (ROLE worker | all). Each pass claims a batch of due deliveries under a
// lease, POSTs them concurrently (the batch size bounds the concurrency) and records each outcome. The
// loop polls every 250 ms and runs again at once after a full batch, so a delivery leaves within about
// a poll interval of its commit.
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../deps.ts';
import { randomToken } from '../crypto.ts';
import { claimDue, type Claimed } from '../domain/webhooks/claim.ts';
import { recordAttempt, send } from '../domain/webhooks/attempt.ts';
import { leaseSecondsFor } from '../domain/webhooks/manual.ts';
import { JobLoop } from './loop.ts';

export const DELIVERY_POLL_MS = 250;
export const DEFAULT_BATCH = 50;

export interface DeliverOptions {
  /** rows claimed (and sent concurrently) per pass */
  batch?: number;
  /** only this client's deliveries: tests that share a database with others */
  clientId?: number;
  log?: Pick<FastifyBaseLogger, 'error'>;
}

async function deliverOne(deps: Deps, c: Claimed, token: string): Promise<void> {
  const result = await send(deps, c.webhook, c.delivery);
  await recordAttempt(deps, c.delivery, c.webhook, result, 'auto', token);
}

/**
 * One pass: claim up to `batch` due deliveries and attempt each. Returns how many were claimed. A
 * failure to record (store unavailable) leaves the lease to run out, and the row is attempted again.
 */
export async function deliverDue(deps: Deps, opts: DeliverOptions = {}): Promise<number> {
  const token = randomToken(12);
  const claimed = await claimDue(deps.db, {
    limit: opts.batch ?? DEFAULT_BATCH,
    // The whole batch runs concurrently: one time-out, plus room for recording the outcomes.
    leaseSeconds: leaseSecondsFor(deps.config.webhookTimeoutMs),
    leaseToken: token,
    firstDelaySeconds: deps.config.webhookRetrySchedule[0] ?? 0,
    clientId: opts.clientId,
  });
  await Promise.all(
    claimed.map((c) =>
      deliverOne(deps, c, token).catch((err) => opts.log?.error({ err, delivery: c.delivery.id }, 'webhook delivery not recorded')),
    ),
  );
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

export function deliveryLoop(deps: Deps, log: FastifyBaseLogger): JobLoop {
  const batch = DEFAULT_BATCH;
  return new JobLoop('webhook-deliveries', DELIVERY_POLL_MS, log, async () => (await deliverDue(deps, { batch, log })) >= batch);
}
