// The steady payment load of a drill: a few concurrent clients, each making payments one after another,
// every payment tagged in its comment so that the drill can count what was stored. A client behaves as a
// careful real one: a request that failed with a network error, a 5xx, a 429 or a 409
// idempotency_conflict (its first attempt still running) is sent again with the SAME Idempotency-Key after
// a back-off (Retry-After honoured), until it succeeds or the drill's deadline passes.
import { randomUUID } from 'node:crypto';
import { sleep } from './services.ts';

export interface Reply {
  status: number;
  body: any;
  retryAfter: string | null;
}

const REQUEST_TIMEOUT_MS = 10_000;
const MAX_BACKOFF_MS = 2000;
const MAX_RETRY_AFTER_MS = 5000;

/** Every request the clients sent and how each ended. */
export class RequestLog {
  sent = 0;
  /** failed requests by `status code` or `network <code>` */
  readonly failed = new Map<string, number>();
  readonly successes: number[] = [];

  record(outcome: string | undefined): void {
    this.sent++;
    if (outcome === undefined) this.successes.push(Date.now());
    else this.failed.set(outcome, (this.failed.get(outcome) ?? 0) + 1);
  }

  failedCount(): number {
    let n = 0;
    for (const v of this.failed.values()) n += v;
    return n;
  }

  firstSuccessAfter(t: number): number | undefined {
    return this.successes.find((s) => s >= t);
  }
}

export class GaveUp extends Error {}

export class ApiClient {
  constructor(
    readonly base: string,
    readonly log: RequestLog,
    /** no retry after this instant (ms): the drill's bound */
    readonly deadline: () => number,
  ) {}

  /** One attempt. */
  async once(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Reply> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = text;
    }
    return { status: res.status, body: json, retryAfter: res.headers.get('retry-after') };
  }

  /**
   * Sends until an answer that is not worth retrying; returns it. `accept` may take a non-2xx answer as
   * the end (a 409 the caller understands).
   */
  async send(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
    accept: (r: Reply) => boolean = () => false,
  ): Promise<Reply> {
    for (let attempt = 0; ; attempt++) {
      let wait = Math.min(MAX_BACKOFF_MS, 250 * 2 ** attempt);
      try {
        const r = await this.once(method, path, headers, body);
        const ok = r.status < 300;
        if (ok || accept(r)) {
          this.log.record(undefined);
          return r;
        }
        const code = r.body?.error?.code ?? 'no_envelope';
        this.log.record(`${r.status} ${code}`);
        const retryable = r.status >= 500 || r.status === 429 || (r.status === 409 && code === 'idempotency_conflict');
        if (!retryable) throw new Error(`${method} ${path} answered ${r.status} ${JSON.stringify(r.body)}`);
        const after = Number(r.retryAfter);
        if (r.retryAfter !== null && Number.isFinite(after)) wait = Math.min(MAX_RETRY_AFTER_MS, after * 1000);
      } catch (err) {
        if (!(err instanceof TypeError) && (err as Error).name !== 'TimeoutError') throw err;
        const cause = (err as { cause?: { code?: string } }).cause;
        this.log.record(`network ${cause?.code ?? (err as Error).name}`);
      }
      if (Date.now() + wait > this.deadline()) throw new GaveUp(`${method} ${path}: gave up at the drill's bound`);
      await sleep(wait);
    }
  }
}

/** One payment a client means to make, identified by the tag in its comment. */
export type Intent = (client: ApiClient, tag: string, n: number) => Promise<void>;

export interface LoadOptions {
  clients: number;
  /** pause between a client's payments (ms) */
  pauseMs: number;
  intent: Intent;
  /** the load's base URL and the retry bound */
  base: string;
  deadline: () => number;
}

export class PaymentLoad {
  readonly log = new RequestLog();
  /** tags of the payments the clients set out to make */
  readonly meant: string[] = [];
  /** tags whose client gave up at the drill's bound (they count as lost unless stored) */
  readonly abandoned: string[] = [];
  private running = false;
  private loops: Promise<void>[] = [];

  constructor(private opts: LoadOptions) {}

  start(): void {
    this.running = true;
    const run = randomUUID().slice(0, 8);
    for (let c = 0; c < this.opts.clients; c++) {
      const client = new ApiClient(this.opts.base, this.log, this.opts.deadline);
      this.loops.push(
        (async () => {
          for (let n = 0; this.running; n++) {
            const tag = `drill-${run}-c${c}-${n}`;
            this.meant.push(tag);
            try {
              await this.opts.intent(client, tag, n);
            } catch (err) {
              this.abandoned.push(tag);
              if (!(err instanceof GaveUp)) throw err;
            }
            await sleep(this.opts.pauseMs);
          }
        })(),
      );
    }
  }

  /** No new payment is started; the ones under way finish (or are given up at the bound). */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}

/** A test-mode payment: the QR created, then paid through the sandbox's test helper. */
export function testPayment(testKey: string): Intent {
  return async (client, tag, n) => {
    const key = { 'x-api-key': testKey };
    const qr = await client.send(
      'POST',
      '/v2/qr',
      { ...key, 'idempotency-key': randomUUID() },
      { amount: 100 + (n % 900), comment: tag },
    );
    const op = qr.body.operation_id as string;
    // The pay helper is not idempotent: a retry after a lost answer finds the payment paid already (409
    // payment_not_pending), and the client reads the payment to learn it.
    const paid = await client.send(
      'POST',
      `/v2/test/payments/${op}/pay`,
      key,
      {},
      (r) => r.status === 409 && r.body?.error?.code === 'payment_not_pending',
    );
    if (paid.status === 200) return;
    const read = await client.send('GET', `/v2/qr/${op}`, key);
    if (read.body.status !== 'paid') throw new Error(`${op} (${tag}) is ${read.body.status} after paying it`);
  };
}
