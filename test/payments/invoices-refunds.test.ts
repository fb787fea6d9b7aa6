// Invoices (phone rules, customer lookup, cancel) and refunds (partial, several, limits, concurrency).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { errorOf, idem, key, newMerchant } from '../helpers/factories.ts';
import { createQr, pay } from '../helpers/payments.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const invoice = (k: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/v2/invoices', headers: { ...key(k), ...idem() }, payload: payload as object });
const refund = (k: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/v2/refunds', headers: { ...key(k), ...idem() }, payload: payload as object });

describe('invoices', () => {
  it('normalizes any common spelling of a KZ mobile number', async () => {
    const m = await newMerchant(t.app);
    for (const phone of ['+7 701 234 56 78', '87012345678', '77012345678', '+7 (701) 234-56-78']) {
      const res = await invoice(m.testKey, { phone, amount: 3000, comment: 'Счёт' });
      expect(res.statusCode, phone).toBe(201);
      expect(res.json()).toMatchObject({ status: 'created', phone: '+77012345678' });
      const ttl = new Date(res.json().expires_at).getTime() - Date.now();
      expect(ttl).toBeGreaterThan(23.9 * 3600_000);
    }
  });

  it('refuses bad phones and non-customers', async () => {
    const m = await newMerchant(t.app);
    for (const phone of ['12345', '+7 727 123 4567', '+79161234567', 'abc']) {
      const res = await invoice(m.testKey, { phone, amount: 100 });
      expect(res.statusCode, phone).toBe(400);
      expect(errorOf(res)).toMatchObject({ code: 'invalid_phone', param: 'phone' });
    }
    const res = await invoice(m.testKey, { phone: '+77012340000', amount: 100 });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).code).toBe('client_not_found');
  });

  it('status, cancel, and no cancel after payment', async () => {
    const m = await newMerchant(t.app);
    const a = (await invoice(m.testKey, { phone: '+77012345678', amount: 100 })).json();
    const status = (
      await t.app.inject({ method: 'GET', url: `/v2/invoices/${a.operation_id}`, headers: key(m.testKey) })
    ).json();
    expect(status).toMatchObject({ status: 'created', phone: '+77012345678', type: 'invoice' });
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/v2/invoices/${a.operation_id}/cancel`,
      headers: { ...key(m.testKey), ...idem() },
    });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json()).toEqual({ operation_id: a.operation_id, status: 'cancelled' });
    const again = await t.app.inject({
      method: 'POST',
      url: `/v2/invoices/${a.operation_id}/cancel`,
      headers: { ...key(m.testKey), ...idem() },
    });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).code).toBe('payment_not_cancellable');
    const ev = (
      await t.app.inject({ method: 'GET', url: '/v2/events?type=payment.cancelled', headers: key(m.testKey) })
    ).json();
    expect(ev.data[0].data).toMatchObject({ operation_id: a.operation_id, amount: 100, reason: 'merchant' });

    const b = (await invoice(m.testKey, { phone: '+77012345678', amount: 100 })).json();
    await pay(t.app, m.testKey, b.operation_id);
    const late = await t.app.inject({
      method: 'POST',
      url: `/v2/invoices/${b.operation_id}/cancel`,
      headers: { ...key(m.testKey), ...idem() },
    });
    expect(late.statusCode).toBe(409);
    const qr = await createQr(t.app, m.testKey);
    const qrCancel = await t.app.inject({
      method: 'POST',
      url: `/v2/invoices/${qr.operation_id}/cancel`,
      headers: { ...key(m.testKey), ...idem() },
    });
    expect(qrCancel.statusCode).toBe(409);
  });

  it('a cancel that a concurrent read recorded first is still a success, and its replay too', async () => {
    const m = await newMerchant(t.app);
    const a = (await invoice(m.testKey, { phone: '+77012345678', amount: 100 })).json();
    const sandbox = t.runtime.deps.providers.sandbox;
    const original = sandbox.cancelInvoice;
    // Right after the provider cancels, the merchant's own status read asks it and records the cancel.
    sandbox.cancelInvoice = async (ref: string) => {
      const ok = await original.call(sandbox, ref);
      await t.app.inject({ method: 'GET', url: `/v2/invoices/${a.operation_id}`, headers: key(m.testKey) });
      return ok;
    };
    try {
      const headers = { ...key(m.testKey), ...idem() };
      const cancel = await t.app.inject({ method: 'POST', url: `/v2/invoices/${a.operation_id}/cancel`, headers });
      expect(cancel.statusCode).toBe(200);
      expect(cancel.json()).toEqual({ operation_id: a.operation_id, status: 'cancelled' });
      const replay = await t.app.inject({ method: 'POST', url: `/v2/invoices/${a.operation_id}/cancel`, headers });
      expect(replay.statusCode).toBe(200);
      expect(replay.headers['idempotent-replayed']).toBe('true');
    } finally {
      sandbox.cancelInvoice = original;
    }
    const ev = (
      await t.app.inject({ method: 'GET', url: '/v2/events?type=payment.cancelled', headers: key(m.testKey) })
    ).json();
    expect(ev.data).toHaveLength(1);
  });

  it("an invoice past Tolem's deadline is closed at the provider before it is expired", async () => {
    const m = await newMerchant(t.app);
    const a = (await invoice(m.testKey, { phone: '+77012345678', amount: 100 })).json();
    // Tolem's deadline passes while the provider would still take the payment.
    await t.runtime.deps.db.query(`UPDATE operations SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      a.operation_id,
    ]);
    const read = (
      await t.app.inject({ method: 'GET', url: `/v2/invoices/${a.operation_id}`, headers: key(m.testKey) })
    ).json();
    expect(read.status).toBe('expired');
    const ref = (
      await t.runtime.deps.db.query<{ provider_ref: string }>('SELECT provider_ref FROM operations WHERE id = $1', [
        a.operation_id,
      ])
    ).rows[0].provider_ref;
    // The customer can no longer pay it.
    expect(await t.runtime.deps.providers.sandbox.simulate(ref, 'pay')).toBe(false);
    const ev = (
      await t.app.inject({ method: 'GET', url: '/v2/events?type=payment.expired', headers: key(m.testKey) })
    ).json();
    expect(ev.data.map((e: { data: { operation_id: string } }) => e.data.operation_id)).toEqual([a.operation_id]);
  });

  it("an invoice paid just as Tolem's deadline passed is recorded as paid", async () => {
    const m = await newMerchant(t.app);
    const a = (await invoice(m.testKey, { phone: '+77012345678', amount: 100 })).json();
    const ref = (
      await t.runtime.deps.db.query<{ provider_ref: string }>('SELECT provider_ref FROM operations WHERE id = $1', [
        a.operation_id,
      ])
    ).rows[0].provider_ref;
    const sandbox = t.runtime.deps.providers.sandbox;
    const original = sandbox.getStatus;
    // The provider still says waiting when asked, and the customer pays before the close reaches it.
    let first = true;
    sandbox.getStatus = async (r: string) => {
      if (!first) return original.call(sandbox, r);
      first = false;
      const waiting = await original.call(sandbox, r);
      await sandbox.simulate(ref, 'pay');
      return waiting;
    };
    try {
      await t.runtime.deps.db.query(`UPDATE operations SET expires_at = now() - interval '1 second' WHERE id = $1`, [
        a.operation_id,
      ]);
      const read = (
        await t.app.inject({ method: 'GET', url: `/v2/invoices/${a.operation_id}`, headers: key(m.testKey) })
      ).json();
      expect(read.status).toBe('paid');
    } finally {
      sandbox.getStatus = original;
    }
  });

  it('another tenant cannot read or cancel an invoice', async () => {
    const m = await newMerchant(t.app);
    const other = await newMerchant(t.app);
    const a = (await invoice(m.testKey, { phone: '+77012345678', amount: 100 })).json();
    const read = await t.app.inject({
      method: 'GET',
      url: `/v2/invoices/${a.operation_id}`,
      headers: key(other.testKey),
    });
    expect(read.statusCode).toBe(404);
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/v2/invoices/${a.operation_id}/cancel`,
      headers: { ...key(other.testKey), ...idem() },
    });
    expect(cancel.statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/v2/invoices/${a.operation_id}`, headers: key(m.testKey) })).json()
        .status,
    ).toBe('created');
  });
});

describe('refunds', () => {
  it('several partial refunds up to the paid amount', async () => {
    const m = await newMerchant(t.app);
    const qr = await createQr(t.app, m.testKey, 10_000);
    await pay(t.app, m.testKey, qr.operation_id);
    const r1 = await refund(m.testKey, { operation_id: qr.operation_id, amount: 3000, reason: 'возврат' });
    expect(r1.statusCode).toBe(201);
    expect(r1.json()).toMatchObject({
      status: 'completed',
      amount: 3000,
      refunded_total: 3000,
      remaining_refundable: 7000,
    });
    expect(r1.json().refund_id).toMatch(/^rf_/);
    let status = (
      await t.app.inject({ method: 'GET', url: `/v2/qr/${qr.operation_id}`, headers: key(m.testKey) })
    ).json();
    expect(status).toMatchObject({ status: 'partially_refunded', refunded_amount: 3000 });
    const over = await refund(m.testKey, { operation_id: qr.operation_id, amount: 7001 });
    expect(over.statusCode).toBe(400);
    expect(errorOf(over)).toMatchObject({ code: 'refund_amount_exceeds', param: 'amount' });
    const r2 = await refund(m.testKey, { operation_id: qr.operation_id, amount: 7000 });
    expect(r2.json()).toMatchObject({ refunded_total: 10_000, remaining_refundable: 0 });
    status = (await t.app.inject({ method: 'GET', url: `/v2/qr/${qr.operation_id}`, headers: key(m.testKey) })).json();
    expect(status.status).toBe('refunded');
    const more = await refund(m.testKey, { operation_id: qr.operation_id, amount: 1 });
    expect(more.statusCode).toBe(409);
    expect(errorOf(more).code).toBe('payment_not_refundable');
    const ev = (
      await t.app.inject({ method: 'GET', url: '/v2/events?type=payment.refunded', headers: key(m.testKey) })
    ).json();
    expect(ev.data.map((e: { data: { amount: number } }) => e.data.amount)).toEqual([7000, 3000]);
    expect(ev.data[0].data).toMatchObject({
      operation_id: qr.operation_id,
      refunded_total: 10_000,
      remaining_refundable: 0,
    });
  });

  it('an unpaid payment is not refundable; bad input is 400; other tenant 404', async () => {
    const m = await newMerchant(t.app);
    const qr = await createQr(t.app, m.testKey, 1000);
    const unpaid = await refund(m.testKey, { operation_id: qr.operation_id, amount: 100 });
    expect(unpaid.statusCode).toBe(409);
    expect(errorOf(unpaid).code).toBe('payment_not_refundable');
    await pay(t.app, m.testKey, qr.operation_id);
    for (const body of [
      { operation_id: qr.operation_id, amount: 0 },
      { operation_id: qr.operation_id },
      { amount: 5 },
      { operation_id: qr.operation_id, amount: '5' },
    ]) {
      const res = await refund(m.testKey, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const other = await newMerchant(t.app);
    const foreign = await refund(other.testKey, { operation_id: qr.operation_id, amount: 100 });
    expect(foreign.statusCode).toBe(404);
  });

  it('concurrent refunds never exceed the paid amount', async () => {
    const m = await newMerchant(t.app);
    const qr = await createQr(t.app, m.testKey, 1000);
    await pay(t.app, m.testKey, qr.operation_id);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => refund(m.testKey, { operation_id: qr.operation_id, amount: 300 })),
    );
    const ok = results.filter((r) => r.statusCode === 201);
    expect(ok).toHaveLength(3);
    const status = (
      await t.app.inject({ method: 'GET', url: `/v2/qr/${qr.operation_id}`, headers: key(m.testKey) })
    ).json();
    expect(status.refunded_amount).toBe(900);
  });
});

describe('GET /v2/client', () => {
  it('looks up a provider customer by phone', async () => {
    const m = await newMerchant(t.app);
    const ok = await t.app.inject({ method: 'GET', url: '/v2/client?phone=87012345678', headers: key(m.testKey) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ phone: '+77012345678', exists: true });
    const missing = await t.app.inject({
      method: 'GET',
      url: '/v2/client?phone=%2B77012340000',
      headers: key(m.testKey),
    });
    expect(missing.statusCode).toBe(404);
    expect(errorOf(missing).code).toBe('client_not_found');
    const bad = await t.app.inject({ method: 'GET', url: '/v2/client?phone=123', headers: key(m.testKey) });
    expect(errorOf(bad).code).toBe('invalid_phone');
    const none = await t.app.inject({ method: 'GET', url: '/v2/client', headers: key(m.testKey) });
    expect(errorOf(none).param).toBe('phone');
  });
});
