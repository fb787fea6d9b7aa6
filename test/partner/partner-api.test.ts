// The partner integration API (decisions 22) through HTTP: key authentication and its mode, the client
// upsert by external id, client_ref, white-label onboarding, client webhooks, key rotation, login links,
// checkout links paid on the hosted page, and the payments list scoped to the partner's own clients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { buildTestApp, HIGH_LIMITS, type TestApp } from '../helpers/app.ts';
import { bearer, callAs, errorOf, idem, key, newAdmin, newMerchant, type Merchant } from '../helpers/factories.ts';
import { createQr, pay } from '../helpers/payments.ts';
import { Browser } from '../links/helpers.ts';
import { startReceiver, type Receiver } from '../webhooks/helpers.ts';
import { deliverAllDue } from '../../src/jobs/deliveries.ts';

let t: TestApp;
let admin: Merchant;
let receiver: Receiver;
beforeAll(async () => {
  t = await buildTestApp({ dashboardUrl: 'https://pay.example.kz/dashboard', webhooksAllowPrivate: true });
  admin = await newAdmin(t.app, t.runtime.deps.db);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});
const as = callAs(() => t.app);

interface Platform extends Merchant {
  partnerId: number;
  test: string;
  live: string;
}

/** An approved partner with both integration keys. */
async function platform(): Promise<Platform> {
  const m = await newMerchant(t.app);
  const reg = await as(m, 'POST', '/partner/auth/register', { company_name: 'Platform' });
  await as(admin, 'POST', `/admin/partners/${reg.json().id}/approve`);
  const test = (await as(m, 'POST', '/partner/integration/api-keys', { mode: 'test' })).json().api_key;
  const live = (await as(m, 'POST', '/partner/integration/api-keys', { mode: 'live' })).json().api_key;
  return { ...m, partnerId: reg.json().id, test, live };
}

function api(pk: string, method: string, url: string, payload?: object, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: method as 'GET',
    url,
    headers: { 'x-partner-api-key': pk, ...headers },
    ...(payload ? { payload } : {}),
  });
}

async function upsert(pk: string, body: Record<string, unknown> = {}) {
  return api(pk, 'POST', '/partner/v1/clients', { external_id: `shop-${randomUUID()}`, name: 'Shop', ...body });
}

describe('partner keys', () => {
  it("ping answers the key's partner and mode; a client key, a reissued key or a malformed one is 401", async () => {
    const p = await platform();
    const test = await api(p.test, 'GET', '/partner/v1/ping');
    expect(test.json()).toEqual({ ok: true, partner_id: p.partnerId, mode: 'test', key_prefix: p.test.slice(0, 12) });
    expect(test.headers['x-ratelimit-limit']).toBeDefined();
    expect((await api(p.live, 'GET', '/partner/v1/ping')).json().mode).toBe('live');
    expect(errorOf(await api(p.testKey, 'GET', '/partner/v1/ping')).code).toBe('invalid_api_key');
    expect((await t.app.inject({ method: 'GET', url: '/partner/v1/ping', headers: key(p.testKey) })).statusCode).toBe(
      401,
    );
    // A new key of the mode revokes the old at once.
    const next = (await as(p, 'POST', '/partner/integration/api-keys', { mode: 'test' })).json().api_key;
    const old = await api(p.test, 'GET', '/partner/v1/ping');
    expect(old.statusCode).toBe(401);
    expect(errorOf(old).code).toBe('invalid_api_key');
    expect((await api(next, 'GET', '/partner/v1/ping')).statusCode).toBe(200);
  });

  it(
    "a suspended partner's key is 403 partner_not_active at once (the " +
      'key cache forgets it); approved again, it works',
    async () => {
      const p = await platform();
      expect((await api(p.test, 'GET', '/partner/v1/clients')).statusCode).toBe(200);
      await as(admin, 'POST', `/admin/partners/${p.partnerId}/suspend`);
      const r = await api(p.test, 'GET', '/partner/v1/clients');
      expect(r.statusCode).toBe(403);
      expect(errorOf(r).code).toBe('partner_not_active');
      await as(admin, 'POST', `/admin/partners/${p.partnerId}/approve`);
      expect((await api(p.test, 'GET', '/partner/v1/clients')).statusCode).toBe(200);
      // The partner's own account disabled by the operator: its keys stop too.
      const own = (
        await t.runtime.deps.db.query<{ client_id: number }>('SELECT client_id FROM partners WHERE id = $1', [
          p.partnerId,
        ])
      ).rows[0].client_id;
      expect((await as(admin, 'PATCH', `/admin/clients/${own}`, { disabled: true })).statusCode).toBe(200);
      expect(errorOf(await api(p.test, 'GET', '/partner/v1/ping')).code).toBe('account_disabled');
    },
  );

  it('120 requests a minute per key, then 429 with Retry-After; another key has its own budget', async () => {
    const limited = await buildTestApp({ rateLimits: { ...HIGH_LIMITS, partner: 3 } });
    try {
      const m = await newMerchant(limited.app);
      const reg = await limited.app.inject({
        method: 'POST',
        url: '/partner/auth/register',
        headers: bearer(m),
        payload: { company_name: 'Limited' },
      });
      await limited.runtime.deps.db.query(`UPDATE partners SET status = 'active' WHERE id = $1`, [reg.json().id]);
      const keyOf = async (mode: string) =>
        (
          await limited.app.inject({
            method: 'POST',
            url: '/partner/integration/api-keys',
            headers: bearer(m),
            payload: { mode },
          })
        ).json().api_key;
      const [k1, k2] = [await keyOf('test'), await keyOf('live')];
      const ping = (k: string) =>
        limited.app.inject({ method: 'GET', url: '/partner/v1/ping', headers: { 'x-partner-api-key': k } });
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push((await ping(k1)).statusCode);
      expect(codes).toEqual([200, 200, 200, 429]);
      const refused = await ping(k1);
      expect(refused.headers['retry-after']).toBeDefined();
      expect(refused.headers['x-ratelimit-limit']).toBe('3');
      expect((await ping(k2)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('clients', () => {
  it(
    "upsert: 201 with the key of the partner key's mode once, then 200 " +
      'with the same id and no key; name, phone, metadata updated',
    async () => {
      const p = await platform();
      const first = await upsert(p.test, {
        external_id: 'merchant-42',
        name: 'Coffee',
        email: `coffee-${randomUUID()}@example.kz`,
        phone: '+77015550199',
        metadata: { tier: 'gold' },
      });
      expect(first.statusCode, first.body).toBe(201);
      const c = first.json();
      expect(c).toMatchObject({
        external_id: 'merchant-42',
        name: 'Coffee',
        origin: 'api',
        status: 'pending',
        impersonation_allowed: true,
        phone: '+77015550199',
        metadata: { tier: 'gold' },
      });
      expect(c.api_key).toMatch(/^kp_test_/);
      // The key works, in test mode, and the client's test sandbox exists: it can take a test payment.
      const qr = await createQr(t.app, c.api_key);
      expect(qr.status).toBe('created');
      const again = await upsert(p.test, {
        external_id: 'merchant-42',
        name: 'Coffee House',
        phone: '+77015550100',
        metadata: { tier: 'silver' },
      });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({
        id: c.id,
        name: 'Coffee House',
        phone: '+77015550100',
        metadata: { tier: 'silver' },
        email: c.email,
      });
      expect(again.json().api_key).toBeUndefined();
      // A live partner key gives the client's live key on creation.
      const live = await upsert(p.live);
      expect(live.json().api_key).toMatch(/^kp_live_/);
    },
  );

  it('two upserts of one external id at once make one client', async () => {
    const p = await platform();
    const body = { external_id: `race-${randomUUID()}`, name: 'Race' };
    const [a, b] = await Promise.all([upsert(p.test, body), upsert(p.test, body)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(a.json().id).toBe(b.json().id);
  });

  it('bad input: 400 with the param; an e-mail of another account: 409 email_taken; nothing stored', async () => {
    const p = await platform();
    const cases: [object, string][] = [
      [{ name: 'x' }, 'external_id'],
      [{ external_id: 'has space', name: 'x' }, 'external_id'],
      [{ external_id: 'ok-1', name: '' }, 'name'],
      [{ external_id: 'ok-2', name: 'x', email: 'not-an-email' }, 'email'],
      [
        {
          external_id: 'ok-3',
          name: 'x',
          metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])),
        },
        'metadata',
      ],
    ];
    for (const [body, param] of cases) {
      const r = await api(p.test, 'POST', '/partner/v1/clients', body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(r).param, JSON.stringify(body)).toBe(param);
    }
    const taken = await upsert(p.test, { external_id: 'dup-mail', email: p.email });
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken).code).toBe('email_taken');
    expect((await api(p.test, 'GET', '/partner/v1/clients')).json().data).toEqual([]);
  });

  it("client_ref: the external id first, then the numeric id; another partner's client is 404 either way", async () => {
    const p = await platform();
    const q = await platform();
    const mine = (await upsert(p.test, { external_id: 'same-id' })).json();
    const theirs = (await upsert(q.test, { external_id: 'same-id' })).json();
    expect((await api(p.test, 'GET', '/partner/v1/clients/same-id')).json().id).toBe(mine.id);
    expect((await api(q.test, 'GET', '/partner/v1/clients/same-id')).json().id).toBe(theirs.id);
    expect((await api(p.test, 'GET', `/partner/v1/clients/${mine.id}`)).json().external_id).toBe('same-id');
    // A numeric external id wins over a numeric id that happens to match.
    const numeric = (await upsert(p.test, { external_id: String(theirs.id) })).json();
    expect((await api(p.test, 'GET', `/partner/v1/clients/${theirs.id}`)).json().id).toBe(numeric.id);
    const foreign = await api(p.test, 'GET', `/partner/v1/clients/${(await upsert(q.test)).json().id}`);
    expect(foreign.statusCode).toBe(404);
    expect(errorOf(foreign).code).toBe('client_not_found');
    const list = (await api(p.test, 'GET', '/partner/v1/clients?limit=1')).json();
    expect(list.data).toHaveLength(1);
    expect(list.has_more).toBe(true);
    const rest = (
      await api(p.test, 'GET', `/partner/v1/clients?cursor=${encodeURIComponent(list.next_cursor)}`)
    ).json();
    expect([...list.data, ...rest.data].map((c: { id: number }) => c.id).sort()).toEqual([mine.id, numeric.id].sort());
  });
});

describe('white-label onboarding', () => {
  it('live key: start -> code by SMS -> a wrong code -> 000000 -> connected; the client turns active', async () => {
    const p = await platform();
    const c = (await upsert(p.live)).json();
    expect((await api(p.live, 'GET', `/partner/v1/clients/${c.id}/provider/status`)).json()).toMatchObject({
      state: 'idle',
      mode: 'live',
      next_step: 'start',
    });
    const start = await api(p.live, 'POST', `/partner/v1/clients/${c.external_id}/provider/start`, {
      phone: '+77015550142',
    });
    expect(start.statusCode, start.body).toBe(200);
    expect(start.json()).toMatchObject({ state: 'code_sent', next_step: 'enter_code' });
    // Sealed at rest (issue 38): the text as the SMS driver gets it.
    const sms = await t.runtime.deps.db.query<{ body_sealed: string }>(
      `SELECT body_sealed FROM outbox_messages WHERE channel = 'sms' AND ` +
        `recipient = '+77015550142' ORDER BY id DESC LIMIT 1`,
    );
    expect(t.runtime.deps.secrets.sealer.open(sms.rows[0].body_sealed)).toContain('000000');
    const wrong = await api(p.live, 'POST', `/partner/v1/clients/${c.external_id}/provider/verify`, { code: '111111' });
    expect(errorOf(wrong)).toMatchObject({ code: 'otp_invalid', attempts_left: 4 });
    const ok = await api(p.live, 'POST', `/partner/v1/clients/${c.external_id}/provider/verify`, { code: '000000' });
    expect(ok.json()).toMatchObject({ state: 'connected', mode: 'live' });
    expect((await api(p.live, 'GET', `/partner/v1/clients/${c.id}/provider/status`)).json()).toMatchObject({
      state: 'connected',
      account_id: ok.json().account_id,
    });
    expect((await api(p.live, 'GET', `/partner/v1/clients/${c.id}`)).json()).toMatchObject({
      provider_connected: true,
      status: 'active',
    });
  });

  it(
    "test key: the test mode's machine (connected from the start: a second " + 'account with force) ends connected',
    async () => {
      const p = await platform();
      const c = (await upsert(p.test)).json();
      expect((await api(p.test, 'GET', `/partner/v1/clients/${c.id}/provider/status`)).json()).toMatchObject({
        state: 'connected',
        mode: 'test',
      });
      const again = await api(p.test, 'POST', `/partner/v1/clients/${c.id}/provider/start`, { phone: '+77015550143' });
      expect(errorOf(again).code).toBe('already_connected');
      expect(
        (
          await api(p.test, 'POST', `/partner/v1/clients/${c.id}/provider/start`, {
            phone: '+77015550143',
            force: true,
          })
        ).json().state,
      ).toBe('code_sent');
      const ok = await api(p.test, 'POST', `/partner/v1/clients/${c.id}/provider/verify`, { code: '000000' });
      expect(ok.json()).toMatchObject({ state: 'connected', mode: 'test' });
      // The live machine of the same client was not touched.
      expect((await api(p.live, 'GET', `/partner/v1/clients/${c.id}/provider/status`)).json().state).toBe('idle');
    },
  );
});

describe('webhooks, keys and sign-in of a client', () => {
  it(
    "a webhook set through the partner API receives the client's test " + "payment; its list is the key's mode",
    async () => {
      const p = await platform();
      const c = (await upsert(p.test)).json();
      const hook = await api(p.test, 'POST', `/partner/v1/clients/${c.external_id}/webhooks`, {
        url: receiver.url,
        events: ['payment.completed'],
      });
      expect(hook.statusCode, hook.body).toBe(201);
      expect(hook.json().secret).toMatch(/^whsec_/);
      expect((await api(p.test, 'GET', `/partner/v1/clients/${c.id}/webhooks`)).json().data).toHaveLength(1);
      expect((await api(p.live, 'GET', `/partner/v1/clients/${c.id}/webhooks`)).json().data).toHaveLength(0);
      const before = receiver.received.length;
      const qr = await createQr(t.app, c.api_key);
      await pay(t.app, c.api_key, qr.operation_id);
      await deliverAllDue(t.runtime.deps);
      const got = (await receiver.waitFor(before + 1)).slice(before).map((r) => JSON.parse(r.body));
      expect(got.some((e) => e.type === 'payment.completed' && JSON.stringify(e).includes(qr.operation_id))).toBe(true);
    },
  );

  it('rotate: the old key stops at once; referral and invite clients are 403 client_not_managed', async () => {
    const p = await platform();
    const c = (await upsert(p.test)).json();
    const rotated = await api(p.test, 'POST', `/partner/v1/clients/${c.external_id}/api-key/rotate`, {});
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(rotated.json()).toMatchObject({ client_id: c.id, mode: 'test' });
    expect((await t.app.inject({ method: 'GET', url: '/v2/payments', headers: key(c.api_key) })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'GET', url: '/v2/payments', headers: key(rotated.json().api_key) })).statusCode,
    ).toBe(200);
    // A client that came by the partner's invite manages its own keys and sign-in.
    const email = `invited-${randomUUID()}@example.kz`;
    const inv = (await as(p, 'POST', '/partner/clients/invite', { email })).json();
    const reg = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Invited', email, password: 'a long password 1', invite_token: inv.invite_token },
    });
    expect(reg.statusCode, reg.body).toBe(201);
    const invited = (await api(p.test, 'GET', '/partner/v1/clients'))
      .json()
      .data.find((x: { email: string }) => x.email === email);
    expect(invited.origin).toBe('invite');
    for (const path of ['api-key/rotate', 'login-link']) {
      const r = await api(p.test, 'POST', `/partner/v1/clients/${invited.id}/${path}`, {});
      expect(r.statusCode, path).toBe(403);
      expect(errorOf(r).code).toBe('client_not_managed');
    }
  });

  it("login link -> /auth/magic-exchange -> /me as the client's owner; reuse 401", async () => {
    const p = await platform();
    const c = (await upsert(p.test)).json();
    const link = await api(p.test, 'POST', `/partner/v1/clients/${c.id}/login-link`, {});
    expect(link.statusCode, link.body).toBe(201);
    expect(link.json().url).toBe(`https://pay.example.kz/dashboard/magic?token=${link.json().token}`);
    expect(link.json().token).toMatch(/^mt_/);
    const pair = await t.app.inject({
      method: 'POST',
      url: '/auth/magic-exchange',
      payload: { token: link.json().token },
    });
    expect(pair.statusCode).toBe(200);
    const me = (
      await t.app.inject({ method: 'GET', url: '/me', headers: bearer({ access: pair.json().access_token }) })
    ).json();
    expect(me).toMatchObject({ id: c.id, email: c.email });
    const reuse = await t.app.inject({
      method: 'POST',
      url: '/auth/magic-exchange',
      payload: { token: link.json().token },
    });
    expect(reuse.statusCode).toBe(401);
    expect(errorOf(reuse).code).toBe('invalid_token');
    // The password-less owner cannot sign in with any password.
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: c.email, password: 'anything at all 1' },
    });
    expect(login.statusCode).toBe(401);
  });

  it('a client disabled by the operator takes no new link, webhook or onboarding; reads still work', async () => {
    const p = await platform();
    const c = (await upsert(p.test)).json();
    await t.runtime.deps.db.query('UPDATE clients SET disabled_at = now() WHERE id = $1', [c.id]);
    for (const [url, body] of [
      ['/partner/v1/checkout', { client_ref: c.external_id, amount: 100, description: 'x' }],
      [`/partner/v1/clients/${c.id}/webhooks`, { url: receiver.url, events: ['payment.completed'] }],
      [`/partner/v1/clients/${c.id}/provider/start`, { phone: '+77015550144', force: true }],
      [`/partner/v1/clients/${c.id}/login-link`, {}],
    ] as const) {
      const r = await api(p.test, 'POST', url, body);
      expect(r.statusCode, url).toBe(403);
      expect(errorOf(r).code).toBe('account_disabled');
    }
    expect((await api(p.test, 'GET', `/partner/v1/clients/${c.id}`)).statusCode).toBe(200);
  });
});

describe('checkout links and payments', () => {
  it(
    'a checkout link is payable on the hosted page; the payment is listed ' +
      'with its client; a replayed key makes no second link',
    async () => {
      const p = await platform();
      const c = (await upsert(p.test)).json();
      const k = randomUUID();
      const body = { client_ref: c.external_id, amount: 7500, description: 'Заказ 17' };
      const link = await api(p.test, 'POST', '/partner/v1/checkout', body, idem(k));
      expect(link.statusCode, link.body).toBe(201);
      expect(link.json()).toMatchObject({
        client_ref: c.external_id,
        client_id: c.id,
        amount: 7500,
        status: 'active',
        livemode: false,
      });
      const replay = await api(p.test, 'POST', '/partner/v1/checkout', body, idem(k));
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json().token).toBe(link.json().token);
      const payer = new Browser(t.app);
      expect((await payer.get(`/checkout/${link.json().token}`)).statusCode).toBe(200);
      await payer.form(`/checkout/${link.json().token}/simulate`, { lang: 'en' });
      expect((await payer.get(`/checkout/${link.json().token}?lang=en`)).body).toContain('Payment received');
      const list = (await api(p.test, 'GET', '/partner/v1/payments')).json();
      expect(list.data).toHaveLength(1);
      expect(list.data[0]).toMatchObject({
        status: 'paid',
        amount: 7500,
        client_id: c.id,
        external_id: c.external_id,
        link_token: link.json().token,
        livemode: false,
      });
      const one = await api(p.test, 'GET', `/partner/v1/payments/${list.data[0].operation_id}`);
      expect(one.json()).toMatchObject({ operation_id: list.data[0].operation_id, client_id: c.id });
      // The live key sees live payments only.
      expect((await api(p.live, 'GET', '/partner/v1/payments')).json().data).toEqual([]);
      expect((await api(p.live, 'GET', `/partner/v1/payments/${list.data[0].operation_id}`)).statusCode).toBe(404);
    },
  );

  it(
    'every way of making a payment lands in the list (v1, cabinet), and ' +
      'a client attributed later brings its payments along',
    async () => {
      const p = await platform();
      const c = (await upsert(p.test)).json();
      const v1 = await t.app.inject({
        method: 'POST',
        url: '/v1/qr/create',
        headers: { ...key(c.api_key), ...idem() },
        payload: { amount: 300 },
      });
      expect(v1.statusCode, v1.body).toBe(200);
      const login = await api(p.test, 'POST', `/partner/v1/clients/${c.id}/login-link`, {});
      const pair = (
        await t.app.inject({ method: 'POST', url: '/auth/magic-exchange', payload: { token: login.json().token } })
      ).json();
      const cab = await t.app.inject({
        method: 'POST',
        url: '/me/payments/create-qr?mode=test',
        headers: { ...bearer({ access: pair.access_token }), ...idem() },
        payload: { amount: 400 },
      });
      expect(cab.statusCode, cab.body).toBe(201);
      const amounts = (await api(p.test, 'GET', '/partner/v1/payments'))
        .json()
        .data.map((x: { amount: number }) => x.amount)
        .sort();
      expect(amounts).toEqual([300, 400]);
      // A merchant with a payment, then given to the partner (not a path of the API today, but the store keeps
      // the list right whatever sets it).
      const m = await newMerchant(t.app);
      const op = (await createQr(t.app, m.testKey, 777)).operation_id;
      await t.runtime.deps.db.query(
        `UPDATE clients SET partner_id = $1, partner_origin = 'invite' WHERE lower(email) = lower($2)`,
        [p.partnerId, m.email],
      );
      expect((await api(p.test, 'GET', `/partner/v1/payments/${op}`)).json().amount).toBe(777);
    },
  );

  it("a live checkout needs the client's live provider account (409 provider_not_connected)", async () => {
    const p = await platform();
    const c = (await upsert(p.live)).json();
    const r = await api(p.live, 'POST', '/partner/v1/checkout', { client_ref: c.id, amount: 100, description: 'x' });
    expect(r.statusCode).toBe(409);
    expect(errorOf(r).code).toBe('provider_not_connected');
  });

  it(
    "payments: only the partner's clients, newest first across them, " +
      'cursor pages, filters by client_ref, status and type',
    async () => {
      const p = await platform();
      const q = await platform();
      const [c1, c2] = [(await upsert(p.test)).json(), (await upsert(p.test)).json()];
      const other = (await upsert(q.test)).json();
      const ops: string[] = [];
      for (const c of [c1, c2, c1, c2, c1])
        ops.push((await createQr(t.app, c.api_key, 1000 + ops.length)).operation_id);
      await pay(t.app, c1.api_key, ops[0]);
      const theirs = (await createQr(t.app, other.api_key)).operation_id;
      // A merchant of no partner, and this partner's own account: neither is in the list.
      const loner = await newMerchant(t.app);
      await createQr(t.app, loner.testKey);
      await createQr(t.app, p.testKey);

      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await api(
          p.test,
          'GET',
          `/partner/v1/payments?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(page.statusCode, page.body).toBe(200);
        seen.push(...page.json().data.map((x: { operation_id: string }) => x.operation_id));
        cursor = page.json().has_more ? page.json().next_cursor : undefined;
      } while (cursor);
      expect(seen).toEqual([...ops].reverse());
      const byClient = (await api(p.test, 'GET', `/partner/v1/payments?client_ref=${c2.external_id}`)).json().data;
      expect(byClient.map((x: { operation_id: string }) => x.operation_id)).toEqual([ops[3], ops[1]]);
      expect(
        (await api(p.test, 'GET', '/partner/v1/payments?status=paid'))
          .json()
          .data.map((x: { operation_id: string }) => x.operation_id),
      ).toEqual([ops[0]]);
      expect((await api(p.test, 'GET', '/partner/v1/payments?type=invoice')).json().data).toEqual([]);
      expect((await api(p.test, 'GET', `/partner/v1/payments/${theirs}`)).statusCode).toBe(404);
      expect((await api(p.test, 'GET', `/partner/v1/payments?client_ref=${other.id}`)).statusCode).toBe(404);
      // A cursor is bound to its filters.
      const first = (await api(p.test, 'GET', '/partner/v1/payments?limit=1')).json();
      const mixed = await api(
        p.test,
        'GET',
        `/partner/v1/payments?status=paid&cursor=${encodeURIComponent(first.next_cursor)}`,
      );
      expect(errorOf(mixed).code).toBe('invalid_cursor');
    },
  );
});
