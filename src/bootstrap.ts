// From configuration to Deps: connect the store, migrate, load secrets, pick the rate-limit store.
import type { Config } from './config.ts';
import { connect } from './db/db.ts';
import { migrate } from './db/migrate.ts';
import { waitForStore } from './db/wait-for-store.ts';
import { loadSecrets } from './secrets.ts';
import { systemClock, type Clock, type Deps } from './deps.ts';
import { connectRedis, createRateLimiter } from './infra/rate-limit-store.ts';
import { createProviders } from './providers/index.ts';
import { createFiscalDrivers } from './fiscal/index.ts';
import { closeFiscalPools } from './fiscal/http.ts';
import { Caches, listenForInvalidation } from './infra/cache.ts';
import { wireDomainSubscribers } from './domain/subscribers.ts';
import { channelDrivers } from './channels/index.ts';
import { ensurePlatformAccount } from './domain/subscriptions/subscriptions.ts';
import { setCommissionHoldDays } from './domain/partners/commissions.ts';
import { setAlertDashboardUrl } from './domain/notifications/staff-alerts.ts';
import type { LogLine } from './channels/log.ts';
import { traceLogFields } from './telemetry/tracing.ts';

export interface Runtime {
  deps: Deps;
  /** for the operator's log at start-up (secrets kept in a file or still in the database) */
  warnings: string[];
  close(): Promise<void>;
}

export interface BootstrapOptions {
  clock?: Clock;
  migrate?: boolean;
  /** the embedded store starts from this data-directory dump (test apps: one already migrated) */
  pgliteFrom?: Blob;
  /** where the `log` channel drivers write (the app's logger); default: one JSON line on stdout */
  logLine?: LogLine;
}

export async function bootstrap(config: Config, opts: BootstrapOptions = {}): Promise<Runtime> {
  wireDomainSubscribers();
  setCommissionHoldDays(config.partnerCommissionHoldDays);
  setAlertDashboardUrl(config.dashboardUrl);
  const db = await connect({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolMax: config.pgPoolMax,
    pgliteFrom: opts.pgliteFrom,
  });
  if (db.kind === 'pg')
    await waitForStore(db, { log: (msg) => console.log(JSON.stringify({ level: 40, time: Date.now(), msg })) });
  if (opts.migrate !== false) await migrate(db);
  const { secrets, warnings } = await loadSecrets(db, config);
  const caches = new Caches();
  await listenForInvalidation(db, caches);
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  const limiter = createRateLimiter(redis, secrets.namespace);
  const clock = opts.clock ?? systemClock;
  const deps: Deps = {
    config,
    db,
    secrets,
    clock,
    limiter,
    providers: createProviders(config, db, limiter),
    fiscal: createFiscalDrivers(config.fiscal, db, clock, config.publicBaseUrl),
    caches,
    channels: channelDrivers(
      config.channels,
      // The `log` drivers' lines carry the trace of the send they belong to, as the app's log lines do.
      opts.logLine ??
        ((fields, msg) =>
          console.log(JSON.stringify({ level: 30, time: Date.now(), ...traceLogFields({}, 30), ...fields, msg }))),
    ),
  };
  if (opts.migrate !== false) await ensurePlatformAccount(deps);
  return {
    deps,
    warnings,
    async close() {
      redis?.disconnect();
      await Promise.all(Object.values(deps.channels).map((c) => c.close?.()));
      await deps.providers.qrapi?.close();
      await closeFiscalPools();
      await db.close();
    },
  };
}
