// The background work's metrics at /metrics, beside the requests' (metrics.ts), for the alert rules and
// the dashboard under deploy/ (decisions 29):
// - what this process did: webhook attempts, deliveries given up, outbox sends, breaker trips
//   (telemetry/metrics.ts counts them where they happen) and its providers' breakers open now;
// - what the store holds, read at each scrape: the webhook and outbox backlogs and the watcher's lag.
//   These are the same for every instance (one store), so the rules take their max over instances.
// The store's figures are read once per scrape for all of them, and a scrape that cannot read them shows
// NaN (no alert fires on it; /readyz and the 5xx rate say the store is down) rather than failing /metrics.
import { Gauge, type Registry } from 'prom-client';
import type { Deps } from '../../deps.ts';
import { JOB_COUNTERS } from '../../telemetry/metrics.ts';
import { openBreakers } from '../../providers/qrapi/breaker.ts';
import { BACKLOG_COUNT_CAP, deliveryBacklog } from '../../domain/webhooks/backlog.ts';
import { outboxBacklog } from '../../domain/channels/outbox.ts';
import { watcherLagSeconds } from '../../domain/payments/watch.ts';

interface StoreFigures {
  queues: Record<'webhooks' | 'outbox', { due: number; oldestSeconds: number }>;
  watcherLag: number;
}

async function readStore(deps: Pick<Deps, 'db'>): Promise<StoreFigures> {
  const [webhooks, outbox, watcherLag] = await Promise.all([
    deliveryBacklog(deps.db),
    outboxBacklog(deps.db, BACKLOG_COUNT_CAP),
    watcherLagSeconds(deps),
  ]);
  return { queues: { webhooks, outbox }, watcherLag };
}

export function registerJobMetrics(registry: Registry, deps: Pick<Deps, 'db'>): void {
  for (const c of JOB_COUNTERS) registry.registerMetric(c);

  // One read of the store per scrape, shared by the gauges below (each collects on its own).
  let pending: { at: number; figures: Promise<StoreFigures | undefined> } | undefined;
  const figures = () => {
    if (!pending || Date.now() - pending.at > 1000)
      pending = { at: Date.now(), figures: readStore(deps).catch(() => undefined) };
    return pending.figures;
  };

  new Gauge({
    name: 'tolem_provider_breakers_open',
    help: 'Provider accounts whose circuit breaker is open now in this process (their calls fail at once)',
    registers: [registry],
    collect() {
      this.set(openBreakers());
    },
  });
  new Gauge({
    name: 'tolem_job_backlog',
    help:
      'Items due now and not yet handled, by queue (webhooks: deliveries; outbox: messages), ' +
      `at most ${BACKLOG_COUNT_CAP}`,
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      const f = await figures();
      for (const queue of ['webhooks', 'outbox'] as const) this.set({ queue }, f ? f.queues[queue].due : Number.NaN);
    },
  });
  new Gauge({
    name: 'tolem_job_backlog_oldest_seconds',
    help: 'Seconds since the oldest item due in the queue became due (0: nothing waits)',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      const f = await figures();
      for (const queue of ['webhooks', 'outbox'] as const)
        this.set({ queue }, f ? f.queues[queue].oldestSeconds : Number.NaN);
    },
  });
  new Gauge({
    name: 'tolem_watcher_lag_seconds',
    help: 'Seconds since the most overdue live QR should have had its status polled (0: the watcher keeps up)',
    registers: [registry],
    async collect() {
      const f = await figures();
      this.set(f ? f.watcherLag : Number.NaN);
    },
  });
}
