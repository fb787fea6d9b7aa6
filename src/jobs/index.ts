// Background jobs of ROLE worker|all. Each job is a loop over rows it claims; stop() lets the item in
// hand (and the deliveries in flight) finish; rows claimed and not yet handled wait for their lease.
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../deps.ts';
import { JobLoop } from './loop.ts';
import { deliveryWorker } from './deliveries.ts';
import { FiscalWorker } from './fiscal.ts';
import { sweepExpired } from './expiry.ts';
import { retryPendingRefunds } from './refund-retry.ts';
import { expireDueLinks } from '../domain/links/expire.ts';
import { sendDueMessages } from '../domain/channels/outbox.ts';
import { closeIdleTickets } from '../domain/support/tickets.ts';
import { pollWatchedQrs } from '../domain/payments/watch.ts';
import { pollReturns } from '../domain/payments/refund-return.ts';
import { wipeReleasedCredentials } from '../domain/payments/provider-account-settings.ts';
import { deleteReleasedDevices } from '../domain/payments/device-deletion.ts';
import { releaseDueCommissions } from '../domain/partners/commissions.ts';
import { cancelExpiredWithdrawals } from '../domain/partners/money.ts';
import { noticeExpiringCertificates } from '../domain/notifications/certificate-notices.ts';
import { noticeEndingPlans } from '../domain/notifications/plan-notices.ts';
import { sendDailySummaries } from '../domain/notifications/daily-summary.ts';
import { pruneDeliveries, pruneEvents, pruneIdempotencyKeys, pruneOutbox, pruneRequestLogs } from './retention.ts';

export interface Jobs {
  stop(): Promise<void>;
}

/**
 * Live QRs of the qrapi driver, polled at the provider's interval, at most N per account per pass. One
 * pass starts each second (fixed rate: a pass's own time is not added to the pause, or an account would
 * get only N calls per 1 s + the pass), and never "full": one pass a second is what keeps each account
 * under its calls per second.
 */
export function qrWatcherLoop(deps: Deps, log: FastifyBaseLogger): JobLoop {
  return new JobLoop(
    'qr-watcher',
    1000,
    log,
    async () => (
      await pollWatchedQrs(deps, {
        batch: 2000,
        perAccount: deps.config.qrapi.watchCallsPerSecond,
        onError: (err, op) => log.warn({ err, op: op.id }, 'watcher poll failed; will retry'),
      }),
      false
    ),
    { fixedRate: true },
  );
}

export function startJobs(deps: Deps, log: FastifyBaseLogger): Jobs {
  const full = (batch: number) => (n: number) => n >= batch;
  const loops: { start(): void; stop(): Promise<void> }[] = [
    deliveryWorker(deps, log),
    // Fiscal receipts: one request at a time per register, registers side by side (decisions 27).
    new FiscalWorker(deps, log),
    new JobLoop('expiry-sweeper', 1000, log, async (stopping) =>
      full(100)(
        await sweepExpired(
          deps,
          100,
          (err, op) => log.warn({ err, op: op.id }, 'expiry sync failed; will retry'),
          stopping,
        ),
      ),
    ),
    qrWatcherLoop(deps, log),
    // r2 refunds waiting for the payer's return QR, polled at the interval the provider announced.
    new JobLoop(
      'return-watcher',
      1000,
      log,
      async () =>
        full(100)(
          await pollReturns(deps, {
            batch: 100,
            onError: (err, id) => log.warn({ err, refund: id }, 'return poll failed; will retry'),
          }),
        ),
      { fixedRate: true },
    ),
    new JobLoop('refund-retry', 5000, log, async (stopping) =>
      full(50)(
        await retryPendingRefunds(
          deps,
          50,
          (err, id) => log.warn({ err, refund: id }, 'refund retry failed; will retry'),
          stopping,
        ),
      ),
    ),
    new JobLoop('outbox', 1000, log, async () => full(50)(await sendDueMessages(deps, 50))),
    new JobLoop('ticket-idle-close', 3600_000, log, async () => full(500)(await closeIdleTickets(deps, 500))),
    new JobLoop('link-expiry', 5000, log, async () => full(500)(await expireDueLinks(deps, 500))),
    // set-based and deduplicated: one pass does all clients, so it never reports a full batch
    new JobLoop('plan-notices', 900_000, log, async () => (await noticeEndingPlans(deps.db, deps.clock.now()), false)),
    // Staff alerts' daily summaries (decisions 28): a member's hour is checked each minute, a batch a pass.
    new JobLoop('daily-summaries', 60_000, log, async (stopping) =>
      full(100)(await sendDailySummaries(deps, 100, stopping)),
    ),
    new JobLoop(
      'certificate-notices',
      3600_000,
      log,
      async () => (await noticeExpiringCertificates(deps.db, deps.clock.now()), false),
    ),
    new JobLoop('commission-release', 60_000, log, async () => full(500)(await releaseDueCommissions(deps, 500))),
    new JobLoop('withdrawal-expiry', 30_000, log, async () => full(200)(await cancelExpiredWithdrawals(deps))),
    new JobLoop('credential-wipe', 600_000, log, async () => full(100)(await wipeReleasedCredentials(deps))),
    new JobLoop('device-deletion', 30_000, log, async () => full(20)(await deleteReleasedDevices(deps, 20))),
    new JobLoop('idempotency-retention', 600_000, log, async () => full(5000)(await pruneIdempotencyKeys(deps))),
    new JobLoop('event-retention', 3600_000, log, async () => full(5000)(await pruneEvents(deps))),
    new JobLoop('delivery-retention', 3600_000, log, async () => full(5000)(await pruneDeliveries(deps))),
    new JobLoop('outbox-retention', 3600_000, log, async () => full(5000)(await pruneOutbox(deps))),
    new JobLoop('request-log-retention', 3600_000, log, async () => full(5000)(await pruneRequestLogs(deps))),
  ];
  for (const l of loops) l.start();
  return { stop: async () => void (await Promise.all(loops.map((l) => l.stop()))) };
}
