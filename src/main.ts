// CLI entry: `start` (ROLE all | api | worker), `migrate`, `reseal` (after rotating APP_SECRET),
// `admin connect-platform` (the operator's provider account for plan payments), and `backup` / `restore`
// of the embedded store (docs/operations.md, Backups).
import { readFileSync } from 'node:fs';
import closeWithGrace from 'close-with-grace';
import { loadConfig, type Config } from './config.ts';
import { connect } from './db/db.ts';
import { migrate } from './db/migrate.ts';
import { bootstrap } from './bootstrap.ts';
import { buildApp } from './app.ts';
import { startJobs } from './jobs/index.ts';
import { startHeartbeat } from './jobs/heartbeat.ts';
import { resealProviderCredentials, resealWebhookSecrets } from './domain/webhooks/reseal.ts';
import { resealAtRest } from './domain/organization/reseal.ts';
import { resealFiscalCredentials } from './domain/fiscal/reseal.ts';
import { connectPlatform, USAGE } from './cli/connect-platform.ts';
import { startTracing } from './telemetry/tracing-sdk.ts';
import { listenForMetrics } from './http/metrics-listener.ts';
import { backup } from './cli/backup.ts';
import { restore } from './cli/restore.ts';
import { AdminSocketError, adminSocketProblem, holdDataDir, type HeldDataDir } from './cli/admin-socket.ts';
import { takeBackup } from './cli/snapshot.ts';
import { secretsFile } from './secrets.ts';

/** The commands besides `start`, `backup` and `restore`; each opens the store for its own length. */
const COMMANDS: Record<string, (config: Config) => Promise<void>> = {
  async migrate(config) {
    const db = await connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    const applied = await migrate(db);
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'up to date');
    await db.close();
  },
  async reseal(config) {
    // APP_SECRET rotation: re-seal what older keys sealed (docs/operations.md).
    const runtime = await bootstrap(config);
    const n = await resealWebhookSecrets(runtime.deps.db, runtime.deps.secrets.sealer);
    const p = await resealProviderCredentials(runtime.deps.db, runtime.deps.secrets.sealer);
    console.log(
      `re-sealed ${n} webhook secret${n === 1 ? '' : 's'} and ${p} provider credential${p === 1 ? '' : 's'} ` +
        'with the current APP_SECRET',
    );
    const f = await resealFiscalCredentials(runtime.deps.db, runtime.deps.secrets.sealer);
    console.log(`re-sealed the credentials of ${f} cash register${f === 1 ? '' : 's'}`);
    const o = await resealAtRest(runtime.deps.db, runtime.deps.secrets.sealer);
    console.log(
      `re-sealed ${o.resealed} other value${o.resealed === 1 ? '' : 's'} (IBANs, bank details, codes, messages); ` +
        `sealed ${o.sealed} IBAN${o.sealed === 1 ? '' : 's'} kept in clear before`,
    );
    await runtime.close();
  },
  async admin(config) {
    if (process.argv[3] !== 'connect-platform') throw new Error(`usage: ${USAGE}`);
    const runtime = await bootstrap(config);
    try {
      const r = await connectPlatform(runtime.deps, process.argv.slice(4));
      (r.exitCode ? console.error : console.log)(r.message);
      process.exitCode = r.exitCode;
    } finally {
      await runtime.close();
    }
  },
};

async function main(): Promise<void> {
  const command = process.argv[2] ?? 'start';
  const config = loadConfig();
  if (command === 'backup' || command === 'restore') {
    // They take the data directory themselves, when and if they open it (cli/backup.ts, cli/restore.ts).
    const r = await (command === 'backup' ? backup : restore)(config, process.argv.slice(3));
    (r.exitCode ? console.error : console.log)(r.message);
    process.exitCode = r.exitCode;
    return;
  }
  if (command !== 'start' && !Object.hasOwn(COMMANDS, command))
    throw new Error(
      `unknown command "${command}" (start | migrate | reseal | admin connect-platform | backup | restore)`,
    );

  // The embedded store's data directory is one process's at a time: taken before the store opens, so that
  // no second instance, command or `backup` of a stopped store opens it meanwhile (cli/admin-socket.ts).
  const embedded = !config.databaseUrl && !config.dataDir.startsWith('memory://');
  let socketProblem = embedded ? adminSocketProblem(config.dataDir) : undefined;
  let held: HeldDataDir | undefined;
  try {
    if (embedded && !socketProblem) held = await holdDataDir(config.dataDir, command === 'start' ? 'server' : command);
  } catch (err) {
    // Held by another process: refuse. No socket possible here at all: go on without, and say so.
    if (!(err instanceof AdminSocketError && err.unavailable)) throw err;
    socketProblem = err.message;
  }
  if (socketProblem && command !== 'start')
    console.warn(`${socketProblem}; nothing keeps another process off DATA_DIR`);
  if (command !== 'start') {
    try {
      await COMMANDS[command](config);
    } finally {
      await held?.close();
    }
    return;
  }

  // Before the store connects: its statements, the providers' calls and the requests are traced from the
  // start (decisions 29). Without OTEL_EXPORTER_OTLP_ENDPOINT nothing of OpenTelemetry is loaded.
  const tracing = await startTracing(config.otel, { role: config.role, version: packageVersion() });
  const runtime = await bootstrap(config);
  const { deps } = runtime;
  held?.onBackup((req) =>
    takeBackup(deps.db, {
      dataDir: config.dataDir,
      secretsFile: secretsFile(config),
      includeSecrets: req.secrets,
      appSecret: deps.secrets.appSecret,
      takenFrom: 'running',
    }),
  );
  const { app } = await buildApp(deps);
  if (tracing) app.log.info({ endpoint: config.otel.endpoint, protocol: config.otel.protocol }, 'exporting traces');
  for (const w of runtime.warnings) app.log.warn(w);
  if (socketProblem) app.log.warn(`${socketProblem}; \`backup\` cannot reach this instance while it runs`);
  if (!config.databaseUrl && config.nodeEnv === 'production') {
    app.log.warn(
      'embedded store (PGlite) in production: it survives a killed process but not a power loss; set DATABASE_URL',
    );
  }
  const jobs = config.role === 'api' ? undefined : startJobs(deps, app.log);
  if (config.role !== 'worker') {
    await app.listen({ port: config.port, host: config.host });
    // The one line an operator looks for after a start: where everything is.
    app.log.info(
      { api: config.publicBaseUrl, docs: `${config.publicBaseUrl}/docs`, dashboard: config.dashboardUrl },
      `Tolem is ready: API ${config.publicBaseUrl}, docs ${config.publicBaseUrl}/docs, ` +
        `dashboard ${config.dashboardUrl}/`,
    );
  } else {
    app.log.info('worker started (ROLE=worker): background jobs only, no HTTP listener');
  }
  const stopHeartbeat =
    config.role === 'worker' && config.heartbeatFile ? startHeartbeat(deps, config.heartbeatFile, app.log) : undefined;
  const metrics =
    config.metricsPort === undefined ? undefined : await listenForMetrics(app, config.metricsPort, config.host);
  if (metrics) app.log.info({ port: metrics.port }, 'serving /metrics, /healthz and /readyz on METRICS_PORT');

  // At once, side by side: HTTP stops accepting (503 to new requests) while the requests in flight
  // finish, and the jobs finish the item in hand (the rest of a claimed batch waits for its lease to run
  // out and is claimed again). Then the store closes.
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    stopHeartbeat?.();
    await Promise.all([app.close(), jobs?.stop(), metrics?.close(), held?.close()]);
    await runtime.close();
    await tracing?.shutdown(); // the last spans go out before the process ends
  });
}

/** The version in package.json beside src/ or dist/ (the resource's service.version); '' if unreadable. */
function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
      .version;
  } catch {
    return '';
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
