// The streamed payment reports (decisions 28) over 100,000 payments: how much the process's resident memory
// grows while a client downloads each export, and how long each takes, on the embedded store and on
// PostgreSQL. One process holds the app, the store (PGlite) and the client, so the growth is an upper bound
// for the app's. The baseline is taken after a warm-up download of each form (modules loaded, code compiled)
// and a garbage collection; the growth is the highest sample (every 20 ms) during the measured download less
// that baseline. A figure, not a test: nothing here fails on time.
//   npx tsx --expose-gc bench/exports.ts
//   BENCH_STORES=pglite,pg  BENCH_EXPORT_ROWS=100000  BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres
// PostgreSQL gets a fresh database, dropped afterwards.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { bootstrap } from '../src/bootstrap.ts';
import { buildApp } from '../src/app.ts';
import { seedOperations } from './seed.ts';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 100_000);
const STORES = (process.env.BENCH_STORES ?? 'pglite,pg').split(',') as ('pg' | 'pglite')[];
const PG_ADMIN = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;

interface Figure {
  store: string;
  form: string;
  rows: number;
  bytes: number;
  seconds: number;
  growthMb: number;
}

/** Downloads `url`, counting bytes (and lines, for CSV), sampling the resident memory meanwhile. */
async function download(url: string, token: string) {
  let peak = process.memoryUsage().rss;
  let heapAtPeak = process.memoryUsage().heapUsed;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    if (m.rss > peak) [peak, heapAtPeak] = [m.rss, m.heapUsed];
  }, 20);
  const t0 = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) lines++;
  }
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
  return { bytes, lines, seconds, peak, heapAtPeak };
}

async function runStore(store: 'pg' | 'pglite'): Promise<Figure[]> {
  let databaseUrl = '';
  let dataDir: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  if (store === 'pg') {
    const name = `tolem_bench_exports_${randomUUID().slice(0, 8)}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const u = new URL(PG_ADMIN);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    drop = async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
  } else {
    dataDir = mkdtempSync(path.join(tmpdir(), 'tolem-bench-exports-'));
    drop = async () => rmSync(dataDir!, { recursive: true, force: true });
  }
  const config = loadConfig(
    { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: '', APP_SECRET: 'bench-app-secret' },
    { logLevel: 'silent' },
  );
  if (dataDir) config.dataDir = dataDir;
  const runtime = await bootstrap(config, { logLine: () => {} });
  const { app } = await buildApp(runtime.deps, { logger: false });
  const figures: Figure[] = [];
  try {
    const reg = await app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Bench Shop', email: `bench-${randomUUID()}@bench.kz`, password: 'a long bench password' },
    });
    if (reg.statusCode !== 201) throw new Error(`register: ${reg.statusCode} ${reg.body}`);
    const token = reg.json().access_token as string;
    const me = (await app.inject({ url: '/me', headers: { authorization: `Bearer ${token}` } })).json();
    const db = runtime.deps.db;
    const acc = await db.query<{ id: number }>(
      `SELECT id FROM provider_accounts WHERE client_id = $1 AND mode = 'test' ORDER BY id LIMIT 1`,
      [me.id],
    );
    const accountId =
      acc.rows[0]?.id ??
      (
        await db.query<{ id: number }>(
          `INSERT INTO provider_accounts (client_id, mode, driver, display_name, is_default)
           VALUES ($1, 'test', 'sandbox', 'Sandbox', true) RETURNING id`,
          [me.id],
        )
      ).rows[0].id;
    const t0 = performance.now();
    // Over the last 30 days (seed.ts: 2.5 s apart), all of them inside the range below.
    await seedOperations(db, { clients: [{ id: me.id, testKey: '', accountId }] }, ROWS);
    console.error(`${store}: seeded ${ROWS} payments in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const day = (d: number) => new Date(Date.now() + 5 * 3600_000 + d * 86_400_000).toISOString().slice(0, 10);
    const range = `mode=test&from=${day(-40)}&to=${day(1)}`;
    for (const form of ['csv', 'xlsx']) {
      const url = `${base}/me/reports/payments.${form}?${range}`;
      await download(url, token); // warm-up
      gc?.();
      await new Promise((r) => setTimeout(r, 200));
      gc?.();
      const baseline = process.memoryUsage().rss;
      const baseHeap = process.memoryUsage().heapUsed;
      const d = await download(url, token);
      gc?.();
      const after = process.memoryUsage();
      const rows = form === 'csv' ? d.lines - 1 : ROWS;
      if (form === 'csv' && rows !== ROWS) throw new Error(`csv: ${rows} rows, expected ${ROWS}`);
      figures.push({
        store,
        form,
        rows,
        bytes: d.bytes,
        seconds: d.seconds,
        growthMb: (d.peak - baseline) / MB,
      });
      console.error(
        `${store} ${form}: ${(d.bytes / MB).toFixed(1)} MB in ${d.seconds.toFixed(2)} s, ` +
          `RSS ${(baseline / MB).toFixed(0)} MB -> peak ${(d.peak / MB).toFixed(0)} MB ` +
          `(heap ${(baseHeap / MB).toFixed(0)} -> ${(d.heapAtPeak / MB).toFixed(0)} MB); after a collection: ` +
          `RSS ${(after.rss / MB).toFixed(0)} MB, heap ${(after.heapUsed / MB).toFixed(0)} MB`,
      );
    }
  } finally {
    await app.close();
    await runtime.close();
    await drop?.();
  }
  return figures;
}

if (!gc) console.error('run with --expose-gc for a steadier baseline (npx tsx --expose-gc bench/exports.ts)');
const all: Figure[] = [];
for (const store of STORES) all.push(...(await runStore(store)));
console.log('| store | form | rows | size, MB | time, s | RSS growth, MB |');
console.log('|---|---|---:|---:|---:|---:|');
for (const f of all) {
  console.log(
    `| ${f.store} | ${f.form} | ${f.rows} | ${(f.bytes / MB).toFixed(1)} | ${f.seconds.toFixed(2)} | ` +
      `${f.growthMb.toFixed(1)} |`,
  );
}
