// The webhook worker's drain in one process, with the time of each SQL statement: a backlog of N payments x 10
// webhooks on the embedded store (in memory, or DIR=path on disk), drained by a DeliveryWorker with a window
// of CAP (default: the store's). What found the single-row success statements of issue 25:
//   N=300 CAP=50 npx tsx bench/drain-probe.ts
// PROBE_DATABASE_URL=postgres://… runs it on PostgreSQL instead (that database's tables are used as they are).
import { execSync } from 'node:child_process';
import { loadConfig } from '../src/config.ts';
import { bootstrap } from '../src/bootstrap.ts';
import { concurrencyFor, DeliveryWorker } from '../src/jobs/deliveries.ts';
import { startReceiver } from './fanout.ts';
import { seedWebhooks } from './seed.ts';
import { appendEvent } from '../src/domain/events/append.ts';
import { TEST_JWT_PRIVATE_KEY } from '../test/helpers/test-jwt-key.ts';

const N = Number(process.env.N ?? 300),
  W = 10;
const receiver = await startReceiver();
const config = loadConfig(
  {
    ...process.env,
    DATABASE_URL: process.env.PROBE_DATABASE_URL ?? '',
    REDIS_URL: '',
    APP_SECRET: 'x',
    JWT_PRIVATE_KEY: TEST_JWT_PRIVATE_KEY,
    WEBHOOKS_ALLOW_PRIVATE: 'true',
  },
  { logLevel: 'silent' },
);
config.dataDir = process.env.DIR ?? 'memory://';
const rt = await bootstrap(config, { logLine: () => {} });
const db = rt.deps.db;
const stats = new Map<string, { n: number; ms: number }>();
for (const q of [db, db.relaxed] as any[]) {
  const orig = q.query.bind(q);
  q.query = async (sql: string, p?: unknown[]) => {
    const t0 = performance.now();
    try {
      return await orig(sql, p);
    } finally {
      const k = sql.replace(/\s+/g, ' ').slice(0, 90);
      const s = stats.get(k) ?? { n: 0, ms: 0 };
      s.n++;
      s.ms += performance.now() - t0;
      stats.set(k, s);
    }
  };
}
const c = (
  await db.query<{ id: number }>(
    `INSERT INTO clients (name, email, trial_ends_at) VALUES ('p','p@x.kz', now() + interval '1 year') RETURNING id`,
  )
).rows[0].id;
await seedWebhooks(db, c, W, receiver.url, 'x');
for (let i = 0; i < N; i++)
  await db.tx((tx) =>
    appendEvent(tx, {
      clientId: c,
      mode: 'test',
      type: 'payment.completed',
      data: { operation_id: `op_${i}`, amount: 100 },
    }),
  );
const pending = (await db.query<{ n: number }>(`SELECT count(*)::int n FROM webhook_deliveries WHERE status='pending'`))
  .rows[0].n;
console.log('pending', pending);
stats.clear();
const w = new DeliveryWorker(
  rt.deps,
  { error: (o: unknown, m: string) => console.log('ERR', m, o) } as any,
  process.env.CAP ? Number(process.env.CAP) : concurrencyFor(rt.deps),
);
// CPU of this process and of every PostgreSQL process over the drain (PostgreSQL on this machine only).
const pgTicks = () =>
  Number(
    execSync(
      `for p in $(pgrep -u postgres); do awk '{print $14+$15}' /proc/$p/stat 2>/dev/null; done` +
        ` | awk '{s+=$1} END {print s+0}'`,
      { shell: '/bin/bash' },
    ).toString(),
  );
const pg0 = process.env.PROBE_DATABASE_URL ? pgTicks() : 0;
const cpu0 = process.cpuUsage();
const t0 = Date.now();
w.start();
await receiver.waitFor(pending, 120_000);
const ms = Date.now() - t0;
console.log(`drained ${receiver.receipts.length} in ${ms} ms: ${Math.round((receiver.receipts.length / ms) * 1000)}/s`);
const cpu = process.cpuUsage(cpu0);
const perDelivery = (us: number) => (us / receiver.receipts.length).toFixed(0);
console.log(
  `CPU µs per delivery: this process (worker and receiver) ${perDelivery(cpu.user + cpu.system)}` +
    (process.env.PROBE_DATABASE_URL ? `, PostgreSQL ${perDelivery((pgTicks() - pg0) * 10_000)}` : ''),
);
await w.stop();
[...stats]
  .sort((a, b) => b[1].ms - a[1].ms)
  .slice(0, 12)
  .forEach(([k, s]) => console.log(s.n, Math.round(s.ms), 'ms', (s.ms / s.n).toFixed(2), k));
process.exit(0);
