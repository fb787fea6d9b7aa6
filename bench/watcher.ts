// The watcher at scale (issue 25): 10,000 waiting live QRs of 200 provider accounts against the shipped
// emulator (client-certificate TLS), polled by the qr-watcher job's own pass once a second, as the job
// runs it. Two figures: provider status calls per second, against what the provider allows (each account's
// QRAPI_WATCH_CALLS_PER_SECOND); and the time from a customer's payment at the provider to Tolem's
// operation being paid (what a merchant waits for its webhook), p50 and p99 over 50 payments.
// The emulator runs in a process of its own on the other core, as the provider is a service elsewhere:
// in the bench's process it shared the one thread with the watcher and, on the embedded store, the
// store, so its TLS and JSON work was counted against the watcher (0.78x-0.99x of the allowance between
// two full runs of the same code).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { bootstrap } from '../src/bootstrap.ts';
import { createQr } from '../src/domain/payments/create.ts';
import type { FastifyBaseLogger } from 'fastify';
import { qrWatcherLoop } from '../src/jobs/index.ts';
import { qrapiConnect } from '../src/domain/payments/qrapi-connect.ts';
import { spawnEmulatorProcess } from './servers.ts';
import { TEST_JWT_PRIVATE_KEY } from '../test/helpers/test-jwt-key.ts';

const BIN = '990140001233';

export interface WatcherFigures {
  accounts: number;
  qrs: number;
  calls_per_s: number;
  allowed_per_s: number;
  notice_p50_ms: number;
  notice_p99_ms: number;
  noticed: number;
}

async function inParallel<T>(items: T[], n: number, fn: (x: T) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (i < items.length) await fn(items[i++]);
    }),
  );
}

interface Emulator {
  url: string;
  ca: string;
  clientPfx: string;
  clientPassword: string;
  /** GET /__emulator/calls: calls since the start, by method and path */
  calls(): Promise<Record<string, number>>;
  close(): void;
}

/** `npm run emulator` as a child process on CPU 0 (the bench itself runs on CPU 1), ready when it prints its line. */
async function spawnEmulator(dir: string): Promise<Emulator> {
  const { ready, stop } = await spawnEmulatorProcess<{
    url: string;
    ca: string;
    client_pfx: string;
    client_password: string;
  }>('emulator/main.ts', dir);
  const control = new Agent({ connect: { ca: readFileSync(ready.ca) } });
  return {
    url: ready.url,
    ca: ready.ca,
    clientPfx: ready.client_pfx,
    clientPassword: ready.client_password,
    calls: async () =>
      (
        (await (await request(`${ready.url}/__emulator/calls`, { dispatcher: control })).body.json()) as {
          calls: Record<string, number>;
        }
      ).calls,
    close: () => {
      void control.close();
      stop();
    },
  };
}

const statusCalls = (calls: Record<string, number>) =>
  Object.entries(calls)
    .filter(([k]) => k.includes('payment/status'))
    .reduce((n, [, v]) => n + v, 0);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]) : 0;
};

export async function benchWatcher(
  store: 'pg' | 'pglite',
  o: { accounts: number; perAccount: number; seconds: number; pgAdmin: string },
): Promise<WatcherFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tolem-watch-'));
  const emu = await spawnEmulator(path.join(dir, 'emulator'));
  const admin = store === 'pg' ? new pg.Client({ connectionString: o.pgAdmin }) : undefined;
  if (admin) {
    await admin.connect();
    await admin.query('DROP DATABASE IF EXISTS tolem_bench_watch WITH (FORCE)');
    await admin.query('CREATE DATABASE tolem_bench_watch');
  }
  const base = loadConfig({}).qrapi;
  const config = loadConfig(
    {
      ...process.env,
      DATABASE_URL: admin ? o.pgAdmin.replace(/\/[^/]*$/, '/tolem_bench_watch') : '',
      REDIS_URL: '',
      APP_SECRET: 'bench',
      JWT_PRIVATE_KEY: TEST_JWT_PRIVATE_KEY,
    },
    {
      logLevel: 'silent',
      providerDriver: 'qrapi',
      qrapi: { ...base, r1: `${emu.url}/r1/v01`, r2: `${emu.url}/r2/v01`, r3: `${emu.url}/r3/v01`, caFile: emu.ca },
    },
  );
  if (!admin) config.dataDir = path.join(dir, 'data');
  const rt = await bootstrap(config, { logLine: () => {} });
  const deps = rt.deps;
  const pfx = readFileSync(emu.clientPfx);
  const agent = new Agent({ connect: { ca: readFileSync(emu.ca), pfx, passphrase: emu.clientPassword } });
  try {
    const clients: number[] = [];
    for (let i = 0; i < o.accounts; i++) {
      const c = (
        await deps.db.query<{ id: number }>(
          `INSERT INTO clients (name, email, plan, trial_ends_at, plan_expires_at)
           VALUES ($1, $2, 'enterprise', now() + interval '1 year', now() + interval '1 year') RETURNING id`,
          [`W${i}`, `w${i}-${Date.now()}@bench.kz`],
        )
      ).rows[0].id;
      await qrapiConnect(deps, c, {
        credentials: { scheme: 'r3', pfx, password: emu.clientPassword },
        orgBin: BIN,
        tradePointId: 1,
      });
      clients.push(c);
    }
    const ops: string[] = [];
    await inParallel(
      clients.flatMap((c) => Array.from({ length: o.perAccount }, () => c)),
      16,
      async (clientId) => {
        ops.push((await createQr(deps, { clientId, mode: 'live', source: 'api' }, { amount: 1000 })).id);
      },
    );
    // All due now, as a backlog a restarted watcher finds.
    await deps.db.query(
      `UPDATE operations SET next_poll_at = now() WHERE status = 'created' AND next_poll_at IS NOT NULL`,
    );
    // The watcher's own loop, as a worker runs it (jobs/index.ts).
    const log = {
      error: (o: unknown, m: string) => console.error(m, o),
      warn: () => {},
    } as unknown as FastifyBaseLogger;
    const loop = qrWatcherLoop(deps, log);
    loop.start();
    // Calls per second over the window (after the loop's first pass, which comes one interval after its
    // start), then payments at the provider and the time Tolem takes to see them.
    await new Promise((ok) => setTimeout(ok, 1500));
    const c0 = statusCalls(await emu.calls());
    const t0 = Date.now();
    await new Promise((ok) => setTimeout(ok, o.seconds * 1000));
    const c1 = statusCalls(await emu.calls());
    const callsPerS = Math.round(((c1 - c0) * 1000) / (Date.now() - t0));
    const paid = ops.filter((_, i) => i % Math.floor(ops.length / 50) === 0).slice(0, 50);
    const paidAt = new Map<string, number>();
    for (const op of paid) {
      const ref = (
        await deps.db.query<{ provider_ref: string }>('SELECT provider_ref FROM operations WHERE id = $1', [op])
      ).rows[0].provider_ref;
      for (const action of ['scan', 'confirm']) {
        await request(`${emu.url}/r3/v01/test/payment/${action}`, {
          method: 'POST',
          dispatcher: agent,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ qrPaymentId: ref }),
        }).then((r) => r.body.text());
      }
      paidAt.set(op, Date.now());
    }
    const noticed = new Map<string, number>();
    const deadline = Date.now() + 120_000;
    while (noticed.size < paid.length && Date.now() < deadline) {
      const r = await deps.db.query<{ id: string }>(
        `SELECT id FROM operations WHERE id = ANY($1::text[]) AND status = 'paid'`,
        [paid.filter((p) => !noticed.has(p))],
      );
      for (const { id } of r.rows) noticed.set(id, Date.now() - paidAt.get(id)!);
      await new Promise((ok) => setTimeout(ok, 50));
    }
    await loop.stop();
    const lags = [...noticed.values()];
    return {
      accounts: o.accounts,
      qrs: ops.length,
      calls_per_s: callsPerS,
      allowed_per_s: o.accounts * deps.config.qrapi.watchCallsPerSecond,
      notice_p50_ms: pct(lags, 50),
      notice_p99_ms: pct(lags, 99),
      noticed: noticed.size,
    };
  } finally {
    await rt.close();
    await agent.close();
    emu.close();
    if (admin) {
      await admin.query('DROP DATABASE IF EXISTS tolem_bench_watch WITH (FORCE)');
      await admin.end();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
