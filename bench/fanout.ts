// The webhook fan-out scenario: payments of one client with W webhooks on payment.completed, delivered
// by Tolem's worker to a receiver in this process (the load generator's CPU). Two figures:
//   drain: a backlog written while no worker runs, then a worker started: deliveries/s from the first
//          receipt to the last (the worker's ceiling);
//   lag:   payments paid at an offered rate (open loop) while the worker runs: the lag from the event's
//          commit (its created_at, stamped in the paying transaction) to the receipt, p50 and p99. The
//          offered load runs for several windows back to back, and the p99 is the median of the windows'
//          p99s: at 1,000/s a 10 s window's p99 is its 100 slowest deliveries, and one stall of the shared
//          host (a lag max of 364 ms in one full run, 158 ms p99 in the next) decided it. The p99 over all
//          windows is kept beside it (lag_p99_all_ms).
// The baseline is bench/baseline-sender.ts: raw undici POSTs of the same body to the same receiver, on
// the servers' CPU, with the worker's concurrency (its batch size).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { median } from './load.ts';

interface Receipt {
  at: number;
  createdAt: number;
  messageId: string;
}

export interface Receiver {
  url: string;
  receipts: Receipt[];
  sampleBody: string;
  reset(): void;
  waitFor(n: number, ms: number): Promise<boolean>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let receipts: Receipt[] = [];
  let sampleBody = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      if (req.url?.startsWith('/hook/')) {
        const raw = Buffer.concat(chunks).toString('utf8');
        sampleBody ||= raw;
        const body = JSON.parse(raw) as { created_at: string };
        receipts.push({ at, createdAt: Date.parse(body.created_at), messageId: String(req.headers['x-webhook-id']) });
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get receipts() {
      return receipts;
    },
    get sampleBody() {
      return sampleBody;
    },
    reset: () => void (receipts = []),
    async waitFor(n, ms) {
      const until = Date.now() + ms;
      while (receipts.length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      return receipts.length >= n;
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function inParallel<T>(items: T[], width: number, fn: (x: T) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (i < items.length) await fn(items[i++]);
    }),
  );
}

async function call(url: string, key: string, path: string, body?: string): Promise<Record<string, unknown>> {
  const r = await fetch(url + path, {
    method: 'POST',
    headers: {
      'x-api-key': key,
      'content-type': 'application/json',
      ...(path === '/v2/qr' ? { 'idempotency-key': crypto.randomUUID() } : {}),
    },
    body: body ?? '{}',
  });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as Record<string, unknown>;
}

/**
 * The lag p99 of each window, a receipt counted in the window of its event's commit (the first and last take any
 * outside).
 */
export function windowP99s(
  receipts: Pick<Receipt, 'at' | 'createdAt'>[],
  started: number,
  windowMs: number,
  windows: number,
): number[] {
  const lags: number[][] = Array.from({ length: windows }, () => []);
  for (const r of receipts)
    lags[Math.min(windows - 1, Math.max(0, Math.floor((r.createdAt - started) / windowMs)))].push(r.at - r.createdAt);
  return lags.map((w) => pct(w, 99));
}

export interface FanoutPlan {
  webhooks: number;
  /** payments paid into the backlog before the worker starts */
  burstPayments: number;
  /** offered delivery rate of the lag phase (payments/s x webhooks) */
  offeredRate: number;
  /** length of one lag window */
  lagSeconds: number;
  /** lag windows offered back to back */
  lagWindows: number;
}

export interface FanoutResult {
  drain_per_s: number;
  sustained_per_s: number;
  offered_per_s: number;
  lag_p50_ms: number;
  /** the median of the windows' p99s */
  lag_p99_ms: number;
  lag_p99_windows_ms: number[];
  lag_p99_all_ms: number;
  lag_max_ms: number;
  expected: number;
  received: number;
  /** lag-phase payments the server failed to answer (overloaded) */
  pay_errors: number;
  duplicates: number;
}

/**
 * `startWorker` turns the running API-only server into one that also delivers (ROLE=all) and resolves
 * with the URL to keep using.
 */
export async function runFanout(o: {
  url: string;
  key: string;
  receiver: Receiver;
  plan: FanoutPlan;
  startWorker: () => Promise<string>;
}): Promise<FanoutResult> {
  const { plan, receiver, key } = o;
  const lagPayments = Math.round((plan.offeredRate / plan.webhooks) * plan.lagSeconds * plan.lagWindows);
  const ops: string[] = [];
  await inParallel(Array.from({ length: plan.burstPayments + lagPayments }), 10, async () => {
    ops.push(String((await call(o.url, key, '/v2/qr', '{"amount":5000}')).operation_id));
  });
  const burst = ops.slice(0, plan.burstPayments);
  const lag = ops.slice(plan.burstPayments);

  // Drain: the backlog is written with no worker running, then one starts.
  await inParallel(burst, 10, async (op) => void (await call(o.url, key, `/v2/test/payments/${op}/pay`)));
  receiver.reset();
  const url = await o.startWorker();
  const burstExpected = burst.length * plan.webhooks;
  await receiver.waitFor(burstExpected, 180_000);
  const drained = receiver.receipts;
  const drainMs = drained.length > 1 ? drained[drained.length - 1].at - drained[0].at : 0;
  const drainPerS = drainMs ? Math.round(((drained.length - 1) * 1000) / drainMs) : 0;
  const burstDupes = drained.length - new Set(drained.map((r) => r.messageId)).size;

  // Lag: payments at the offered rate, open loop (a slow answer does not slow the offered rate).
  receiver.reset();
  const perTick = plan.offeredRate / plan.webhooks / 50; // 50 ticks a second
  const started = Date.now();
  const pending: Promise<unknown>[] = [];
  let sent = 0;
  // A server that cannot keep up with the offered rate refuses or times out payments: they are counted
  // (pay_errors) and their deliveries not expected, instead of ending the run.
  let payErrors = 0;
  await new Promise<void>((done) => {
    const timer = setInterval(() => {
      const due = Math.min(lag.length, Math.round(((Date.now() - started) / 20) * perTick));
      while (sent < due)
        pending.push(call(url, key, `/v2/test/payments/${lag[sent++]}/pay`).catch(() => void payErrors++));
      if (sent >= lag.length) {
        clearInterval(timer);
        done();
      }
    }, 20);
  });
  await Promise.all(pending);
  const lagExpected = (lag.length - payErrors) * plan.webhooks;
  await receiver.waitFor(lagExpected, 120_000);
  const got = receiver.receipts;
  const lags = got.map((r) => r.at - r.createdAt);
  const windowP99 = windowP99s(got, started, plan.lagSeconds * 1000, plan.lagWindows);
  const lastAt = got.length ? got[got.length - 1].at : started;
  return {
    drain_per_s: drainPerS,
    sustained_per_s: Math.round((got.length * 1000) / Math.max(1, lastAt - started)),
    offered_per_s: plan.offeredRate,
    lag_p50_ms: pct(lags, 50),
    lag_p99_ms: median(windowP99),
    lag_p99_windows_ms: windowP99,
    lag_p99_all_ms: pct(lags, 99),
    lag_max_ms: lags.length ? Math.max(...lags) : 0,
    expected: burstExpected + lagExpected,
    pay_errors: payErrors,
    received: drained.length + got.length,
    duplicates: burstDupes + got.length - new Set(got.map((r) => r.messageId)).size,
  };
}
