// Traces over OTLP (decisions 29), end to end against a local receiver: one payment created and paid over
// real HTTP in the sandbox, its webhook delivered by the worker, and the spans the receiver got: the
// request, its statements (the store's seam: PGlite here, PostgreSQL with TEST_DATABASE_URL), the
// provider's calls, and the delivery continuing the payment's trace. Then the log lines of that trace.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { idem, key, newMerchant, type Merchant } from '../helpers/factories.ts';
import { clientIdOf, createHook, sleep, startReceiver, type Receiver } from '../webhooks/helpers.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.ts';
import { startTracing, type TracingHandle } from '../../src/telemetry/tracing-sdk.ts';
import { deliverAllDue } from '../../src/jobs/deliveries.ts';
import { currentTraceparent, inSpan, traceLogFields } from '../../src/telemetry/tracing.ts';
import { GatewayProvider } from '../../src/providers/gateway.ts';
import { tracedProvider } from '../../src/providers/traced.ts';
import { startGateway } from '../helpers/gateway.ts';

const SERVER = 2;
const CLIENT = 3;
const CONSUMER = 5;

let otlp: OtlpReceiver;
let tracing: TracingHandle | undefined;
let t: TestApp;
let rx: Receiver;
let base: string;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  tracing = await startTracing({ endpoint: otlp.url, protocol: 'http/json' }, { role: 'all', version: 'test' });
  t = await buildTestApp(
    { webhooksAllowPrivate: true, logLevel: 'info' },
    { logStream: { write: (line) => void lines.push(JSON.parse(line)) } },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  rx = await startReceiver();
}, 30_000);

afterAll(async () => {
  await rx?.close();
  await t?.close();
  await tracing?.shutdown();
  await otlp?.close();
});

async function post(path: string, headers: Record<string, string>, body: unknown = {}) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Flushes the exporter until `found` holds of the received spans (bounded: 10 s). */
async function spansUntil(found: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]> {
  const end = Date.now() + 10_000;
  for (;;) {
    await tracing!.flush();
    if (found(otlp.spans)) return otlp.spans;
    if (Date.now() > end) throw new Error(`spans not received in time: ${otlp.spans.map((s) => s.name).join(', ')}`);
    await sleep(50);
  }
}

/** The chain of parents of a span within its trace, nearest first. */
function ancestors(spans: ReceivedSpan[], s: ReceivedSpan): ReceivedSpan[] {
  const byId = new Map(spans.filter((x) => x.traceId === s.traceId).map((x) => [x.spanId, x]));
  const out: ReceivedSpan[] = [];
  for (let p = byId.get(s.parentSpanId); p; p = byId.get(p.parentSpanId)) out.push(p);
  return out;
}

describe('a payment traced over OTLP', () => {
  let m: Merchant;
  let opId: string;

  it('is exported as HTTP -> SQL -> provider -> webhook delivery in one trace; its log lines carry it', async () => {
    m = await newMerchant(t.app);
    const clientId = await clientIdOf(t.runtime.deps.db, m);
    await createHook(t.app, m, { url: `${rx.url}/hook`, events: ['payment.completed'] }, '?mode=test');

    const created = await post('/v2/qr', { ...key(m.testKey), ...idem() }, { amount: 5000 });
    expect(created.status).toBe(201);
    opId = created.body.operation_id as string;
    const paid = await post(`/v2/test/payments/${opId}/pay`, key(m.testKey));
    expect(paid.status).toBe(200);
    expect(paid.body.status).toBe('paid');

    // The worker's part, as its loop would run it: claim the due delivery and POST it.
    expect(await deliverAllDue(t.runtime.deps, { clientId, max: 5 })).toBe(1);
    expect(rx.received.map((r) => JSON.parse(r.body).type)).toEqual(['payment.completed']);

    const spans = await spansUntil((all) => all.some((s) => s.name === 'webhook delivery'));
    const delivery = spans.find((s) => s.name === 'webhook delivery')!;
    const trace = spans.filter((s) => s.traceId === delivery.traceId);

    // The delivery is the child of a span of the request that paid: its chain of parents ends there.
    const chain = ancestors(spans, delivery);
    const http = chain.at(-1)!;
    expect(http).toMatchObject({ kind: SERVER, name: 'POST /v2/test/payments/:op_id/pay', parentSpanId: '' });
    expect(http.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v2/test/payments/:op_id/pay',
      'http.response.status_code': 200,
    });
    expect(delivery.kind).toBe(CONSUMER);
    expect(delivery.attributes).toMatchObject({ 'tolem.event.type': 'payment.completed', 'tolem.delivery.attempt': 1 });
    expect(delivery.statusCode).not.toBe(2);
    // ... and the transaction that queued it holds the INSERT of the delivery row.
    const tx = chain[0];
    expect(tx.name).toBe('transaction');
    const inserts = trace.filter((s) => s.parentSpanId === tx.spanId && s.name === 'WITH');
    expect(inserts.some((s) => String(s.attributes['db.query.text']).includes('INSERT INTO webhook_deliveries'))).toBe(
      true,
    );

    // SQL: statements of the request's own (authentication, the operation read), children of its span
    // or of its transactions, with the statement text and never the parameters.
    const sql = trace.filter((s) => s.attributes['db.system.name'] === 'postgresql' && s.name !== 'transaction');
    expect(sql.length).toBeGreaterThan(3);
    for (const s of sql) {
      expect(s.kind).toBe(CLIENT);
      expect(ancestors(spans, s).at(-1)?.spanId).toBe(http.spanId);
      expect(s.attributes['tolem.db.store']).toBe(t.runtime.deps.db.kind);
    }
    expect(sql.some((s) => String(s.attributes['db.query.text']).includes(`operations`))).toBe(true);
    expect(JSON.stringify(sql.map((s) => s.attributes))).not.toContain(m.testKey);
    // The request's span names its route, never its URL (paths carry ids and, elsewhere, tokens).
    expect(JSON.stringify(http.attributes)).not.toContain(opId);

    // The provider: the sandbox's simulated payment and the status read, both within the request.
    for (const call of ['sandbox.simulate', 'sandbox.getStatus']) {
      const p = trace.find((s) => s.name === call);
      expect(p, call).toBeDefined();
      expect(p!.kind).toBe(CLIENT);
      expect(ancestors(spans, p!).at(-1)?.spanId).toBe(http.spanId);
    }

    // The delivery's POST to the receiver: its own span beneath the delivery, with the answer's status
    // and the receiver's host, never its URL's path.
    const postSpan = trace.find((s) => s.parentSpanId === delivery.spanId && s.name === 'POST');
    expect(postSpan?.attributes).toMatchObject({ 'http.response.status_code': 200 });
    expect(postSpan?.attributes['server.address']).toBe(new URL(rx.url).host);
    expect(JSON.stringify(postSpan?.attributes)).not.toContain('/hook');

    // The creation was a trace of its own: HTTP, then the sandbox's QR, then the insert.
    const create = spans.find((s) => s.name === 'POST /v2/qr')!;
    expect(create.attributes['http.response.status_code']).toBe(201);
    const createTrace = spans.filter((s) => s.traceId === create.traceId);
    expect(createTrace.find((s) => s.name === 'sandbox.createQr')).toBeDefined();
    expect(createTrace.some((s) => String(s.attributes['db.query.text']).includes('INSERT INTO operations'))).toBe(
      true,
    );
    expect(create.resource).toMatchObject({ 'service.name': 'tolem', 'tolem.role': 'all' });

    // The log: the pay request's lines, "incoming request" (written before any hook) included, carry
    // its trace id and span id.
    const ofTrace = lines.filter((l) => l.trace_id === http.traceId);
    expect(ofTrace.map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    expect(ofTrace.find((l) => l.msg === 'incoming request')?.span_id).toBe(http.spanId);
  }, 30_000);

  it('inside a span: the log fields and the stored traceparent name it; outside, nothing', async () => {
    expect(traceLogFields({}, 30)).toEqual({});
    expect(currentTraceparent()).toBeNull();
    await inSpan('outbox send', {}, async (span) => {
      const c = span!.spanContext();
      expect(traceLogFields({}, 30)).toEqual({ trace_id: c.traceId, span_id: c.spanId });
      expect(currentTraceparent()).toBe(`00-${c.traceId}-${c.spanId}-01`);
      // A job continuing that traceparent later is a child of this span, in its trace.
      await inSpan('webhook delivery', { parent: currentTraceparent() }, async (child) => {
        expect(child!.spanContext().traceId).toBe(c.traceId);
      });
    });
  });

  it("the gateway driver's spans: the call, its HTTP attempt, and no customer's phone", async () => {
    const gw = await startGateway();
    try {
      const driver = tracedProvider(new GatewayProvider(gw.url, 2000), 'gateway');
      await driver.findCustomer('+77015550123');
      const spans = await spansUntil((all) => all.some((s) => s.name === 'gateway.findCustomer'));
      const call = spans.find((s) => s.name === 'gateway.findCustomer')!;
      const attempt = spans.find((s) => s.parentSpanId === call.spanId);
      expect(attempt).toMatchObject({ name: 'GET', kind: CLIENT });
      expect(attempt!.attributes['url.full']).toBe(`${gw.url}/customers/{phone}`);
      expect(JSON.stringify([call, attempt])).not.toMatch(/7015550123/);
    } finally {
      await gw.close();
    }
  });

  it("continues a caller's traceparent, and exports protobuf by default (http/protobuf)", async () => {
    await tracing!.shutdown();
    tracing = await startTracing({ endpoint: otlp.url, protocol: 'http/protobuf' }, { role: 'api' });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await fetch(`${base}/readyz`, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    expect(res.status).toBe(200);
    const end = Date.now() + 10_000;
    while (!otlp.protobuf.length && Date.now() < end) {
      await tracing!.flush();
      await sleep(50);
    }
    const body = Buffer.concat(otlp.protobuf.map((p) => p.body));
    expect(otlp.protobuf[0]?.contentType).toBe('application/x-protobuf');
    // Protobuf carries ids as raw bytes and names as UTF-8: the caller's trace id, the route and the
    // readiness statement are all in the export.
    expect(body.includes(Buffer.from(traceId, 'hex'))).toBe(true);
    expect(body.includes(Buffer.from('GET /readyz'))).toBe(true);
    expect(body.includes(Buffer.from('SELECT 1'))).toBe(true);
  }, 20_000);
});
