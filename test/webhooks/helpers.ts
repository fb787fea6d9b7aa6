// Webhook test helpers: a real local receiver (node:http on 127.0.0.1), the merchant's client id, and
// journal events written the way the payment code writes them (appendEvent inside a transaction).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { TestApp } from '../helpers/app.ts';
import { bearer, type Merchant } from '../helpers/factories.ts';
import { appendEvent } from '../../src/domain/events/append.ts';
import type { JournalEventType } from '../../src/domain/events/types.ts';
import type { Db } from '../../src/db/db.ts';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the receiver answers to the n-th request (0-based); a plain number is the status. */
export type Answer =
  | number
  | { status: number; body?: string; headers?: Record<string, string>; delayMs?: number; hang?: boolean };
export type Handler = (r: Received, n: number, res: ServerResponse) => Answer | Promise<Answer>;

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  setHandler(h: Handler): void;
  /** resolves once `n` requests have arrived (or rejects after `ms`) */
  waitFor(n: number, ms?: number): Promise<Received[]>;
  /** connections open now (a dead client's are counted until the receiver has read them to their end) */
  openConnections(): Promise<number>;
  close(): Promise<void>;
}

export async function startReceiver(handler: Handler = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  let h = handler;
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const r: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const n = received.push(r) - 1;
      for (const w of waiters.filter((x) => received.length >= x.n)) w.resolve();
      try {
        const a = await h(r, n, res);
        if (res.headersSent || res.writableEnded) return;
        const ans = typeof a === 'number' ? { status: a } : a;
        if (ans.hang) return; // never answer: the client's time-out decides
        if (ans.delayMs) await new Promise((ok) => setTimeout(ok, ans.delayMs));
        res.writeHead(ans.status, ans.headers);
        res.end(ans.body ?? '');
      } catch {
        res.destroy();
      }
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    setHandler: (x) => void (h = x),
    waitFor(n, ms = 10_000) {
      if (received.length >= n) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`receiver got ${received.length} of ${n} requests in ${ms} ms`)),
          ms,
        );
        waiters.push({ n, resolve: () => (clearTimeout(timer), resolve(received)) });
      });
    },
    openConnections: () =>
      new Promise<number>((ok, fail) => server.getConnections((err, n) => (err ? fail(err) : ok(n)))),
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

export async function clientIdOf(db: Pick<Db, 'query'>, m: Merchant): Promise<number> {
  const r = await db.query<{ client_id: number }>('SELECT client_id FROM users WHERE lower(email) = lower($1)', [
    m.email,
  ]);
  return r.rows[0].client_id;
}

/** Writes a journal event for the merchant, as payment code does: appendEvent inside a transaction. */
export async function emit(
  t: TestApp,
  clientId: number,
  type: JournalEventType,
  data: Record<string, unknown> = { operation_id: 'op_test', amount: 5000 },
  mode: 'live' | 'test' = 'live',
) {
  return t.runtime.deps.db.tx((tx) => appendEvent(tx, { clientId, mode, type, data }));
}

export async function createHook(
  app: FastifyInstance,
  m: Merchant,
  body: Record<string, unknown>,
  query = '',
): Promise<{ id: number; secret: string; [k: string]: unknown }> {
  const res = await app.inject({ method: 'POST', url: `/me/webhooks${query}`, headers: bearer(m), payload: body });
  if (res.statusCode !== 201) throw new Error(`create webhook: ${res.statusCode} ${res.body}`);
  return res.json();
}

export const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** Delivery rows of a webhook, oldest first, straight from the store. */
export async function deliveriesOf(t: TestApp, webhookId: number) {
  const r = await t.runtime.deps.db.query<{
    id: number;
    status: string;
    attempts: number;
    message_id: string;
    event_id: string;
    last_error: string | null;
    last_status: number | null;
    last_response: string | null;
    next_attempt_at: Date | null;
    last_attempt_at: Date | null;
    delivered_at: Date | null;
  }>('SELECT * FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY id', [webhookId]);
  return r.rows;
}
