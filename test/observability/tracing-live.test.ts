// Traces of a live payment through the provider's official API (the emulator), the path production takes:
// the creation's request with the driver's call and its HTTP attempt, then the watcher noticing the
// payment, and the webhook delivery continuing the watcher's trace (decisions 29).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, idem, key } from '../helpers/factories.ts';
import { qrapiWorld, type QrapiWorld } from '../helpers/qrapi.ts';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.ts';
import { sleep, startReceiver, type Receiver } from '../webhooks/helpers.ts';
import { startTracing, type TracingHandle } from '../../src/telemetry/tracing-sdk.ts';
import { pollWatchedQrs } from '../../src/domain/payments/watch.ts';
import { deliverAllDue } from '../../src/jobs/deliveries.ts';
import { providerFor } from '../../src/domain/payments/provider-accounts.ts';

let otlp: OtlpReceiver;
let tracing: TracingHandle | undefined;
let w: QrapiWorld;
let rx: Receiver;

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  // Before the app: its store and its drivers are wrapped when they are made.
  tracing = await startTracing({ endpoint: otlp.url, protocol: 'http/json' }, { role: 'all' });
  w = await qrapiWorld();
  rx = await startReceiver();
}, 60_000);
afterAll(async () => {
  await rx?.close();
  await w?.close();
  await tracing?.shutdown();
  await otlp?.close();
});

async function spansUntil(found: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]> {
  const end = Date.now() + 10_000;
  for (;;) {
    await tracing!.flush();
    if (found(otlp.spans)) return otlp.spans;
    if (Date.now() > end) throw new Error(`spans not received in time: ${otlp.spans.map((s) => s.name).join(', ')}`);
    await sleep(50);
  }
}

const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan) =>
  spans.filter((s) => s.traceId === parent.traceId && s.parentSpanId === parent.spanId);

describe('a live payment traced over OTLP', () => {
  it('creation: request -> qrapi.createQr -> HTTP attempt; then watcher poll -> status call -> delivery', async () => {
    const deps = w.t.runtime.deps;
    const m = await w.liveMerchant();
    const hook = await w.t.app.inject({
      method: 'POST',
      url: '/me/webhooks',
      headers: bearer(m),
      payload: { url: `${rx.url}/hook`, events: ['payment.completed'] },
    });
    expect(hook.statusCode).toBe(201);
    const created = await w.t.app.inject({
      method: 'POST',
      url: '/v2/qr',
      headers: { ...key(m.liveKey), ...idem() },
      payload: { amount: 4200 },
    });
    expect(created.statusCode).toBe(201);
    const opId = created.json().operation_id as string;
    await w.customer('scan', opId);
    await w.customer('confirm', opId);
    // The watcher's pass and the delivery worker's, by hand: the QR is due at its first poll interval.
    await deps.db.query(`UPDATE operations SET next_poll_at = now() WHERE id = $1`, [opId]);
    await pollWatchedQrs(deps, { batch: 100, perAccount: 100, accounts: [m.accountId] });
    expect(await deliverAllDue(deps, { clientId: m.clientId, max: 5 })).toBe(1);

    const spans = await spansUntil((all) => all.some((s) => s.name === 'webhook delivery'));

    const create = spans.find((s) => s.name === 'POST /v2/qr')!;
    const createQr = childrenOf(spans, create).find((s) => s.name === 'qrapi.createQr');
    expect(createQr?.attributes).toMatchObject({ 'tolem.provider.driver': 'qrapi', 'tolem.provider.call': 'createQr' });
    const attempt = childrenOf(spans, createQr!).find((s) => s.name === 'POST qr/create');
    expect(attempt?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.response.status_code': 200,
      'tolem.provider.scheme': 'r3',
    });
    expect(String(attempt?.attributes['url.full'])).toBe(`${w.emu.url}/r3/v01/qr/create`);

    // The delivery's chain of parents ends at the watcher's poll of this payment, which read its status.
    const delivery = spans.find((s) => s.name === 'webhook delivery')!;
    const byId = new Map(spans.filter((s) => s.traceId === delivery.traceId).map((s) => [s.spanId, s]));
    const chain: ReceivedSpan[] = [];
    for (let p = byId.get(delivery.parentSpanId); p; p = byId.get(p.parentSpanId)) chain.push(p);
    const poll = chain.at(-1)!;
    expect(poll).toMatchObject({ name: 'qr-watcher poll', parentSpanId: '' });
    expect(poll.attributes['tolem.operation.id']).toBe(opId);
    const status = childrenOf(spans, poll).find((s) => s.name === 'qrapi.getStatus');
    expect(status).toBeDefined();
    expect(childrenOf(spans, status!).map((s) => [s.name, s.attributes['http.response.status_code']])).toEqual([
      ['GET payment/status', 200],
    ]);
    expect(chain.some((s) => s.name === 'transaction')).toBe(true);
    expect(childrenOf(spans, delivery).find((s) => s.name === 'POST')?.attributes['http.response.status_code']).toBe(
      200,
    );
  }, 60_000);

  it("a customer lookup's attempt names the call, not the phone nor the device token of its query", async () => {
    const m = await w.liveMerchant();
    const driver = await providerFor(w.t.runtime.deps, 'live', m.accountId);
    await driver.findCustomer('+77015550123').catch(() => null); // the answer does not matter here
    const spans = await spansUntil((all) =>
      all.some((s) => s.name === 'GET remote/client-info' && s.attributes['http.response.status_code'] !== undefined),
    );
    const attempt = spans.find((s) => s.name === 'GET remote/client-info')!;
    expect(attempt.attributes['url.full']).toBe(`${w.emu.url}/r3/v01/remote/client-info`);
    const token = (
      await w.t.runtime.deps.db.query<{ device_token: string }>(
        'SELECT device_token FROM provider_accounts WHERE id = $1',
        [m.accountId],
      )
    ).rows[0].device_token;
    expect(token).toBeTruthy();
    const text = JSON.stringify(spans.filter((s) => s.traceId === attempt.traceId));
    expect(text).not.toMatch(/7015550123/);
    expect(text).not.toContain(token);
  }, 30_000);
});
