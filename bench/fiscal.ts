// Fiscal receipts at scale (issue 45 target 3, issue 43): Tolem's receipts worker (jobs/fiscal.ts) and its
// webkassa driver against the shipped fiscal emulator, every API call of which takes 50 ms (`latency_ms`),
// each register answering one call at a time (its `concurrency: serialize`, not the global one_at_a_time
// switch, which would serialize every register). Three figures:
//   1. the emulator's own ceiling: a bare undici client (the driver's TLS context) sending one register's
//      receipts one after another: receipts/s, about 1000 / (50 + round trip);
//   2. Tolem's receipts/s on one register with a backlog, in alternating rounds with (1): the ratio;
//   3. paid -> issued delay at 50 payments/s over 20 merchants, each with its own register: p50, p99, and
//      the register's own count of receipts against Tolem's (nothing issued twice).
// Payments go through the real path: applyProviderStatus (what the watcher does when the provider says
// paid), whose transaction runs afterPaymentPaid and so enqueueSaleReceipt. The emulator runs in a process of
// its own on CPU 0, Tolem (the worker and, on the embedded store, PGlite) in the bench's process on CPU 1.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSecureContext } from 'node:tls';
import { Agent, request } from 'undici';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from '../src/config.ts';
import { bootstrap, type Runtime } from '../src/bootstrap.ts';
import { FiscalWorker } from '../src/jobs/fiscal.ts';
import { createRegister } from '../src/domain/fiscal/registers.ts';
import { applyProviderStatus } from '../src/domain/payments/sync.ts';
import { OP_COLUMNS, type Operation } from '../src/domain/payments/operations.ts';
import { trustedCas } from '../src/infra/outbound.ts';
import { checkBody } from '../src/fiscal/webkassa/receipt.ts';
import { spawnEmulatorProcess } from './servers.ts';
import { TEST_JWT_PRIVATE_KEY } from '../test/helpers/test-jwt-key.ts';

const LATENCY_MS = 50;

export interface FiscalFigures {
  /** (1) the bare client's receipts/s, the median of the rounds */
  ceiling_per_s: number;
  /** (1) its mean time per call, ms: the emulator's 50 ms plus the round trip */
  ceiling_call_ms: number;
  /** (2) Tolem's receipts/s on one register, the median of the rounds */
  tolem_per_s: number;
  /** (2) the median of the rounds' ratios Tolem / bare */
  ratio: number;
  /** (2) every round's [Tolem, bare] receipts/s */
  rounds: number[][];
  /** (2) receipts per round */
  backlog: number;
  /** (2) API calls Tolem made per receipt (the emulator's call log) */
  calls_per_receipt: number;
  /** (3) paid -> issued at the offered rate */
  delay: DelayFigures;
}

export interface DelayFigures {
  registers: number;
  offered_per_s: number;
  operations: number;
  issued: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  /** the emulator's own time per call (the bare client's) plus the worker's wake-up, measured alone */
  floor_ms: number;
  /** registers whose count at the emulator differs from Tolem's receipts for them, or holds an unknown id */
  mismatched_registers: number;
  /** receipts the emulator holds beyond Tolem's (a receipt issued twice would show here) */
  duplicates: number;
}

interface FiscalEmulator {
  url: string;
  ca: string;
  webkassa: { api_key: string; login: string; password: string };
  control(method: 'GET' | 'POST', p: string, body?: unknown): Promise<unknown>;
  close(): void;
}

/** `npm run fiscal-emulator` as a child process on CPU 0, ready when it prints its line. */
async function spawnFiscalEmulator(dir: string): Promise<FiscalEmulator> {
  const { ready, stop } = await spawnEmulatorProcess<{
    url: string;
    ca: string;
    control_token: string;
    webkassa: FiscalEmulator['webkassa'];
  }>('fiscal-emulator/main.ts', dir);
  const agent = new Agent({ connect: { ca: readFileSync(ready.ca) } });
  return {
    url: ready.url,
    ca: ready.ca,
    webkassa: ready.webkassa,
    async control(method, p, body) {
      const r = await request(`${ready.url}/__fiscal/${p}`, {
        method,
        dispatcher: agent,
        headers: { 'x-control-token': ready.control_token, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const out = await r.body.json();
      if (r.statusCode >= 300)
        throw new Error(`fiscal emulator ${method} ${p}: ${r.statusCode} ${JSON.stringify(out)}`);
      return out;
    },
    close: () => {
      void agent.close();
      stop();
    },
  };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]) : 0;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));
const round1 = (x: number) => Math.round(x * 10) / 10;

/**
 * (1) The bare client: Authorize once, then the check a Tolem receipt sends (the driver's own body), one after
 * another for `seconds`, over an undici Agent with the CA the driver's pool trusts. Receipts/s and ms per call.
 */
async function bareCeiling(emu: FiscalEmulator, cashbox: string, seconds: number, tag: string) {
  const agent = new Agent({
    connect: { secureContext: createSecureContext({ ca: trustedCas(readFileSync(emu.ca, 'utf8')) }) },
    keepAliveTimeout: 30_000,
  });
  const post = async (p: string, body: unknown) => {
    const r = await request(`${emu.url}${p}`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': emu.webkassa.api_key },
      body: JSON.stringify(body),
    });
    return (await r.body.json()) as { Data?: Record<string, unknown>; Errors?: unknown[] };
  };
  try {
    const auth = await post('/api/v4/Authorize', { Login: emu.webkassa.login, Password: emu.webkassa.password });
    const Token = auth.Data?.Token;
    if (!Token) throw new Error(`bare Authorize: ${JSON.stringify(auth)}`);
    const template = checkBody(cashbox, {
      externalNumber: '',
      kind: 'sale',
      lines: [
        {
          name: 'Оплата',
          price: 1000,
          quantity: 1,
          total: 1000,
          unitCode: 796,
          sectionCode: null,
          ntin: null,
          gtin: null,
          vatRateBps: 1600,
          positionType: 'goods',
        },
      ],
      total: 1000,
      paymentType: 'mobile',
      basis: null,
      customerEmail: null,
      customerPhone: null,
      at: new Date(),
    });
    let n = 0;
    const t0 = performance.now();
    const end = t0 + seconds * 1000;
    while (performance.now() < end) {
      const a = await post('/api/v4/check', { Token, ...template, ExternalCheckNumber: `bare_${tag}_${n}` });
      if (!a.Data?.CheckNumber) throw new Error(`bare check: ${JSON.stringify(a)}`);
      n++;
    }
    const ms = performance.now() - t0;
    return { perS: (n * 1000) / ms, callMs: ms / n };
  } finally {
    await agent.close();
  }
}

interface Merchant {
  clientId: number;
  accountId: number;
  registerId: string;
  cashbox: string;
}

/** A live merchant with a provider account and a webkassa register of its own at the emulator. */
async function newMerchant(rt: Runtime, emu: FiscalEmulator, i: number): Promise<Merchant> {
  const db = rt.deps.db;
  const clientId = (
    await db.query<{ id: number }>(
      `INSERT INTO clients (name, email, plan, trial_ends_at, plan_expires_at)
       VALUES ($1, $2, 'enterprise', now() + interval '1 year', now() + interval '1 year') RETURNING id`,
      [`F${i}`, `f${i}-${Date.now()}@bench.kz`],
    )
  ).rows[0].id;
  const accountId = (
    await db.query<{ id: number }>(
      `INSERT INTO provider_accounts (client_id, mode, driver, display_name, is_default)
       VALUES ($1, 'live', 'qrapi', 'Bench', true) RETURNING id`,
      [clientId],
    )
  ).rows[0].id;
  const cashbox = `SWK7${String(i).padStart(7, '0')}`;
  await emu.control('POST', 'registers', { unique_number: cashbox, concurrency: 'serialize' });
  const reg = await createRegister(
    rt.deps,
    { clientId, mode: 'live' },
    {
      driver: 'webkassa',
      credentials: { login: emu.webkassa.login, password: emu.webkassa.password },
      register_number: cashbox,
      vat_payer: true,
    },
  );
  return { clientId, accountId, registerId: reg.id, cashbox };
}

/** `n` waiting live QRs of the merchant (as a creation leaves them), returned as operations. */
async function waitingOps(rt: Runtime, m: Merchant, n: number, tag: string): Promise<Operation[]> {
  const r = await rt.deps.db.query<Operation>(
    `INSERT INTO operations (id, client_id, mode, type, status, amount, provider_account_id, provider_ref, source,
                             expires_at)
     SELECT 'op_F' || $3 || lpad(g::text, 8, '0'), $1::bigint, 'live', 'qr', 'created', 1000 + g % 500, $2,
            'fb_' || $3 || g, 'api', now() + interval '1 hour'
       FROM generate_series(1, $4) AS g
     RETURNING ${OP_COLUMNS}`,
    [m.clientId, m.accountId, tag, n],
  );
  return r.rows;
}

/** The provider says paid: the watcher's path, whose transaction enqueues the sale receipt. */
const pay = (rt: Runtime, op: Operation) => applyProviderStatus(rt.deps, op, { status: 'paid', raw: 'SUCCESS' });

async function pendingOf(rt: Runtime, registerIds: string[]): Promise<number> {
  const r = await rt.deps.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM fiscal_receipts WHERE register_id = ANY($1::text[]) AND status = 'pending'`,
    [registerIds],
  );
  return r.rows[0].n;
}

async function untilSettled(rt: Runtime, registerIds: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await pendingOf(rt, registerIds)) > 0) {
    if (Date.now() > deadline) throw new Error(`fiscal bench: receipts still pending after ${timeoutMs} ms`);
    await sleep(100);
  }
}

const log = {
  error: (o: unknown, m: string) => console.error(m, o),
  warn: (o: unknown, m: string) => console.error(m, o),
  info: () => {},
  debug: () => {},
} as unknown as FastifyBaseLogger;

/**
 * (2) One register's backlog of `n` receipts (its payments paid with no worker running), then a worker started:
 * receipts/s from its start to the last receipt's commit (the row's updated_at, the store's clock).
 */
async function tolemBacklog(rt: Runtime, emu: FiscalEmulator, m: Merchant, n: number, tag: string) {
  for (const op of await waitingOps(rt, m, n, tag)) await pay(rt, op);
  if ((await pendingOf(rt, [m.registerId])) !== n) throw new Error('fiscal bench: the backlog was not enqueued');
  const since = ((await emu.control('GET', 'state')) as { now: string }).now;
  const worker = new FiscalWorker(rt.deps, log);
  const t0 = Date.now();
  worker.start();
  await untilSettled(rt, [m.registerId], 120_000);
  await worker.stop();
  const r = await rt.deps.db.query<{ last: Date; issued: number }>(
    `SELECT max(r.updated_at) AS last, count(*) FILTER (WHERE r.status = 'issued')::int AS issued
       FROM fiscal_receipts r JOIN operations o ON o.id = r.operation_id
      WHERE r.register_id = $1 AND o.id LIKE 'op_F' || $2 || '%'`,
    [m.registerId, tag],
  );
  if (r.rows[0].issued !== n) throw new Error(`fiscal bench: ${r.rows[0].issued} of ${n} receipts issued`);
  return { perS: (n * 1000) / (r.rows[0].last.getTime() - t0), calls: await callsSince(emu, m.cashbox, since) };
}

/** The register's API calls in the emulator's log (it keeps the last 500) since its clock read `since`. */
async function callsSince(emu: FiscalEmulator, cashbox: string, since: string): Promise<number> {
  const { calls } = (await emu.control('GET', 'calls')) as { calls: { at: string; register: string | null }[] };
  return calls.filter((c) => c.register === cashbox && c.at >= since).length;
}

/**
 * (3) `merchants` registers, `rate` payments a second spread over them for `seconds`, with a worker running as
 * a worker process runs it (LISTEN wakes it): paid_at (the payment's commit time, from the process clock) to the
 * receipt row's last update (issued, the store's clock on the same machine).
 */
async function paidToIssued(
  rt: Runtime,
  emu: FiscalEmulator,
  ms: Merchant[],
  o: { rate: number; seconds: number },
): Promise<Omit<DelayFigures, 'floor_ms'>> {
  const total = o.rate * o.seconds;
  const per = Math.ceil(total / ms.length);
  const byMerchant = await Promise.all(ms.map((m, i) => waitingOps(rt, m, per, `D${i}_`)));
  // Round-robin over the merchants: payment k goes to merchant k mod 20.
  const ops: Operation[] = [];
  for (let k = 0; k < total; k++) ops.push(byMerchant[k % ms.length][Math.floor(k / ms.length)]);
  const worker = new FiscalWorker(rt.deps, log);
  worker.start();
  await sleep(200); // its LISTEN is in place
  const paying: Promise<unknown>[] = [];
  const t0 = performance.now();
  for (let k = 0; k < ops.length; k++) {
    const due = t0 + (k * 1000) / o.rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    paying.push(pay(rt, ops[k]));
  }
  await Promise.all(paying);
  const regs = ms.map((m) => m.registerId);
  await untilSettled(rt, regs, 120_000);
  await worker.stop();
  const r = await rt.deps.db.query<{ register_id: string; id: string; status: string; ms: number }>(
    `SELECT r.register_id, r.id, r.status, extract(epoch FROM r.updated_at - o.paid_at) * 1000 AS ms
       FROM fiscal_receipts r JOIN operations o ON o.id = r.operation_id
      WHERE r.register_id = ANY($1::text[]) AND o.id LIKE 'op_FD%'`,
    [regs],
  );
  const issued = r.rows.filter((x) => x.status === 'issued');
  const delays = issued.map((x) => Number(x.ms));
  // The registers' own receipts, against Tolem's (every receipt Tolem has for the register: all of this run's).
  const held = ((await emu.control('GET', 'receipts')) as { receipts: { register: string; external_id: string }[] })
    .receipts;
  let mismatched = 0;
  let duplicates = 0;
  for (const m of ms) {
    const ours = new Set(r.rows.filter((x) => x.register_id === m.registerId).map((x) => x.id));
    const theirs = held.filter((h) => h.register === m.cashbox).map((h) => h.external_id);
    duplicates += Math.max(0, theirs.length - new Set(theirs).size) + Math.max(0, theirs.length - ours.size);
    if (theirs.length !== ours.size || theirs.some((id) => !ours.has(id))) mismatched++;
  }
  return {
    registers: ms.length,
    offered_per_s: o.rate,
    operations: total,
    issued: issued.length,
    p50_ms: pct(delays, 50),
    p99_ms: pct(delays, 99),
    max_ms: pct(delays, 100),
    mismatched_registers: mismatched,
    duplicates,
  };
}

/** The delay of one payment at a time on an idle register with the worker idle: what no load can beat. */
async function floorDelay(rt: Runtime, m: Merchant, n: number): Promise<number> {
  const worker = new FiscalWorker(rt.deps, log);
  worker.start();
  await sleep(200);
  const ops = await waitingOps(rt, m, n, 'L_');
  for (const op of ops) {
    await pay(rt, op);
    await untilSettled(rt, [m.registerId], 10_000);
  }
  await worker.stop();
  const r = await rt.deps.db.query<{ ms: number }>(
    `SELECT extract(epoch FROM r.updated_at - o.paid_at) * 1000 AS ms
       FROM fiscal_receipts r JOIN operations o ON o.id = r.operation_id WHERE o.id LIKE 'op_FL_%'`,
  );
  return median(r.rows.map((x) => Number(x.ms)));
}

export async function benchFiscal(
  store: 'pg' | 'pglite',
  o: { rounds: number; backlog: number; ceilingSeconds: number; rate: number; seconds: number; pgAdmin: string },
): Promise<FiscalFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tolem-fiscal-'));
  const emu = await spawnFiscalEmulator(path.join(dir, 'emulator'));
  const admin = store === 'pg' ? new pg.Client({ connectionString: o.pgAdmin }) : undefined;
  if (admin) {
    await admin.connect();
    await admin.query('DROP DATABASE IF EXISTS tolem_bench_fiscal WITH (FORCE)');
    await admin.query('CREATE DATABASE tolem_bench_fiscal');
  }
  const base = loadConfig({});
  const config = loadConfig(
    {
      ...process.env,
      DATABASE_URL: admin ? o.pgAdmin.replace(/\/[^/]*$/, '/tolem_bench_fiscal') : '',
      REDIS_URL: '',
      APP_SECRET: 'bench',
      JWT_PRIVATE_KEY: TEST_JWT_PRIVATE_KEY,
    },
    {
      logLevel: 'silent',
      fiscal: {
        ...base.fiscal,
        webkassaUrl: emu.url,
        webkassaApiKey: emu.webkassa.api_key,
        rekassaUrl: emu.url,
        caFile: emu.ca,
        timeoutMs: 5000,
      },
    },
  );
  if (!admin) config.dataDir = path.join(dir, 'data');
  const rt = await bootstrap(config, { logLine: () => {} });
  try {
    // Registers are set up (a live check each) before the emulator slows down.
    const one = await newMerchant(rt, emu, 0);
    const bareCashbox = 'SWK70BARE01';
    await emu.control('POST', 'registers', { unique_number: bareCashbox, concurrency: 'serialize' });
    const many: Merchant[] = [];
    for (let i = 1; i <= 20; i++) many.push(await newMerchant(rt, emu, i));
    await emu.control('POST', 'settings', { latency_ms: LATENCY_MS, one_at_a_time: false });
    // A warm-up of both sides (TLS sessions, JIT, the statements' plans) outside the rounds.
    await bareCeiling(emu, bareCashbox, 1, 'w');
    await tolemBacklog(rt, emu, one, 20, 'W_');
    const rounds: number[][] = [];
    const callMs: number[] = [];
    const calls: number[] = [];
    for (let i = 0; i < o.rounds; i++) {
      const t = await tolemBacklog(rt, emu, one, o.backlog, `R${i}_`);
      calls.push(t.calls);
      const b = await bareCeiling(emu, bareCashbox, o.ceilingSeconds, String(i));
      rounds.push([round1(t.perS), round1(b.perS)]);
      callMs.push(b.callMs);
    }
    const delay = await paidToIssued(rt, emu, many, { rate: o.rate, seconds: o.seconds });
    const floor = await floorDelay(rt, many[0], 10);
    return {
      ceiling_per_s: round1(median(rounds.map((r) => r[1]))),
      ceiling_call_ms: round1(median(callMs)),
      tolem_per_s: round1(median(rounds.map((r) => r[0]))),
      ratio: Math.round(median(rounds.map((r) => r[0] / r[1])) * 100) / 100,
      rounds,
      backlog: o.backlog,
      calls_per_receipt: Math.round((median(calls) / o.backlog) * 100) / 100,
      delay: { ...delay, floor_ms: Math.round(floor) },
    };
  } finally {
    await rt.close();
    emu.close();
    if (admin) {
      await admin.query('DROP DATABASE IF EXISTS tolem_bench_fiscal WITH (FORCE)');
      await admin.end();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
