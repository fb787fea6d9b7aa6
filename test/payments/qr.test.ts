// POST /v2/qr, GET /v2/qr/{op_id}, test helpers, the journal event and the counters that follow a payment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, idem, key, newMerchant } from '../helpers/factories.ts';
import { connectLive, createQr, expireAtProvider, pay, payAtProvider } from '../helpers/payments.ts';
import { api } from '../helpers/api.ts';
import { sweepExpired } from '../../src/jobs/expiry.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('POST /v2/qr', () => {
  it('creates a QR in test mode', async () => {
    const m = await newMerchant(t.app);
    const res = await api(t.app, { apiKey: m.testKey }).post('/v2/qr', {
      body: {
        amount: 5000,
        comment: 'Заказ №1',
        items: [{ name: 'Кофе', price: 2500, quantity: 2 }],
      },
      headers: idem(),
    });
    expect(res.status).toBe(201);
    const b = res.body;
    expect(b.operation_id).toMatch(/^op_[0-9A-Z]{26}$/);
    expect(b.status).toBe('created');
    // A test QR, scanned or opened, leads to the sandbox payer's page on this server (#16 item 10).
    expect(b.qr_token).toMatch(new RegExp(`^${t.config.publicBaseUrl}/sandbox/qr/sbx_qr_`));
    expect(b.deep_link).toBe(b.qr_token);
    const ttl = new Date(b.expires_at).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(290_000);
    expect(ttl).toBeLessThanOrEqual(300_000);
  });

  it('validates amount, items, comment and unknown fields', async () => {
    const m = await newMerchant(t.app);
    const cases: [unknown, string, string?][] = [
      [{ amount: 0 }, 'amount'],
      [{ amount: -5 }, 'amount'],
      [{ amount: 10_000_001 }, 'amount'],
      [{ amount: 12.5 }, 'amount'],
      [{ amount: '5000' }, 'amount'],
      [{}, 'amount'],
      [{ amount: 100, items: [{ name: 'x', price: 60 }] }, 'items'],
      [{ amount: 100, items: [{ name: 'x', price: 0 }] }, 'items.0.price'],
      [{ amount: 100, comment: 'x'.repeat(256) }, 'comment'],
      [{ amount: 100, tip: 5 }, 'tip'],
    ];
    for (const [body, param] of cases) {
      const res = await api(t.app, { apiKey: m.testKey }).post('/v2/qr', { payload: body, headers: idem() });
      expect(res.status, JSON.stringify(body)).toBe(400);
      const e = errorOf(res);
      expect(e.code, JSON.stringify(body)).toBe('invalid_parameter');
      expect(e.param, JSON.stringify(body)).toBe(param);
    }
    const count = await t.app.inject({ method: 'GET', url: '/v2/payments', headers: key(m.testKey) });
    expect(count.json().data).toHaveLength(0); // nothing half-stored
  });

  it('needs an Idempotency-Key', async () => {
    const m = await newMerchant(t.app);
    const res = await api(t.app, { apiKey: m.testKey }).post('/v2/qr', { body: { amount: 100 }, headers: {} });
    expect(res.status).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: 'idempotency_key_required', param: 'Idempotency-Key' });
  });

  it('live mode without a connected provider account is 409 provider_not_connected', async () => {
    const m = await newMerchant(t.app);
    const res = await api(t.app, { apiKey: m.liveKey }).post('/v2/qr', { body: { amount: 100 }, headers: idem() });
    expect(res.status).toBe(409);
    expect(errorOf(res).code).toBe('provider_not_connected');
  });

  it('X-Provider-Account selects an account; an unknown one is 400', async () => {
    const m = await newMerchant(t.app);
    const accountId = await connectLive(t, m);
    const ok = await api(t.app, { apiKey: m.liveKey }).post('/v2/qr', {
      body: { amount: 100 },
      headers: { ...idem(), 'x-provider-account': String(accountId) },
    });
    expect(ok.status).toBe(201);
    const other = await newMerchant(t.app);
    const foreign = await connectLive(t, other);
    for (const bad of ['999999999', 'abc', String(foreign)]) {
      const res = await api(t.app, { apiKey: m.liveKey }).post('/v2/qr', {
        body: { amount: 100 },
        headers: { ...idem(), 'x-provider-account': bad },
      });
      expect(res.status, bad).toBe(400);
      expect(errorOf(res).param).toBe('X-Provider-Account');
    }
    // The test-mode sandbox account is not a live account.
    const list = await t.app.inject({ method: 'GET', url: '/v2/payments', headers: key(m.liveKey) });
    expect(list.json().data[0].provider_account_id).toBe(accountId);
  });
});

describe('paying a QR', () => {
  it('test helper pay -> status paid, payment.completed in the journal, stats change', async () => {
    const m = await newMerchant(t.app);
    const qr = await createQr(t.app, m.testKey, 7500);
    const before = (
      await t.app.inject({ method: 'GET', url: '/me/payments/stats?mode=test', headers: bearer(m) })
    ).json();
    const paid = await pay(t.app, m.testKey, qr.operation_id, { sender_name: 'Алия К.', phone: '8 701 234 56 78' });
    expect(paid.status).toBe('paid');
    const status = (
      await t.app.inject({ method: 'GET', url: `/v2/qr/${qr.operation_id}`, headers: key(m.testKey) })
    ).json();
    expect(status).toMatchObject({
      operation_id: qr.operation_id,
      status: 'paid',
      amount: 7500,
      sender_name: 'Алия К.',
      raw_provider_status: 'Paid',
    });
    expect(status.transaction_id).toBeTruthy();
    expect(status.paid_at).toMatch(/Z$/);
    const events = (
      await t.app.inject({ method: 'GET', url: '/v2/events?type=payment.completed', headers: key(m.testKey) })
    ).json();
    expect(events.data).toHaveLength(1);
    expect(events.data[0]).toMatchObject({ type: 'payment.completed', livemode: false });
    expect(events.data[0].data).toMatchObject({
      operation_id: qr.operation_id,
      type: 'qr',
      amount: 7500,
      status: 'paid',
      phone: '+77012345678',
      sender_name: 'Алия К.',
      transaction_id: status.transaction_id,
      paid_at: status.paid_at,
      source: 'api',
      metadata: {},
    });
    const after = (
      await t.app.inject({ method: 'GET', url: '/me/payments/stats?mode=test', headers: bearer(m) })
    ).json();
    expect(after.today.count).toBe(before.today.count + 1);
    expect(after.today.amount).toBe(before.today.amount + 7500);
    expect(after.all_time.count).toBe(before.all_time.count + 1);
    // Test mode never counts toward usage.
    const usage = (await t.app.inject({ method: 'GET', url: '/me/usage', headers: bearer(m) })).json();
    expect(usage.today).toBe(0);
  });

  it('a live payment seen by the provider is picked up on read and counts toward usage', async () => {
    const m = await newMerchant(t.app);
    await connectLive(t, m);
    const qr = await createQr(t.app, m.liveKey, 1000);
    await payAtProvider(t, qr.operation_id);
    const status = (
      await t.app.inject({ method: 'GET', url: `/v2/qr/${qr.operation_id}`, headers: key(m.liveKey) })
    ).json();
    expect(status.status).toBe('paid');
    const usage = (await t.app.inject({ method: 'GET', url: '/me/usage', headers: bearer(m) })).json();
    expect(usage.today).toBe(1);
    expect(usage.month).toBe(1);
    expect(usage.daily).toHaveLength(14);
    expect(usage.daily[13]).toEqual({ date: new Date().toISOString().slice(0, 10), count: 1 });
    const events = (await t.app.inject({ method: 'GET', url: '/v2/events', headers: key(m.liveKey) })).json();
    expect(events.data[0]).toMatchObject({ type: 'payment.completed', livemode: true });
  });

  it('test helpers are test-mode only', async () => {
    const m = await newMerchant(t.app);
    await connectLive(t, m);
    const qr = await createQr(t.app, m.liveKey, 1000);
    const res = await t.app.inject({
      method: 'POST',
      url: `/v2/test/payments/${qr.operation_id}/pay`,
      headers: key(m.liveKey),
    });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe('test_mode_only');
  });

  it('decline and expire, and no second outcome afterwards', async () => {
    const m = await newMerchant(t.app);
    const a = await createQr(t.app, m.testKey);
    const declined = await t.app.inject({
      method: 'POST',
      url: `/v2/test/payments/${a.operation_id}/decline`,
      headers: key(m.testKey),
    });
    expect(declined.json().status).toBe('declined');
    const b = await createQr(t.app, m.testKey);
    const expired = await t.app.inject({
      method: 'POST',
      url: `/v2/test/payments/${b.operation_id}/expire`,
      headers: key(m.testKey),
    });
    expect(expired.json().status).toBe('expired');
    const late = await t.app.inject({
      method: 'POST',
      url: `/v2/test/payments/${b.operation_id}/pay`,
      headers: key(m.testKey),
    });
    expect(late.statusCode).toBe(409);
    expect(errorOf(late).code).toBe('payment_not_pending');
    const types = (await t.app.inject({ method: 'GET', url: '/v2/events', headers: key(m.testKey) }))
      .json()
      .data.map((e: { type: string }) => e.type);
    expect(types.sort()).toEqual(['payment.cancelled', 'payment.expired']);
  });

  it('another tenant’s or the other mode’s operation is 404, never a leak', async () => {
    const m = await newMerchant(t.app);
    const other = await newMerchant(t.app);
    const qr = await createQr(t.app, m.testKey);
    for (const [k, url] of [
      [other.testKey, `/v2/qr/${qr.operation_id}`],
      [m.liveKey, `/v2/qr/${qr.operation_id}`],
      [other.testKey, `/v2/invoices/${qr.operation_id}`],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers: key(k) });
      expect(res.statusCode, url).toBe(404);
      expect(errorOf(res).code).toBe('payment_not_found');
      expect(res.body).not.toContain('5000');
    }
    const res = await t.app.inject({
      method: 'POST',
      url: `/v2/test/payments/${qr.operation_id}/pay`,
      headers: key(other.testKey),
    });
    expect(res.statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/v2/qr/${qr.operation_id}`, headers: key(m.testKey) })).json().status,
    ).toBe('created');
  });
});

describe('expiry', () => {
  it('the sweeper expires a QR past its deadline without anyone reading it, once', async () => {
    const m = await newMerchant(t.app);
    const qr = await createQr(t.app, m.testKey);
    // Moving time: the payment's deadline passes.
    await t.runtime.deps.db.query(`UPDATE operations SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      qr.operation_id,
    ]);
    await expireAtProvider(t, qr.operation_id);
    // Two sweepers at once: the operation is expired once, with one event.
    await Promise.all([sweepExpired(t.runtime.deps), sweepExpired(t.runtime.deps)]);
    await sweepExpired(t.runtime.deps);
    const status = (
      await t.app.inject({ method: 'GET', url: `/v2/qr/${qr.operation_id}`, headers: key(m.testKey) })
    ).json();
    expect(status.status).toBe('expired');
    const events = (
      await t.app.inject({ method: 'GET', url: '/v2/events?type=payment.expired', headers: key(m.testKey) })
    ).json();
    expect(events.data).toHaveLength(1);
    expect(events.data[0].data).toMatchObject({ operation_id: qr.operation_id, amount: 5000 });
    expect(events.data[0].data.expired_at).toBeTruthy();
  });

  it('a sweeper being stopped finishes the operation in hand and leaves the rest of its batch', async () => {
    const m = await newMerchant(t.app);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const qr = await createQr(t.app, m.testKey);
      // Moving time: the payment's deadline passes.
      await t.runtime.deps.db.query(`UPDATE operations SET expires_at = now() - interval '1 second' WHERE id = $1`, [
        qr.operation_id,
      ]);
      await expireAtProvider(t, qr.operation_id);
      ids.push(qr.operation_id);
    }
    let asked = 0;
    await sweepExpired(t.runtime.deps, 100, undefined, () => asked++ >= 1); // stopped after the first
    const r = await t.runtime.deps.db.query<{ status: string }>('SELECT status FROM operations WHERE id = ANY($1)', [
      ids,
    ]);
    expect(r.rows.filter((o) => o.status === 'created').length).toBeGreaterThanOrEqual(2);
  });

  it('a read past the deadline expires it too', async () => {
    const m = await newMerchant(t.app);
    const qr = await createQr(t.app, m.testKey);
    // Moving time: the payment's deadline passes.
    await t.runtime.deps.db.query(`UPDATE operations SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      qr.operation_id,
    ]);
    const status = (
      await t.app.inject({ method: 'GET', url: `/v2/qr/${qr.operation_id}`, headers: key(m.testKey) })
    ).json();
    expect(status.status).toBe('expired');
  });

  it('a payment made just before the deadline is recorded as paid by the sweeper', async () => {
    const m = await newMerchant(t.app);
    await connectLive(t, m);
    const qr = await createQr(t.app, m.liveKey);
    await payAtProvider(t, qr.operation_id);
    // Moving time: the payment's deadline passes.
    await t.runtime.deps.db.query(`UPDATE operations SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      qr.operation_id,
    ]);
    await sweepExpired(t.runtime.deps);
    const status = (
      await t.app.inject({ method: 'GET', url: `/v2/qr/${qr.operation_id}`, headers: key(m.liveKey) })
    ).json();
    expect(status.status).toBe('paid');
  });
});
