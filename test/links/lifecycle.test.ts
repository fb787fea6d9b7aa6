// A link's life: PATCH, refresh-qr, cancel (409 payment_link_immutable once not active), payments
// through it (paid_count, status, payment_link.paid, payment.completed with source and metadata), and
// the expiry sweeper.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { errorOf, idem, key, newMerchant } from '../helpers/factories.ts';
import { pay, payAtProvider } from '../helpers/payments.ts';
import { expireDueLinks } from '../../src/domain/links/expire.ts';
import { Browser, createLink, events, expireLinkClock } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const patch = (apiKey: string, token: string, payload: unknown) =>
  t.app.inject({
    method: 'PATCH',
    url: `/v2/payment-links/${token}`,
    headers: key(apiKey),
    payload: payload as object,
  });
const action = (apiKey: string, token: string, what: 'cancel' | 'refresh-qr', headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/v2/payment-links/${token}/${what}`, headers: { ...key(apiKey), ...headers } });
const read = async (apiKey: string, token: string) =>
  (await t.app.inject({ method: 'GET', url: `/v2/payment-links/${token}`, headers: key(apiKey) })).json();

describe('PATCH /v2/payment-links/{token}', () => {
  it('edits description, URLs, expiry and the repeat flag; payment_link.updated names the changes', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey, { success_url: 'https://shop.kz/ok' });
    const res = await patch(m.testKey, link.token, {
      description: 'Новое описание',
      success_url: null,
      cancel_url: 'https://shop.kz/back',
      expires_in_minutes: 60,
      allow_repeat: true,
    });
    expect(res.statusCode).toBe(200);
    const b = res.json();
    expect(b).toMatchObject({
      description: 'Новое описание',
      success_url: null,
      cancel_url: 'https://shop.kz/back',
      allow_repeat: true,
      amount: 5000,
    });
    const ttl = new Date(b.expires_at).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(59 * 60_000);
    expect(ttl).toBeLessThanOrEqual(60 * 60_000);
    expect(new Date(b.updated_at).getTime()).toBeGreaterThan(new Date(link.updated_at).getTime());
    const ev = await events(t.app, m.testKey, 'payment_link.updated');
    expect(ev).toHaveLength(1);
    expect(ev[0].data).toEqual({
      token: `pl_${link.token}`,
      changes: {
        description: 'Новое описание',
        success_url: null,
        cancel_url: 'https://shop.kz/back',
        allow_repeat: true,
        expires_at: b.expires_at,
      },
    });
    // An empty PATCH changes nothing and writes no event.
    expect((await patch(m.testKey, link.token, {})).json()).toEqual(b);
    expect(await events(t.app, m.testKey, 'payment_link.updated')).toHaveLength(1);
    // Values sent as they already are change nothing either; a mix reports only what changed.
    expect(
      (
        await patch(m.testKey, link.token, { description: 'Новое описание', allow_repeat: true, success_url: null })
      ).json(),
    ).toEqual(b);
    expect(await events(t.app, m.testKey, 'payment_link.updated')).toHaveLength(1);
    await patch(m.testKey, link.token, { description: 'Новое описание', cancel_url: null });
    const mixed = await events(t.app, m.testKey, 'payment_link.updated');
    expect(mixed).toHaveLength(2);
    expect(mixed[0].data).toEqual({ token: `pl_${link.token}`, changes: { cancel_url: null } });
  });

  it('refuses the amount (400 param amount), unknown fields and bad values', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey);
    const cases: [unknown, string][] = [
      [{ amount: 6000 }, 'amount'],
      [{ amount: 5000, description: 'x' }, 'amount'],
      [{ email_required: true }, 'email_required'],
      [{ metadata: {} }, 'metadata'],
      [{ description: '' }, 'description'],
      [{ success_url: 'ftp://x' }, 'success_url'],
      [{ expires_in_minutes: 1 }, 'expires_in_minutes'],
    ];
    for (const [body, param] of cases) {
      const res = await patch(m.testKey, link.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(res)).toMatchObject({ code: 'invalid_parameter', param });
    }
    expect((await read(m.testKey, link.token)).description).toBe('Заказ №42');
  });

  it('is 409 payment_link_immutable on cancelled, expired and paid links (amount stays 400 first)', async () => {
    const m = await newMerchant(t.app);
    const cancelled = await createLink(t.app, m.testKey);
    await action(m.testKey, cancelled.token, 'cancel');
    const expired = await createLink(t.app, m.testKey);
    await expireLinkClock(t, expired.token);
    const paid = await createLink(t.app, m.testKey);
    const b = new Browser(t.app);
    const qr = (await b.get(`/v2/checkout/${paid.token}`)).json().qr;
    await pay(t.app, m.testKey, qr.operation_id);
    for (const l of [cancelled, expired, paid]) {
      const res = await patch(m.testKey, l.token, { description: 'x' });
      expect(res.statusCode).toBe(409);
      expect(errorOf(res).code).toBe('payment_link_immutable');
      expect(errorOf(await patch(m.testKey, l.token, { amount: 1 })).code).toBe('invalid_parameter');
      for (const what of ['cancel', 'refresh-qr'] as const) {
        const r = await action(m.testKey, l.token, what);
        expect(r.statusCode, what).toBe(409);
        expect(errorOf(r).code).toBe('payment_link_immutable');
      }
    }
    // The flip to expired seen by the refused PATCH was kept.
    expect((await read(m.testKey, expired.token)).status).toBe('expired');
  });

  it('refresh-qr on a one-time link whose QR was paid unseen is refused, and the payment recorded', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey);
    const qr = (await new Browser(t.app).get(`/v2/checkout/${link.token}`)).json().qr;
    await payAtProvider(t, qr.operation_id); // the payer closed the page: nobody told Tolem
    const r = await action(m.testKey, link.token, 'refresh-qr');
    expect(r.statusCode).toBe(409);
    expect(errorOf(r).code).toBe('payment_link_immutable');
    expect(await read(m.testKey, link.token)).toMatchObject({ status: 'paid', paid_count: 1 });
    const ops = await t.runtime.deps.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM operations WHERE link_token = $1',
      [link.token],
    );
    expect(ops.rows[0].n).toBe(1);
  });

  it('turning repeats off on a link that took payments makes it paid', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey, { allow_repeat: true });
    const qr = (await new Browser(t.app).get(`/v2/checkout/${link.token}`)).json().qr;
    await pay(t.app, m.testKey, qr.operation_id);
    expect((await read(m.testKey, link.token)).status).toBe('active');
    const res = await patch(m.testKey, link.token, { allow_repeat: false });
    expect(res.json()).toMatchObject({ status: 'paid', paid_count: 1, allow_repeat: false });
  });
});

describe('POST cancel and refresh-qr', () => {
  it('cancel: 200 with the record, payment_link.cancelled, checkout refuses afterwards', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey);
    const res = await action(m.testKey, link.token, 'cancel');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ token: link.token, status: 'cancelled' });
    const ev = await events(t.app, m.testKey, 'payment_link.cancelled');
    expect(ev[0].data).toEqual({
      token: `pl_${link.token}`,
      amount: 5000,
      paid_count: 0,
      cancelled_at: res.json().updated_at,
    });
    const pub = await t.app.inject({ method: 'GET', url: `/v2/checkout/${link.token}` });
    expect(pub.statusCode).toBe(409);
    expect(errorOf(pub).code).toBe('payment_link_not_active');
  });

  it('refresh-qr: a fresh QR for the merchant, and visitors get a new one on their next opening', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey, { metadata: { order: 'A-7' } });
    const payer = new Browser(t.app);
    const before = (await payer.get(`/v2/checkout/${link.token}`)).json().qr.operation_id;
    expect((await payer.get(`/v2/checkout/${link.token}`)).json().qr.operation_id).toBe(before);
    const h = idem();
    const res = await action(m.testKey, link.token, 'refresh-qr', h);
    expect(res.statusCode).toBe(200);
    const b = res.json();
    expect(b).toMatchObject({ token: link.token, status: 'active', amount: 5000 });
    expect(b.qr.operation_id).toMatch(/^op_/);
    expect(b.qr.svg).toMatch(/^<svg /);
    expect(b.qr.qr_token).toBeTruthy();
    const replay = await action(m.testKey, link.token, 'refresh-qr', h);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().qr.operation_id).toBe(b.qr.operation_id);
    const after = (await payer.get(`/v2/checkout/${link.token}`)).json().qr.operation_id;
    expect([before, b.qr.operation_id]).not.toContain(after);
    const payments = (await t.app.inject({ method: 'GET', url: '/v2/payments', headers: key(m.testKey) })).json().data;
    expect(payments).toHaveLength(3);
    for (const p of payments)
      expect(p).toMatchObject({ source: 'payment_link', link_token: link.token, amount: 5000, comment: 'Заказ №42' });
  });
});

describe('payments through a link', () => {
  it('a one-time link becomes paid; payment_link.paid and payment.completed with source and metadata', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey, { metadata: { order_id: 'A-1' }, email_required: true });
    const payer = new Browser(t.app);
    const qr = (await payer.post(`/v2/checkout/${link.token}/email`, { email: 'aigerim@example.kz' })).json().qr;
    await pay(t.app, m.testKey, qr.operation_id);
    expect(await read(m.testKey, link.token)).toMatchObject({ status: 'paid', paid_count: 1 });
    const paidEv = await events(t.app, m.testKey, 'payment_link.paid');
    expect(paidEv).toHaveLength(1);
    expect(paidEv[0].data).toEqual({
      token: `pl_${link.token}`,
      operation_id: qr.operation_id,
      amount: 5000,
      paid_count: 1,
      email: 'aigerim@example.kz',
    });
    const done = await events(t.app, m.testKey, 'payment.completed');
    expect(done[0].data).toMatchObject({
      operation_id: qr.operation_id,
      source: 'payment_link',
      link_token: `pl_${link.token}`,
      metadata: { order_id: 'A-1' },
    });
  });

  it('an allow_repeat link stays active and counts every payment, one payment_link.paid each', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey, { allow_repeat: true });
    for (let i = 0; i < 3; i++) {
      const qr = (await new Browser(t.app, `198.51.100.${i + 1}`).get(`/v2/checkout/${link.token}`)).json().qr;
      await pay(t.app, m.testKey, qr.operation_id);
    }
    expect(await read(m.testKey, link.token)).toMatchObject({ status: 'active', paid_count: 3 });
    const ev = await events(t.app, m.testKey, 'payment_link.paid');
    expect(ev.map((e) => e.data.paid_count)).toEqual([3, 2, 1]);
  });

  it('a payment through a QR issued before the link was cancelled is counted; the link stays cancelled', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey);
    const qr = (await new Browser(t.app).get(`/v2/checkout/${link.token}`)).json().qr;
    await action(m.testKey, link.token, 'cancel');
    await pay(t.app, m.testKey, qr.operation_id);
    expect(await read(m.testKey, link.token)).toMatchObject({ status: 'cancelled', paid_count: 1 });
    expect(await events(t.app, m.testKey, 'payment_link.paid')).toHaveLength(1);
  });

  it('a QR never outlives its link', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey, { expires_in_minutes: 5 });
    await t.runtime.deps.db.query(
      `UPDATE payment_links SET expires_at = now() + interval '90 seconds' WHERE token = $1`,
      [link.token],
    );
    const qr = (await new Browser(t.app).get(`/v2/checkout/${link.token}`)).json().qr;
    const left = new Date(qr.expires_at).getTime() - Date.now();
    expect(left).toBeLessThanOrEqual(91_000);
    expect(left).toBeGreaterThan(80_000);
  });
});

describe('the link-expiry sweeper', () => {
  it('expires due active links only, once, with concurrent sweepers', async () => {
    const m = await newMerchant(t.app);
    const due = await createLink(t.app, m.testKey);
    const fresh = await createLink(t.app, m.testKey);
    const cancelled = await createLink(t.app, m.testKey);
    await action(m.testKey, cancelled.token, 'cancel');
    await expireLinkClock(t, due.token);
    await expireLinkClock(t, cancelled.token);
    const counts = await Promise.all([expireDueLinks(t.runtime.deps), expireDueLinks(t.runtime.deps)]);
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect(await expireDueLinks(t.runtime.deps)).toBe(0);
    const rows = await t.runtime.deps.db.query<{ token: string; status: string }>(
      'SELECT token, status FROM payment_links WHERE token = ANY($1)',
      [[due.token, fresh.token, cancelled.token]],
    );
    const status = Object.fromEntries(rows.rows.map((r) => [r.token, r.status]));
    expect(status).toEqual({ [due.token]: 'expired', [fresh.token]: 'active', [cancelled.token]: 'cancelled' });
  });
});
