// The live gateway driver when the provider's answer is lost or late. A creation retried with its
// Idempotency-Key must get what the lost attempt made, not a second invoice on the customer's phone. A
// refund's unknown outcome must never be taken for a failure (a retry would refund twice): the refund
// stays pending with its amount reserved and is sent again under its own id until the provider answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { errorOf, idem, key, newMerchant, type Merchant } from '../helpers/factories.ts';
import { connectLive } from '../helpers/payments.ts';
import { startGateway, type FakeGateway } from '../helpers/gateway.ts';
import { retryPendingRefunds } from '../../src/jobs/refund-retry.ts';
import { GatewayProvider } from '../../src/providers/gateway.ts';

let t: TestApp;
let gw: FakeGateway;
beforeAll(async () => {
  gw = await startGateway();
  // A time-out well above what a local answer takes under load: a `slow` answer is held until the end,
  // so only it ever runs into the time-out (a 300 ms one was sometimes reached by a normal answer).
  t = await buildTestApp({ providerDriver: 'gateway', providerGatewayUrl: gw.url, providerTimeoutMs: 1500 });
});
afterAll(async () => {
  await t.close();
  await gw.close();
});

/** A live payment of 10,000 paid at the gateway. */
async function paidLive(m: Merchant): Promise<{ opId: string; ref: string }> {
  await connectLive(t, m);
  const res = await t.app.inject({
    method: 'POST',
    url: '/v2/qr',
    headers: { ...key(m.liveKey), ...idem() },
    payload: { amount: 10_000 },
  });
  expect(res.statusCode).toBe(201);
  const opId = res.json().operation_id;
  const ref = (
    await t.runtime.deps.db.query<{ provider_ref: string }>('SELECT provider_ref FROM operations WHERE id = $1', [opId])
  ).rows[0].provider_ref;
  gw.payments.get(ref)!.status = 'paid';
  expect((await status(m, opId)).status).toBe('paid');
  return { opId, ref };
}

const status = async (m: Merchant, opId: string) =>
  (await t.app.inject({ method: 'GET', url: `/v2/qr/${opId}`, headers: key(m.liveKey) })).json();

const refund = (m: Merchant, body: unknown, headers = idem()) =>
  t.app.inject({
    method: 'POST',
    url: '/v2/refunds',
    headers: { ...key(m.liveKey), ...headers },
    payload: body as object,
  });

const refundedEvents = async (m: Merchant) =>
  (await t.app.inject({ method: 'GET', url: '/v2/events?type=payment.refunded', headers: key(m.liveKey) })).json().data;

/** Runs the retry job now for this refund (its first retry is otherwise a minute away). */
async function retryNow(refundId: string): Promise<void> {
  await t.runtime.deps.db.query('UPDATE refunds SET next_attempt_at = now() WHERE id = $1', [refundId]);
  await retryPendingRefunds(t.runtime.deps);
}

const refundRow = async (id: string) =>
  (
    await t.runtime.deps.db.query<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM refunds WHERE id = $1',
      [id],
    )
  ).rows[0];

describe('refund outcomes through the gateway', () => {
  it('a normal answer completes the refund', async () => {
    gw.refundBehaviour = 'normal';
    const m = await newMerchant(t.app);
    const { opId, ref } = await paidLive(m);
    const res = await refund(m, { operation_id: opId, amount: 4000 });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'completed', refunded_total: 4000, remaining_refundable: 6000 });
    expect(gw.payments.get(ref)!.refunded).toBe(4000);
    expect(gw.refunds.get(res.json().refund_id)).toMatchObject({ status: 'completed', amount: 4000 });
  });

  it('a time-out after the gateway refunded: pending, amount held, completed once by the retry job', async () => {
    const m = await newMerchant(t.app);
    const { opId, ref } = await paidLive(m);
    gw.refundBehaviour = 'slow';
    const res = await refund(m, { operation_id: opId, amount: 4000 });
    gw.refundBehaviour = 'normal';
    expect(res.statusCode).toBe(201);
    const r = res.json();
    expect(r).toMatchObject({ status: 'pending', amount: 4000, refunded_total: 4000, remaining_refundable: 6000 });
    // The money did move at the provider; the held amount keeps a second refund from exceeding the payment.
    expect(gw.payments.get(ref)!.refunded).toBe(4000);
    const over = await refund(m, { operation_id: opId, amount: 6001 });
    expect(errorOf(over)).toMatchObject({ code: 'refund_amount_exceeds' });
    expect(await refundedEvents(m)).toHaveLength(0);

    await retryNow(r.refund_id);
    expect(await refundRow(r.refund_id)).toMatchObject({ status: 'completed', attempts: 1 });
    expect(gw.payments.get(ref)!.refunded).toBe(4000); // sent twice, refunded once
    const ev = await refundedEvents(m);
    expect(ev).toHaveLength(1);
    expect(ev[0].data).toMatchObject({
      operation_id: opId,
      refund_id: r.refund_id,
      amount: 4000,
      refunded_total: 4000,
    });
    expect(await status(m, opId)).toMatchObject({ status: 'partially_refunded', refunded_amount: 4000 });
    // Settled: the job leaves it alone.
    await retryNow(r.refund_id);
    expect(await refundRow(r.refund_id)).toMatchObject({ status: 'completed', attempts: 1 });
  });

  it('a 500 before anything happened: pending, then the retry refunds it', async () => {
    const m = await newMerchant(t.app);
    const { opId, ref } = await paidLive(m);
    gw.refundBehaviour = 'error_500';
    const headers = idem();
    const res = await refund(m, { operation_id: opId, amount: 10_000 }, headers);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'pending', remaining_refundable: 0 });
    // The pending answer is stored: the same key replays it and asks the gateway nothing.
    const calls = gw.refundCalls;
    const again = await refund(m, { operation_id: opId, amount: 10_000 }, headers);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(res.json());
    expect(gw.refundCalls).toBe(calls);

    // While the gateway still fails, the refund stays pending and is tried later.
    await retryNow(res.json().refund_id);
    expect(await refundRow(res.json().refund_id)).toMatchObject({ status: 'pending', attempts: 1 });
    gw.refundBehaviour = 'normal';
    await retryNow(res.json().refund_id);
    expect(await refundRow(res.json().refund_id)).toMatchObject({ status: 'completed', attempts: 2 });
    expect(gw.payments.get(ref)!.refunded).toBe(10_000);
    expect((await status(m, opId)).status).toBe('refunded');
  });

  it('a refusal of a later send fails the refund: the provider never took the first', async () => {
    const m = await newMerchant(t.app);
    const { opId, ref } = await paidLive(m);
    gw.refundBehaviour = 'error_500';
    const res = await refund(m, { operation_id: opId, amount: 2000 });
    expect(res.json()).toMatchObject({ status: 'pending', remaining_refundable: 8000 });
    gw.refundBehaviour = 'refuse_400';
    await retryNow(res.json().refund_id);
    gw.refundBehaviour = 'normal';
    expect(await refundRow(res.json().refund_id)).toMatchObject({ status: 'failed' });
    expect(await status(m, opId)).toMatchObject({ status: 'paid', refunded_amount: 0 });
    expect(gw.payments.get(ref)!.refunded).toBe(0);
  });

  it('pending at the provider, then failed: the held amount is given back', async () => {
    const m = await newMerchant(t.app);
    const { opId } = await paidLive(m);
    gw.refundBehaviour = 'pending';
    const res = await refund(m, { operation_id: opId, amount: 10_000 });
    gw.refundBehaviour = 'normal';
    expect(res.json()).toMatchObject({ status: 'pending', remaining_refundable: 0 });
    expect((await status(m, opId)).status).toBe('refunded');
    await retryNow(res.json().refund_id);
    expect(await refundRow(res.json().refund_id)).toMatchObject({ status: 'pending' });
    gw.refunds.get(res.json().refund_id)!.status = 'failed';
    await retryNow(res.json().refund_id);
    expect(await refundRow(res.json().refund_id)).toMatchObject({ status: 'failed' });
    expect(await status(m, opId)).toMatchObject({ status: 'paid', refunded_amount: 0 });
    expect(await refundedEvents(m)).toHaveLength(0);
    // The amount can be refunded again.
    const next = await refund(m, { operation_id: opId, amount: 10_000 });
    expect(next.json()).toMatchObject({ status: 'completed', remaining_refundable: 0 });
  });

  it('a refusal fails at once: 502, amount given back, the key free for a new refund', async () => {
    const m = await newMerchant(t.app);
    const { opId, ref } = await paidLive(m);
    gw.refundBehaviour = 'refuse_400';
    const headers = idem();
    const res = await refund(m, { operation_id: opId, amount: 3000 }, headers);
    gw.refundBehaviour = 'normal';
    expect(res.statusCode).toBe(502);
    expect(errorOf(res).code).toBe('provider_error');
    expect(await status(m, opId)).toMatchObject({ status: 'paid', refunded_amount: 0 });
    const retried = await refund(m, { operation_id: opId, amount: 3000 }, headers);
    expect(retried.statusCode).toBe(201);
    expect(retried.json()).toMatchObject({ status: 'completed', refunded_total: 3000 });
    expect(gw.payments.get(ref)!.refunded).toBe(3000);
  });

  it('an unreachable gateway fails at once: nothing was sent', async () => {
    const m = await newMerchant(t.app);
    const { opId } = await paidLive(m);
    const closed = await startGateway();
    await closed.close(); // a port nobody listens on
    const providers = t.runtime.deps.providers;
    const live = providers.live;
    providers.live = new GatewayProvider(closed.url, 300);
    try {
      const res = await refund(m, { operation_id: opId, amount: 3000 });
      expect(res.statusCode).toBe(502);
      expect(await status(m, opId)).toMatchObject({ status: 'paid', refunded_amount: 0 });
      const rows = await t.runtime.deps.db.query<{ status: string; request_key: string | null }>(
        'SELECT status, request_key FROM refunds WHERE operation_id = $1',
        [opId],
      );
      expect(rows.rows).toEqual([{ status: 'failed', request_key: null }]);
    } finally {
      providers.live = live;
    }
  });

  it("a retry that takes over a dead request's key continues its refund instead of making a second one", async () => {
    const m = await newMerchant(t.app);
    const { opId, ref } = await paidLive(m);
    gw.refundBehaviour = 'slow';
    const headers = idem();
    const first = (await refund(m, { operation_id: opId, amount: 2500 }, headers)).json();
    gw.refundBehaviour = 'normal';
    expect(first.status).toBe('pending');
    // As if the request had died before its answer was stored: the key is still running, its lease over.
    await t.runtime.deps.db.query(
      `UPDATE idempotency_keys SET state = 'running', response_status = NULL, response_body = NULL, ` +
        `locked_until = now() - interval '1 second'
        WHERE key = $1`,
      [headers['idempotency-key']],
    );
    const again = await refund(m, { operation_id: opId, amount: 2500 }, headers);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({
      refund_id: first.refund_id,
      status: 'completed',
      refunded_total: 2500,
      remaining_refundable: 7500,
    });
    expect(gw.payments.get(ref)!.refunded).toBe(2500);
    const count = await t.runtime.deps.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM refunds WHERE operation_id = $1',
      [opId],
    );
    expect(count.rows[0].n).toBe(1);
  });
});

describe('creations through the gateway', () => {
  const invoice = (m: Merchant, body: unknown, headers = idem()) =>
    t.app.inject({
      method: 'POST',
      url: '/v2/invoices',
      headers: { ...key(m.liveKey), ...headers },
      payload: body as object,
    });
  const invoicesAtGateway = () => [...gw.payments.values()].filter((p) => p.kind === 'invoice').length;

  it('an invoice whose answer was lost is the one a retry with the same key gets', async () => {
    const m = await newMerchant(t.app);
    await connectLive(t, m);
    const headers = idem();
    const body = { phone: '+77012345678', amount: 7000 };
    const before = invoicesAtGateway();
    gw.createBehaviour = 'slow';
    const lost = await invoice(m, body, headers);
    gw.createBehaviour = 'normal';
    expect(lost.statusCode).toBe(502);
    expect(invoicesAtGateway()).toBe(before + 1); // made at the provider, unknown to Tolem
    const retried = await invoice(m, body, headers);
    expect(retried.statusCode).toBe(201);
    expect(invoicesAtGateway()).toBe(before + 1);
    const ref = (
      await t.runtime.deps.db.query<{ provider_ref: string }>('SELECT provider_ref FROM operations WHERE id = $1', [
        retried.json().operation_id,
      ])
    ).rows[0].provider_ref;
    expect(gw.payments.get(ref)).toMatchObject({ kind: 'invoice', amount: 7000 });
    // Another key, or the same key with another body, is another request: another invoice.
    expect((await invoice(m, body)).statusCode).toBe(201);
    expect(invoicesAtGateway()).toBe(before + 2);
  });

  it('a QR too, and on v1', async () => {
    const m = await newMerchant(t.app);
    await connectLive(t, m);
    const headers = idem();
    gw.createBehaviour = 'slow';
    const lost = await t.app.inject({
      method: 'POST',
      url: '/v1/qr/create',
      headers: { ...key(m.liveKey), ...headers },
      payload: { amount: 900 },
    });
    gw.createBehaviour = 'normal';
    expect(lost.statusCode).toBeGreaterThanOrEqual(500);
    const qrs = gw.payments.size;
    const retried = await t.app.inject({
      method: 'POST',
      url: '/v1/qr/create',
      headers: { ...key(m.liveKey), ...headers },
      payload: { amount: 900 },
    });
    expect(retried.statusCode).toBe(200);
    expect(gw.payments.size).toBe(qrs);
  });
});
