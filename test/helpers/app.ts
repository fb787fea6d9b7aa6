// One app per test file on a real database: PostgreSQL when TEST_DATABASE_URL is set, else an in-memory
// PGlite loaded from the migrated dump that global-setup.ts made. Tests stay independent by making a
// fresh merchant each (see factories.ts), not by resetting. A fixed JWT key spares each file a key pair.
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, inject } from 'vitest';
import { loadConfig, type Config, type RateLimits } from '../../src/config.ts';
import { bootstrap, type Runtime } from '../../src/bootstrap.ts';
import { buildApp } from '../../src/app.ts';
import type { Clock } from '../../src/deps.ts';
import type { RequestLogWriter } from '../../src/http/plugins/request-log.ts';
import type { DeclaredRoute } from '../../src/http/route.ts';
import { TEST_JWT_PRIVATE_KEY } from './test-jwt-key.ts';

export const HIGH_LIMITS: RateLimits = {
  live: 1e6,
  test: 1e6,
  enterprise: 1e6,
  auth: 1e6,
  refresh: 1e6,
  login_email: 1e6,
  login_email_hourly: 1e6,
  cabinet: 1e6,
  partner: 1e6,
  anonymous: 1e6,
  checkout_get: 1e6,
  checkout_status: 1e6,
  checkout_refresh: 1e6,
  checkout_email: 1e6,
};

export interface TestApp {
  app: FastifyInstance;
  runtime: Runtime;
  config: Config;
  requestLog: RequestLogWriter;
  /** the route table, as declared with route() */
  routes: DeclaredRoute[];
  close(): Promise<void>;
}

export const usingPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** The migrated PGlite dump, read once per test file (absent outside `npm test`, e.g. the browser tests). */
let template: Blob | undefined;
function pgliteTemplate(): Blob | undefined {
  let file: string | undefined;
  try {
    file = inject('pgliteTemplate');
  } catch {
    return undefined; // outside a vitest run (a script building a test app): start from an empty store
  }
  if (!file) return undefined;
  template ??= new Blob([readFileSync(file)]);
  return template;
}

export async function buildTestApp(
  overrides: Partial<Config> = {},
  opts: {
    clock?: Clock /** the app's log lines go here (else no log) */;
    logStream?: { write(line: string): void };
  } = {},
): Promise<TestApp> {
  const config = loadConfig(
    {
      ...process.env,
      DATABASE_URL: process.env.TEST_DATABASE_URL ?? '',
      REDIS_URL: '',
      APP_SECRET: 'test-app-secret',
      JWT_PRIVATE_KEY: TEST_JWT_PRIVATE_KEY,
    },
    { rateLimits: HIGH_LIMITS, logLevel: 'silent', ...overrides },
  );
  if (!config.databaseUrl) config.dataDir = 'memory://';
  const runtime = await bootstrap(config, {
    clock: opts.clock,
    pgliteFrom: config.databaseUrl ? undefined : pgliteTemplate(),
    logLine: () => {},
  });
  const { app, requestLog, routes } = await buildApp(
    runtime.deps,
    opts.logStream ? { logStream: opts.logStream } : { logger: false },
  );
  let closed = false;
  const t: TestApp = {
    app,
    runtime,
    config,
    requestLog,
    routes,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await runtime.close();
    },
  };
  return t;
}

/**
 * The file's app and an admin of it (a user with is_admin), made before its tests and closed after:
 * `let t, admin; withAdmin((w) => ({ t, admin } = w));`.
 */
export function withAdmin(
  set: (w: { t: TestApp; admin: import('./factories.ts').Merchant }) => void,
  overrides: Partial<Config> = {},
): void {
  let t: TestApp | undefined;
  beforeAll(async () => {
    const { newAdmin } = await import('./factories.ts');
    t = await buildTestApp(overrides);
    set({ t, admin: await newAdmin(t.app, t.runtime.deps.db) });
  });
  afterAll(() => t?.close());
}
