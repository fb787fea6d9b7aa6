// A provider gateway on 127.0.0.1 speaking docs/provider-gateway.md, for tests of the live driver. It
// keeps payments and refunds in memory, treats a repeated request_id or refund_id as the same creation or
// refund, and can be told how to answer: a creation normally or after the client has given up (it is
// still made); a refund normally, late (still refunded), with a 500 before doing anything, with a 400
// refusal, or with `pending`.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export type RefundBehaviour = 'normal' | 'slow' | 'error_500' | 'refuse_400' | 'pending';

interface GatewayPayment {
  kind: 'qr' | 'invoice';
  amount: number;
  status: 'waiting' | 'paid';
  refunded: number;
}

interface GatewayRefund {
  ref: string;
  amount: number;
  status: 'completed' | 'pending' | 'failed';
}

export interface FakeGateway {
  url: string;
  payments: Map<string, GatewayPayment>;
  refunds: Map<string, GatewayRefund>;
  /** how a QR or invoice creation is answered */
  createBehaviour: 'normal' | 'slow';
  /** POST .../refunds received, whatever the answer */
  refundCalls: number;
  refundBehaviour: RefundBehaviour;
  /**
   * `slow` answers are held until the gateway closes: the client always gives up first, however slow
   * the machine (a fixed delay had to outlast the client's time-out, which then also had to be short).
   */
  held: (() => void)[];
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  let s = '';
  for await (const chunk of req) s += chunk;
  return s ? JSON.parse(s) : {};
}

export async function startGateway(): Promise<FakeGateway> {
  const g = {
    payments: new Map<string, GatewayPayment>(),
    refunds: new Map<string, GatewayRefund>(),
    byRequest: new Map<string, string>(),
    createBehaviour: 'normal' as 'normal' | 'slow',
    refundCalls: 0,
    refundBehaviour: 'normal' as RefundBehaviour,
    held: [] as (() => void)[],
  };
  const server: Server = createServer(async (req, res) => {
    const send = (status: number, json: unknown) => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    };
    const url = req.url ?? '/';
    const b = await body(req);
    if (req.method === 'POST' && (url === '/qr' || url === '/invoices')) {
      // A request_id seen before gets what its first request made.
      const seen = typeof b.request_id === 'string' ? g.byRequest.get(b.request_id) : undefined;
      const ref = seen ?? `gw_${randomBytes(8).toString('hex')}`;
      if (!seen) {
        g.payments.set(ref, {
          kind: url === '/qr' ? 'qr' : 'invoice',
          amount: Number(b.amount),
          status: 'waiting',
          refunded: 0,
        });
        if (typeof b.request_id === 'string') g.byRequest.set(b.request_id, ref);
      }
      if (g.createBehaviour === 'slow') await new Promise<void>((ok) => g.held.push(ok));
      const expires = new Date(Date.now() + Number(b.lifetime_s) * 1000).toISOString();
      return send(
        200,
        url === '/qr'
          ? { ref, qr_token: `https://gw.test/qr/${ref}`, deep_link: `https://gw.test/pay/${ref}`, expires_at: expires }
          : { ref, expires_at: expires },
      );
    }
    if (req.method === 'GET' && url === '/session') return send(200, { alive: true });
    const customer = /^\/customers\/([^/]+)$/.exec(url);
    if (req.method === 'GET' && customer)
      return send(200, { phone: decodeURIComponent(customer[1]), name: 'Айгерим С.' });
    const pay = /^\/payments\/([^/]+)$/.exec(url);
    if (req.method === 'GET' && pay) {
      const p = g.payments.get(decodeURIComponent(pay[1]));
      if (!p) return send(404, { error: 'not_found' });
      return send(
        200,
        p.status === 'paid'
          ? {
              status: 'paid',
              raw: 'Paid',
              sender_name: 'Айгерим С.',
              transaction_id: `tx_${pay[1]}`,
              paid_at: new Date().toISOString(),
            }
          : { status: 'waiting', raw: p.kind === 'qr' ? 'QrTokenCreated' : 'InvoiceCreated' },
      );
    }
    const rf = /^\/payments\/([^/]+)\/refunds$/.exec(url);
    if (req.method === 'POST' && rf) {
      g.refundCalls++;
      const ref = decodeURIComponent(rf[1]);
      const id = String(b.refund_id);
      if (g.refundBehaviour === 'error_500') return send(500, { error: 'internal' });
      if (g.refundBehaviour === 'refuse_400') return send(400, { error: 'refund_refused' });
      let r = g.refunds.get(id);
      if (!r) {
        const p = g.payments.get(ref);
        const amount = Number(b.amount);
        if (g.refundBehaviour === 'pending') r = { ref: `${ref}_rf_${id}`, amount, status: 'pending' };
        else if (p && p.status === 'paid' && p.refunded + amount <= p.amount) {
          p.refunded += amount;
          r = { ref: `${ref}_rf_${id}`, amount, status: 'completed' };
        } else r = { ref: `${ref}_rf_${id}`, amount, status: 'failed' };
        g.refunds.set(id, r);
      }
      if (g.refundBehaviour === 'slow') await new Promise<void>((ok) => g.held.push(ok));
      return send(200, { ref: r.ref, status: r.status });
    }
    send(404, { error: 'not_found' });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return Object.assign(g, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        for (const release of g.held.splice(0)) release();
        server.closeAllConnections();
        server.close(() => ok());
      }),
  });
}
