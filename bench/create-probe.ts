// The QR creation's SQL, statement by statement, on the embedded store (in memory): N creations through
// the HTTP app (inject), each statement's count and time. What to look at when create_qr's ratio drops:
//   N=500 npx tsx bench/create-probe.ts
import { randomUUID } from 'node:crypto';
import { buildTestApp } from '../test/helpers/app.ts';
import { newMerchant } from '../test/helpers/factories.ts';

const N = Number(process.env.N ?? 500);
const t = await buildTestApp();
const m = await newMerchant(t.app);
const stats = new Map<string, { n: number; ms: number }>();
const db = t.runtime.deps.db as unknown as {
  query: (sql: string, p?: unknown[]) => Promise<unknown>;
  tx: (fn: (q: unknown) => Promise<unknown>) => Promise<unknown>;
};
const time = (q: { query: (sql: string, p?: unknown[]) => Promise<unknown> }) => {
  const orig = q.query.bind(q);
  q.query = async (sql: string, p?: unknown[]) => {
    const t0 = performance.now();
    try {
      return await orig(sql, p);
    } finally {
      const k = sql.replace(/\s+/g, ' ').slice(0, 100);
      const s = stats.get(k) ?? { n: 0, ms: 0 };
      s.n++;
      s.ms += performance.now() - t0;
      stats.set(k, s);
    }
  };
};
time(db);
time(
  (t.runtime.deps.db as unknown as { relaxed: { query: (sql: string, p?: unknown[]) => Promise<unknown> } }).relaxed,
);
const origTx = db.tx.bind(db);
db.tx = (fn) =>
  origTx(async (q) => {
    time(q as never);
    return fn(q);
  });
const create = () =>
  t.app.inject({
    method: 'POST',
    url: '/v2/qr',
    headers: { 'x-api-key': m.testKey, 'idempotency-key': randomUUID(), 'content-type': 'application/json' },
    payload: { amount: 5000 },
  });
for (let i = 0; i < 50; i++) await create(); // warm
stats.clear();
const t0 = performance.now();
for (let i = 0; i < N; i++) {
  const r = await create();
  if (r.statusCode !== 201) throw new Error(`${r.statusCode} ${r.body}`);
}
const ms = performance.now() - t0;
console.log(`${N} creations in ${Math.round(ms)} ms: ${(ms / N).toFixed(2)} ms each`);
[...stats]
  .sort((a, b) => b[1].ms - a[1].ms)
  .slice(0, 15)
  .forEach(([k, s]) => console.log(s.n, Math.round(s.ms), 'ms', (s.ms / s.n).toFixed(3), k));
await t.close();
process.exit(0);
