// The public checkout API: link data with a QR and branding, visitor reuse, the e-mail step, status
// polling, refresh, the test-mode simulated payment, link states, and what must never be public.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, key, newMerchant } from '../helpers/factories.ts';
import { connectLive, payAtProvider } from '../helpers/payments.ts';
import { Browser, createLink, expireLinkClock, expireOpClock } from '../links/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const cancel = (apiKey: string, token: string) =>
  t.app.inject({ method: 'POST', url: `/v2/payment-links/${token}/cancel`, headers: key(apiKey) });

describe('GET /v2/checkout/{token}', () => {
  it('a one-time link paid at the provider while nobody polled is not paid a second time', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey);
    const first = (await new Browser(t.app).get(`/v2/checkout/${link.token}`)).json();
    await payAtProvider(t, first.qr.operation_id); // the payer paid and closed the tab: Tolem was not told
    const second = await new Browser(t.app).get(`/v2/checkout/${link.token}`);
    expect(second.statusCode).toBe(409);
    expect(errorOf(second).code).toBe('payment_link_already_paid');
    const ops = await t.runtime.deps.db.query<{ status: string }>(
      'SELECT status FROM operations WHERE link_token = $1',
      [link.token],
    );
    expect(ops.rows).toEqual([{ status: 'paid' }]);
  });

  it('a link allowing repeats records the paid QR it replaces, then issues the next', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey, { allow_repeat: true });
    const payer = new Browser(t.app);
    const first = (await payer.get(`/v2/checkout/${link.token}`)).json();
    await payAtProvider(t, first.qr.operation_id);
    await t.runtime.deps.db.query(`UPDATE operations SET expires_at = now() + interval '30 seconds' WHERE id = $1`, [
      first.qr.operation_id,
    ]);
    const next = await payer.get(`/v2/checkout/${link.token}`);
    expect(next.statusCode).toBe(200);
    expect(next.json().qr.operation_id).not.toBe(first.qr.operation_id);
    const paid = await t.runtime.deps.db.query<{ status: string }>('SELECT status FROM operations WHERE id = $1', [
      first.qr.operation_id,
    ]);
    expect(paid.rows[0].status).toBe('paid');
  });

  it('visitors opening one link at the same moment each get their own QR (no lock conflict)', async () => {
    // Each opening inserts a checkout_operations row (its foreign key takes KEY SHARE on the link) and then
    // locks the link: FOR UPDATE there deadlocked two openings on PostgreSQL; FOR NO KEY UPDATE does not.
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey, { allow_repeat: true });
    const res = await Promise.all(
      Array.from({ length: 12 }, () => new Browser(t.app).get(`/v2/checkout/${link.token}`)),
    );
    expect(res.map((r) => r.statusCode)).toEqual(Array(12).fill(200));
    expect(new Set(res.map((r) => r.json().qr.operation_id)).size).toBe(12);
  });

  it('answers link data, a QR and branding, with no merchant internals', async () => {
    const m = await newMerchant(t.app, { name: 'Кофейня Алма' });
    await t.app.inject({
      method: 'PATCH',
      url: '/me/branding',
      headers: bearer(m),
      payload: { brand_color: '#1A7F5A', support_email: 'help@alma.kz' },
    });
    const link = await createLink(t.app, m.testKey, {
      metadata: { internal_ref: 'SECRET-123' },
      success_url: 'https://alma.kz/ok',
    });
    const res = await new Browser(t.app).get(`/v2/checkout/${link.token}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const b = res.json();
    expect(Object.keys(b).sort()).toEqual(
      [
        'allow_repeat',
        'amount',
        'cancel_url',
        'description',
        'email_provided',
        'email_required',
        'expires_at',
        'livemode',
        'merchant',
        'qr',
        'status',
        'success_url',
        'token',
      ].sort(),
    );
    expect(b).toMatchObject({
      token: link.token,
      amount: 5000,
      description: 'Заказ №42',
      status: 'active',
      allow_repeat: false,
      email_required: false,
      expires_at: link.expires_at,
      livemode: false,
      success_url: 'https://alma.kz/ok',
      merchant: { display_name: 'Кофейня Алма', logo_url: null, brand_color: '#1A7F5A', support_email: 'help@alma.kz' },
    });
    expect(Object.keys(b.qr).sort()).toEqual(['deep_link', 'expires_at', 'operation_id', 'qr_token', 'svg']);
    expect(b.qr.svg).toMatch(/^<svg [^>]*viewBox/);
    expect(b.qr.svg).not.toMatch(/<script|on\w+=/i);
    const { clientId } = (
      await t.runtime.deps.db.query<{ clientId: number }>(
        'SELECT client_id AS "clientId" FROM users WHERE email = $1',
        [m.email],
      )
    ).rows[0];
    for (const secret of [m.email, 'SECRET-123', m.testKey, m.liveKey, '"client_id"', '"metadata"', '"paid_count"'])
      expect(res.body).not.toContain(secret);
    expect(res.body).not.toMatch(new RegExp(`"(id|client)"\\s*:\\s*${clientId}\\b`));
  });

  it(
    'the same visitor (cookie) gets the same QR; another visitor a fresh ' + 'one; a QR near its end is replaced',
    async () => {
      const m = await newMerchant(t.app);
      const link = await createLink(t.app, m.testKey);
      const a = new Browser(t.app);
      const first = (await a.get(`/v2/checkout/${link.token}`)).json().qr;
      expect(a.cookie).toMatch(/^tolem_cv=[0-9A-Za-z]{22}$/);
      expect((await a.get(`/v2/checkout/${link.token}`)).json().qr.operation_id).toBe(first.operation_id);
      const b = new Browser(t.app, a.ip);
      expect((await b.get(`/v2/checkout/${link.token}`)).json().qr.operation_id).not.toBe(first.operation_id);
      // Less than a minute left: not reused.
      await t.runtime.deps.db.query(`UPDATE operations SET expires_at = now() + interval '30 seconds' WHERE id = $1`, [
        first.operation_id,
      ]);
      expect((await a.get(`/v2/checkout/${link.token}`)).json().qr.operation_id).not.toBe(first.operation_id);
      // A cookie set by the server is httpOnly and scoped to the whole site.
      const res = await new Browser(t.app).get(`/v2/checkout/${link.token}`);
      expect(res.headers['set-cookie']).toMatch(/; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    },
  );

  it(
    'states: unknown token 404, paid 409 payment_link_already_paid, expired/cancelled ' + '409 payment_link_not_active',
    async () => {
      const m = await newMerchant(t.app);
      for (const tok of ['A'.repeat(24), 'short', '%3Cscript%3E']) {
        const res = await t.app.inject({ method: 'GET', url: `/v2/checkout/${tok}` });
        expect(res.statusCode, tok).toBe(404);
        expect(errorOf(res).code).toBe('payment_link_not_found');
      }
      const paid = await createLink(t.app, m.testKey);
      const payer = new Browser(t.app);
      const op = (await payer.get(`/v2/checkout/${paid.token}`)).json().qr.operation_id;
      await t.app.inject({ method: 'POST', url: `/v2/test/payments/${op}/pay`, headers: key(m.testKey) });
      const expired = await createLink(t.app, m.testKey);
      await expireLinkClock(t, expired.token);
      const cancelled = await createLink(t.app, m.testKey);
      await cancel(m.testKey, cancelled.token);
      for (const [l, code] of [
        [paid, 'payment_link_already_paid'],
        [expired, 'payment_link_not_active'],
        [cancelled, 'payment_link_not_active'],
      ] as const) {
        for (const [method, suffix, payload] of [
          ['GET', '', undefined],
          ['POST', '/refresh-qr', {}],
          ['POST', '/email', { email: 'a@b.kz' }],
        ] as const) {
          const res = await payer.request({ method, url: `/v2/checkout/${l.token}${suffix}`, payload });
          expect(res.statusCode, `${code} ${suffix}`).toBe(409);
          // decisions: a public refresh of any non-active link, a paid one too, is payment_link_not_active
          expect(errorOf(res).code).toBe(suffix === '/refresh-qr' ? 'payment_link_not_active' : code);
        }
      }
      // Status still answers on a paid link, so the payer's page learns of the payment.
      expect((await payer.get(`/v2/checkout/${paid.token}/status`)).json()).toMatchObject({
        status: 'paid',
        operation_id: op,
      });
    },
  );

  it('a live link whose merchant cannot take payments is a neutral 503 payment_unavailable', async () => {
    const m = await newMerchant(t.app);
    await connectLive(t, m);
    const link = await createLink(t.app, m.liveKey);
    await t.runtime.deps.db.query(
      `UPDATE clients SET trial_ends_at = now() - interval '1 day' WHERE ` +
        `id = (SELECT client_id FROM users WHERE email = $1)`,
      [m.email],
    );
    const res = await t.app.inject({ method: 'GET', url: `/v2/checkout/${link.token}` });
    expect(res.statusCode).toBe(503);
    expect(errorOf(res).code).toBe('payment_unavailable');
    expect(res.body).not.toMatch(/trial|plan/i);
  });
});

describe('the e-mail step', () => {
  it('no QR until the e-mail is stored; bad e-mails are 400 bad_email param email', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey, { email_required: true });
    const payer = new Browser(t.app);
    const before = (await payer.get(`/v2/checkout/${link.token}`)).json();
    expect(before).toMatchObject({ email_required: true, email_provided: false, qr: null });
    expect((await payer.post(`/v2/checkout/${link.token}/refresh-qr`)).json().qr).toBeNull();
    for (const email of ['nope', 'a@b', 'a b@c.kz', '@x.kz', `${'a'.repeat(250)}@x.kz`, 'a@-x.kz']) {
      const res = await payer.post(`/v2/checkout/${link.token}/email`, { email });
      expect(res.statusCode, email).toBe(400);
      expect(errorOf(res)).toMatchObject({ code: 'bad_email', param: 'email' });
    }
    expect(errorOf(await payer.post(`/v2/checkout/${link.token}/email`, {})).param).toBe('email');
    const res = await payer.post(`/v2/checkout/${link.token}/email`, { email: ' Aigerim.S+shop@mail.kz ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email_provided: true });
    const qr = res.json().qr;
    expect(qr.operation_id).toMatch(/^op_/);
    expect((await payer.get(`/v2/checkout/${link.token}`)).json().qr.operation_id).toBe(qr.operation_id);
    expect((await new Browser(t.app).get(`/v2/checkout/${link.token}`)).json().qr).toBeNull();
    expect(res.body).not.toContain('Aigerim');
  });
});

describe('GET /v2/checkout/{token}/status', () => {
  it('reports the QR status, learning a live payment from the provider', async () => {
    const m = await newMerchant(t.app);
    await connectLive(t, m);
    const link = await createLink(t.app, m.liveKey);
    const payer = new Browser(t.app);
    const op = (await payer.get(`/v2/checkout/${link.token}`)).json().qr.operation_id;
    const waiting = await payer.get(`/v2/checkout/${link.token}/status?op=${op}`);
    expect(waiting.json()).toEqual({ status: 'created', operation_id: op, paid_at: null, check_url: null });
    await payAtProvider(t, op);
    const paid = (await payer.get(`/v2/checkout/${link.token}/status?op=${op}`)).json();
    expect(paid).toMatchObject({ status: 'paid', operation_id: op });
    expect(paid.paid_at).toMatch(/Z$/);
    expect(
      (await t.app.inject({ method: 'GET', url: `/v2/payment-links/${link.token}`, headers: key(m.liveKey) })).json(),
    ).toMatchObject({ status: 'paid', paid_count: 1 });
    // Without op: the one-time link's current payment, to whoever holds the link (#16: op is optional).
    expect((await payer.get(`/v2/checkout/${link.token}/status`)).json().operation_id).toBe(op);
    const stranger = await new Browser(t.app).get(`/v2/checkout/${link.token}/status`);
    expect(stranger.statusCode).toBe(200);
    expect(stranger.json()).toMatchObject({ status: 'paid', operation_id: op });
  });

  it('without op, a one-time link with no QR yet is waiting; then its newest QR, whoever opened it', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey);
    const poller = new Browser(t.app);
    const before = await poller.get(`/v2/checkout/${link.token}/status`);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ status: 'waiting', operation_id: null, paid_at: null, check_url: null });
    const op = (await new Browser(t.app).get(`/v2/checkout/${link.token}`)).json().qr.operation_id;
    expect((await poller.get(`/v2/checkout/${link.token}/status`)).json()).toEqual({
      status: 'created',
      operation_id: op,
      paid_at: null,
      check_url: null,
    });
  });

  it('op is mandatory for allow_repeat links and must belong to the link', async () => {
    const m = await newMerchant(t.app);
    const repeat = await createLink(t.app, m.testKey, { allow_repeat: true });
    const other = await createLink(t.app, m.testKey);
    const payer = new Browser(t.app);
    const op = (await payer.get(`/v2/checkout/${repeat.token}`)).json().qr.operation_id;
    const missing = await payer.get(`/v2/checkout/${repeat.token}/status`);
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing)).toMatchObject({ code: 'invalid_parameter', param: 'op' });
    const foreign = await payer.get(`/v2/checkout/${other.token}/status?op=${op}`);
    expect(foreign.statusCode).toBe(404);
    expect(errorOf(foreign)).toMatchObject({ code: 'payment_not_found' });
    expect(errorOf(foreign).param).toBeUndefined(); // param is for validation errors only
    expect((await new Browser(t.app).get(`/v2/checkout/${other.token}/status`)).json()).toMatchObject({
      status: 'waiting',
      operation_id: null,
    });
    expect((await payer.get(`/v2/checkout/${repeat.token}/status?op=${op}`)).json().status).toBe('created');
  });

  it('an expired QR reads as expired; refresh-qr gives the visitor a new one', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey);
    const payer = new Browser(t.app);
    const op = (await payer.get(`/v2/checkout/${link.token}`)).json().qr.operation_id;
    await expireOpClock(t, op);
    expect((await payer.get(`/v2/checkout/${link.token}/status?op=${op}`)).json().status).toBe('expired');
    const fresh = await payer.post(`/v2/checkout/${link.token}/refresh-qr`);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().qr.operation_id).not.toBe(op);
    expect((await payer.get(`/v2/checkout/${link.token}`)).json().qr.operation_id).toBe(fresh.json().qr.operation_id);
  });
});

describe('POST /v2/checkout/{token}/simulate-payment', () => {
  it('pays the visitor’s QR in test mode, through the same path as the test helpers', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey, { metadata: { order: 7 } });
    const payer = new Browser(t.app);
    const op = (await payer.get(`/v2/checkout/${link.token}`)).json().qr.operation_id;
    const res = await payer.post(`/v2/checkout/${link.token}/simulate-payment`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'paid', operation_id: op });
    const again = await payer.post(`/v2/checkout/${link.token}/simulate-payment`, { operation_id: op });
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).code).toBe('payment_link_already_paid');
    const types = (await t.app.inject({ method: 'GET', url: '/v2/events', headers: key(m.testKey) }))
      .json()
      .data.map((e: { type: string }) => e.type);
    expect(types).toEqual(['payment_link.paid', 'payment.completed', 'payment_link.created']);
  });

  it('is 403 test_mode_only for live links and 404 for a visitor without a QR', async () => {
    const m = await newMerchant(t.app);
    await connectLive(t, m);
    const live = await createLink(t.app, m.liveKey);
    const payer = new Browser(t.app);
    const op = (await payer.get(`/v2/checkout/${live.token}`)).json().qr.operation_id;
    const res = await payer.post(`/v2/checkout/${live.token}/simulate-payment`, { operation_id: op });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe('test_mode_only');
    const test = await createLink(t.app, m.testKey);
    const none = await new Browser(t.app).post(`/v2/checkout/${test.token}/simulate-payment`, {});
    expect(none.statusCode).toBe(404);
    expect(errorOf(none).code).toBe('payment_not_found');
  });
});
