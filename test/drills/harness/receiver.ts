// The merchant's webhook receiver, in the drill's own process: it counts every delivery by its webhook-id
// (the same for every attempt of one event to one webhook, decisions 8) and notes when each payment's
// payment.completed first arrived. It may hold each answer a while, so deliveries are in flight when a
// worker dies.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export class WebhookReceiver {
  /** deliveries received per webhook-id */
  readonly byId = new Map<string, number>();
  /** the first arrival (ms) of payment.completed, per operation id */
  readonly completedAt = new Map<string, number>();
  /** the time of each request's arrival, for "first delivery after the fault" */
  readonly arrivals: number[] = [];
  /** requests received and not yet answered */
  inFlight = 0;
  /** how long each answer is held (ms) */
  holdMs = 0;
  private server?: Server;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = Date.now();
        this.arrivals.push(at);
        const id = String(req.headers['webhook-id'] ?? req.headers['x-webhook-id']);
        this.byId.set(id, (this.byId.get(id) ?? 0) + 1);
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          const op = body?.data?.operation_id;
          if (body?.type === 'payment.completed' && typeof op === 'string' && !this.completedAt.has(op))
            this.completedAt.set(op, at);
        } catch {
          /* counted by id all the same */
        }
        this.inFlight++;
        const answer = () => {
          this.inFlight--;
          if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        };
        if (this.holdMs > 0) setTimeout(answer, this.holdMs);
        else answer();
      });
      // A sender that died mid-request leaves the socket closed: the answer goes nowhere.
      req.on('close', () => undefined);
    });
    this.server.keepAliveTimeout = 30_000;
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/hooks/tolem`;
  }

  /** Deliveries received more than once (the same webhook-id again): allowed, at-least-once. */
  duplicates(): number {
    let n = 0;
    for (const count of this.byId.values()) n += count - 1;
    return n;
  }

  received(): number {
    return this.arrivals.length;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((r) => (this.server ? this.server.close(r) : r(undefined)));
  }
}
