// v1 QR, invoices, cancel and refunds over HTTP: the same operations as v2, in v1 ids, names and envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { bearer, idem, key, newMerchant } from '../helpers/factories.ts';
import { pay } from '../helpers/payments.ts';
import { buildV1App, dataOf, expectV1Error, expectV1Headers, v1, v1Idem, v2OpOf } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildV1App();
});
afterAll(() => t.close());

const qr = async (k: string, amount: number) => dataOf(await v1Idem(t.app, '/v1/qr/create', k, { amount }));
const status = (k: string, seq: number | string) => v1(t.app, 'GET', `/v1/qr/status/${seq}`, k);
const helper = (k: string, opId: string, action: string, body = {}) =>
  t.app.inject({ method: 'POST', url: `/v2/test/payments/${opId}/${action}`, headers: key(k), payload: body });

describe('POST /v1/qr/create and GET /v1/qr/status', () => {
  it('creates a 180-second QR that is the same operation as in v2 (source v1)', async () => {
    const m = await newMerchant(t.app);
    const res = await v1Idem(t.app, '/v1/qr/create', m.testKey, { amount: 5000 });
    expectV1Headers(res, '/v2/qr');
    const d = dataOf(res);
    expect(Object.keys(d).sort()).toEqual(['DeepLink', 'ExpiresAt', 'QrOperationId', 'QrToken', 'Status']);
    expect(Number.isInteger(d.QrOperationId)).toBe(true);
    expect(d.Status).toBe('QrTokenCreated');
    expect(d.QrToken).toMatch(/^https?:\/\//);
    // A test QR's deep link opens the sandbox payer's page, like its QR (#16 item 10).
    expect(d.DeepLink).toBe(d.QrToken);
    const ttl = Date.parse(d.ExpiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(170_000);
    expect(ttl).toBeLessThanOrEqual(180_000);

    const op = await v2OpOf(t.app, m.testKey, 5000);
    expect(op).toMatchObject({ source: 'v1', status: 'created', type: 'qr', expires_at: d.ExpiresAt });

    const st = await status(m.testKey, d.QrOperationId);
    expectV1Headers(st, `/v2/qr/${op.operation_id}`); // the exact v2 resource of this operation
    expect(dataOf(st)).toEqual({ Status: 'QrTokenCreated', Amount: 5000, SenderName: null, TransactionId: null });
  });

  it('a v1 QR paid through the v2 test helper is Paid in v1 and paid in v2, with its event and webhook', async () => {
    const m = await newMerchant(t.app);
    const hook = await t.app.inject({
      method: 'POST',
      url: '/me/webhooks?mode=test',
      headers: bearer(m),
      payload: { url: 'https://hooks.example.kz/v1', events: ['payment.completed'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const d = await qr(m.testKey, 7300);
    const { operation_id } = await v2OpOf(t.app, m.testKey, 7300);
    await pay(t.app, m.testKey, operation_id, { sender_name: 'Айгерим С.' });

    const v1Paid = dataOf(await status(m.testKey, d.QrOperationId));
    expect(v1Paid).toMatchObject({ Status: 'Paid', Amount: 7300, SenderName: 'Айгерим С.' });
    expect(v1Paid.TransactionId).toBeTruthy();
    const v2 = (await t.app.inject({ method: 'GET', url: `/v2/qr/${operation_id}`, headers: key(m.testKey) })).json();
    expect(v2).toMatchObject({
      status: 'paid',
      source: 'v1',
      sender_name: 'Айгерим С.',
      transaction_id: v1Paid.TransactionId,
    });

    const events = (
      await t.app.inject({ method: 'GET', url: '/v2/events?type=payment.completed', headers: key(m.testKey) })
    ).json().data;
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ operation_id, amount: 7300, source: 'v1' });
    const deliveries = (
      await t.app.inject({
        method: 'GET',
        url: `/me/webhooks/${hook.json().id}/deliveries?mode=test`,
        headers: bearer(m),
      })
    ).json().data;
    expect(deliveries.map((x: { event_id: string; event_type: string }) => [x.event_id, x.event_type])).toEqual([
      [events[0].id, 'payment.completed'],
    ]);
  });

  it('shows expired and declined QRs in v1 words', async () => {
    const m = await newMerchant(t.app);
    const a = await qr(m.testKey, 101);
    const b = await qr(m.testKey, 102);
    expect((await helper(m.testKey, (await v2OpOf(t.app, m.testKey, 101)).operation_id, 'expire')).statusCode).toBe(
      200,
    );
    expect((await helper(m.testKey, (await v2OpOf(t.app, m.testKey, 102)).operation_id, 'decline')).statusCode).toBe(
      200,
    );
    expect(dataOf(await status(m.testKey, a.QrOperationId)).Status).toBe('Expired');
    expect(dataOf(await status(m.testKey, b.QrOperationId)).Status).toBe('Declined');
  });

  it('-400 on bad amounts, unknown fields and bad ids; nothing is created', async () => {
    const m = await newMerchant(t.app);
    for (const body of [
      {},
      { amount: 0 },
      { amount: -1 },
      { amount: 12.5 },
      { amount: '500' },
      { amount: 10_000_001 },
      { amount: 5, comment: 'x' },
      [],
    ]) {
      const res = await v1Idem(t.app, '/v1/qr/create', m.testKey, body);
      const msg = expectV1Error(res, 400, -400);
      expectV1Headers(res, '/v2/qr');
      if (!Array.isArray(body)) expect(msg, JSON.stringify(body)).toMatch(/amount|comment/);
    }
    expect(
      (await t.app.inject({ method: 'GET', url: '/v2/payments', headers: key(m.testKey) })).json().data,
    ).toHaveLength(0);
    for (const bad of ['abc', '0', '-3', '1.5', '99999999999999999999'])
      expectV1Error(await status(m.testKey, bad), 400, -400);
  });

  it("-404 for an unknown seq, another merchant's seq and the other mode's seq", async () => {
    const m = await newMerchant(t.app);
    const other = await newMerchant(t.app);
    const d = await qr(other.testKey, 300);
    const unknown = await status(m.testKey, 9_000_000_000);
    expectV1Error(unknown, 404, -404);
    expectV1Headers(unknown, '/v2/qr');
    expectV1Error(await status(m.testKey, d.QrOperationId), 404, -404);
    expectV1Error(await status(other.liveKey, d.QrOperationId), 404, -404);
  });
});

describe('idempotency of v1 creates', () => {
  it('requires the key, replays the v1 envelope, refuses another body with -409', async () => {
    const m = await newMerchant(t.app);
    const missing = await v1(t.app, 'POST', '/v1/qr/create', m.testKey, { amount: 100 });
    expect(expectV1Error(missing, 400, -400)).toMatch(/Idempotency-Key/);
    expectV1Headers(missing, '/v2/qr');

    const h = idem();
    const first = await v1(t.app, 'POST', '/v1/qr/create', m.testKey, { amount: 100 }, h);
    const again = await v1(t.app, 'POST', '/v1/qr/create', m.testKey, { amount: 100 }, h);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expectV1Headers(again, '/v2/qr');
    expect(
      (await t.app.inject({ method: 'GET', url: '/v2/payments', headers: key(m.testKey) })).json().data,
    ).toHaveLength(1);

    const conflict = await v1(t.app, 'POST', '/v1/qr/create', m.testKey, { amount: 200 }, h);
    expectV1Error(conflict, 409, -409);
    expectV1Headers(conflict, '/v2/qr');
  });
});

describe('POST /v1/invoice/create and /v1/invoice/cancel', () => {
  it('creates an invoice for any common phone spelling; status reads InvoiceCreated', async () => {
    const m = await newMerchant(t.app);
    const res = await v1Idem(t.app, '/v1/invoice/create', m.testKey, {
      phone: '8 701 234 56 78',
      amount: 2500,
      comment: 'Заказ 7',
    });
    expectV1Headers(res, '/v2/invoices');
    const d = dataOf(res);
    expect(Object.keys(d).sort()).toEqual(['OperationId', 'Status']);
    expect(d.Status).toBe('InvoiceCreated');
    const op = await v2OpOf(t.app, m.testKey, 2500);
    expect(op).toMatchObject({ type: 'invoice', source: 'v1', phone: '+77012345678', comment: 'Заказ 7' });
    const st = await status(m.testKey, d.OperationId);
    expectV1Headers(st, `/v2/invoices/${op.operation_id}`);
    expect(dataOf(st).Status).toBe('InvoiceCreated');
  });

  it('-400 on a bad phone and missing fields, -404 for a phone that is not a provider customer', async () => {
    const m = await newMerchant(t.app);
    for (const body of [
      { phone: '12345', amount: 100 },
      { phone: '+7 727 250 00 00', amount: 100 },
      { amount: 100 },
      { phone: '+77012345678' },
      { phone: '+77012345678', amount: 100, comment: 'x'.repeat(256) },
    ]) {
      expectV1Error(await v1Idem(t.app, '/v1/invoice/create', m.testKey, body), 400, -400);
    }
    expectV1Error(
      await v1Idem(t.app, '/v1/invoice/create', m.testKey, { phone: '+77010000000', amount: 100 }),
      404,
      -404,
    );
  });

  it('cancels by the v1 id (string or integer); a second cancel or a QR is -409', async () => {
    const m = await newMerchant(t.app);
    const inv = dataOf(await v1Idem(t.app, '/v1/invoice/create', m.testKey, { phone: '+77012345678', amount: 900 }));
    const op = await v2OpOf(t.app, m.testKey, 900);
    const res = await v1(t.app, 'POST', '/v1/invoice/cancel', m.testKey, { operation_id: String(inv.OperationId) });
    expectV1Headers(res, `/v2/invoices/${op.operation_id}/cancel`);
    expect(dataOf(res)).toEqual({ OperationId: inv.OperationId, Status: 'Cancelled' });
    expect(dataOf(await status(m.testKey, inv.OperationId)).Status).toBe('Cancelled');
    expect(
      (await t.app.inject({ method: 'GET', url: `/v2/invoices/${op.operation_id}`, headers: key(m.testKey) })).json()
        .status,
    ).toBe('cancelled');
    const events = (
      await t.app.inject({ method: 'GET', url: '/v2/events?type=payment.cancelled', headers: key(m.testKey) })
    ).json().data;
    expect(events[0].data).toMatchObject({ operation_id: op.operation_id, reason: 'merchant' });

    expectV1Error(
      await v1(t.app, 'POST', '/v1/invoice/cancel', m.testKey, { operation_id: inv.OperationId }),
      409,
      -409,
    );
    const q = await qr(m.testKey, 50);
    expectV1Error(
      await v1(t.app, 'POST', '/v1/invoice/cancel', m.testKey, { operation_id: String(q.QrOperationId) }),
      409,
      -409,
    );
  });

  it('cancel honours an Idempotency-Key when sent; validates and scopes the id', async () => {
    const m = await newMerchant(t.app);
    const inv = dataOf(await v1Idem(t.app, '/v1/invoice/create', m.testKey, { phone: '+77012345678', amount: 901 }));
    const h = idem();
    const first = await v1(
      t.app,
      'POST',
      '/v1/invoice/cancel',
      m.testKey,
      { operation_id: String(inv.OperationId) },
      h,
    );
    const again = await v1(
      t.app,
      'POST',
      '/v1/invoice/cancel',
      m.testKey,
      { operation_id: String(inv.OperationId) },
      h,
    );
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    for (const body of [
      {},
      { operation_id: 'abc' },
      { operation_id: '' },
      { operation_id: 1.5 },
      { operation_id: '1', x: 1 },
    ]) {
      expectV1Error(await v1(t.app, 'POST', '/v1/invoice/cancel', m.testKey, body), 400, -400);
    }
    const other = await newMerchant(t.app);
    expectV1Error(
      await v1(t.app, 'POST', '/v1/invoice/cancel', other.testKey, { operation_id: String(inv.OperationId) }),
      404,
      -404,
    );
  });
});

describe('POST /v1/refund', () => {
  it('refunds the sum of item prices, partially then fully; replays; then -409', async () => {
    const m = await newMerchant(t.app);
    const d = await qr(m.testKey, 1000);
    const { operation_id } = await v2OpOf(t.app, m.testKey, 1000);
    await pay(t.app, m.testKey, operation_id);

    const h = idem();
    const body = { operation_id: String(d.QrOperationId), items: [{ price: 300 }, { price: 100 }] };
    const res = await v1(t.app, 'POST', '/v1/refund', m.testKey, body, h);
    expectV1Headers(res, '/v2/refunds');
    const r = dataOf(res);
    expect(r).toMatchObject({
      OperationId: d.QrOperationId,
      Status: 'Completed',
      Amount: 400,
      RefundedTotal: 400,
      RemainingRefundable: 600,
    });
    expect(r.RefundId).toMatch(/^rf_/);
    const replay = await v1(t.app, 'POST', '/v1/refund', m.testKey, body, h);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(res.json());
    expect(dataOf(await status(m.testKey, d.QrOperationId)).Status).toBe('PartiallyRefunded');

    expectV1Error(
      await v1Idem(t.app, '/v1/refund', m.testKey, { operation_id: String(d.QrOperationId), items: [{ price: 601 }] }),
      400,
      -400,
    );
    const rest = dataOf(
      await v1Idem(t.app, '/v1/refund', m.testKey, { operation_id: String(d.QrOperationId), items: [{ price: 600 }] }),
    );
    expect(rest).toMatchObject({ RefundedTotal: 1000, RemainingRefundable: 0 });
    expect(dataOf(await status(m.testKey, d.QrOperationId)).Status).toBe('Refunded');
    expect(
      (await t.app.inject({ method: 'GET', url: `/v2/qr/${operation_id}`, headers: key(m.testKey) })).json(),
    ).toMatchObject({ status: 'refunded', refunded_amount: 1000 });
    expectV1Error(
      await v1Idem(t.app, '/v1/refund', m.testKey, { operation_id: String(d.QrOperationId), items: [{ price: 1 }] }),
      409,
      -409,
    );
  });

  it('-409 for an unpaid payment, -404 for an unknown one, -400 for bad items or a missing key', async () => {
    const m = await newMerchant(t.app);
    const d = await qr(m.testKey, 500);
    const id = String(d.QrOperationId);
    expectV1Error(
      await v1Idem(t.app, '/v1/refund', m.testKey, { operation_id: id, items: [{ price: 100 }] }),
      409,
      -409,
    );
    expectV1Error(
      await v1Idem(t.app, '/v1/refund', m.testKey, { operation_id: '987654321012', items: [{ price: 100 }] }),
      404,
      -404,
    );
    for (const body of [
      { operation_id: id },
      { items: [{ price: 1 }] },
      { operation_id: id, items: [] },
      { operation_id: id, items: [{ price: 0 }] },
      { operation_id: id, items: [{ price: '5' }] },
      { operation_id: id, items: [{ price: 5, name: 'x' }] },
      { operation_id: 'x', items: [{ price: 5 }] },
    ]) {
      expectV1Error(await v1Idem(t.app, '/v1/refund', m.testKey, body), 400, -400);
    }
    expectV1Error(
      await v1(t.app, 'POST', '/v1/refund', m.testKey, { operation_id: id, items: [{ price: 100 }] }),
      400,
      -400,
    );
  });
});
