// POST/GET /v2/payment-links: the creation input's rules, the record, idempotency, the cursor list,
// expiry on read, tenants and modes, JWT callers and their roles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, idem, key, newMerchant } from '../helpers/factories.ts';
import { connectLive } from '../helpers/payments.ts';
import { createLink, events, expireLinkClock } from './helpers.ts';
import { api } from '../helpers/api.ts';
import { newMember } from '../helpers/actors.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('POST /v2/payment-links', () => {
  it('creates a link with the defaults and a payment_link.created event', async () => {
    const m = await newMerchant(t.app);
    const res = await api(t.app, { apiKey: m.testKey }).post('/v2/payment-links', {
      body: { amount: 5000, description: 'Заказ №42' },
    });
    expect(res.status).toBe(201);
    const b = res.body;
    expect(b.token).toMatch(/^[0-9A-Za-z]{24}$/);
    expect(b).toMatchObject({
      url: `${t.config.publicBaseUrl}/checkout/${b.token}`,
      amount: 5000,
      description: 'Заказ №42',
      status: 'active',
      success_url: null,
      cancel_url: null,
      allow_repeat: false,
      email_required: false,
      metadata: {},
      paid_count: 0,
      livemode: false,
    });
    const ttl = new Date(b.expires_at).getTime() - new Date(b.created_at).getTime();
    expect(ttl).toBe(1440 * 60_000);
    expect(b.created_at).toMatch(/\.\d{3}Z$/);
    expect(b.updated_at).toBe(b.created_at);
    const ev = await events(t.app, m.testKey, 'payment_link.created');
    expect(ev).toHaveLength(1);
    expect(ev[0].data).toEqual({ token: `pl_${b.token}`, amount: 5000, description: 'Заказ №42' });
  });

  it('takes every field of the creation input', async () => {
    const m = await newMerchant(t.app);
    const b = (
      await api(t.app, { apiKey: m.testKey }).post('/v2/payment-links', {
        body: {
          amount: 12_000,
          description: 'Абонемент',
          success_url: 'https://shop.kz/ok?x=1',
          cancel_url: 'http://localhost:3000/cancel',
          expires_in_minutes: 5,
          allow_repeat: true,
          email_required: true,
          metadata: { order_id: 'A-1', nested: { n: 1 } },
        },
      })
    ).body;
    expect(b).toMatchObject({
      success_url: 'https://shop.kz/ok?x=1',
      cancel_url: 'http://localhost:3000/cancel',
      allow_repeat: true,
      email_required: true,
      metadata: { order_id: 'A-1', nested: { n: 1 } },
    });
    expect(new Date(b.expires_at).getTime() - new Date(b.created_at).getTime()).toBe(5 * 60_000);
  });

  it('validates the input (400 invalid_parameter naming the field) and stores nothing', async () => {
    const m = await newMerchant(t.app);
    const ok = { amount: 100, description: 'x' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, amount: 0 }, 'amount'],
      [{ ...ok, amount: 10_000_001 }, 'amount'],
      [{ ...ok, amount: 1.5 }, 'amount'],
      [{ ...ok, amount: '100' }, 'amount'],
      [{ description: 'x' }, 'amount'],
      [{ amount: 100 }, 'description'],
      [{ ...ok, description: '' }, 'description'],
      [{ ...ok, description: '   ' }, 'description'],
      [{ ...ok, description: 'я'.repeat(501) }, 'description'],
      [{ ...ok, success_url: 'http://shop.kz/ok' }, 'success_url'],
      [{ ...ok, success_url: 'javascript:alert(1)' }, 'success_url'],
      [{ ...ok, success_url: 'shop.kz/ok' }, 'success_url'],
      [{ ...ok, success_url: 'https://user:pw@shop.kz/' }, 'success_url'],
      [{ ...ok, cancel_url: `https://shop.kz/${'a'.repeat(2100)}` }, 'cancel_url'],
      [{ ...ok, expires_in_minutes: 4 }, 'expires_in_minutes'],
      [{ ...ok, expires_in_minutes: 43_201 }, 'expires_in_minutes'],
      [{ ...ok, allow_repeat: 'yes' }, 'allow_repeat'],
      [{ ...ok, metadata: [1] }, 'metadata'],
      [{ ...ok, metadata: 'x' }, 'metadata'],
      [{ ...ok, metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, 'metadata'],
      [{ ...ok, metadata: { ['k'.repeat(41)]: 1 } }, 'metadata'],
      [{ ...ok, metadata: { big: 'x'.repeat(4100) } }, 'metadata'],
      [{ ...ok, status: 'paid' }, 'status'],
    ];
    for (const [body, param] of cases) {
      const res = await api(t.app, { apiKey: m.testKey }).post('/v2/payment-links', { payload: body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(errorOf(res), JSON.stringify(body).slice(0, 80)).toMatchObject({ code: 'invalid_parameter', param });
    }
    expect(
      await api(t.app, { apiKey: m.testKey }).post('/v2/payment-links', {
        body: { ...ok, description: 'я'.repeat(500), expires_in_minutes: 43_200 },
      }),
    ).toMatchObject({
      status: 201,
    });
    const list = (await api(t.app, { apiKey: m.testKey }).get('/v2/payment-links')).body;
    expect(list.data).toHaveLength(1);
  });

  it('Idempotency-Key is optional; with one, a retry replays the first link', async () => {
    const m = await newMerchant(t.app);
    const h = idem();
    const a = await api(t.app, { apiKey: m.testKey }).post('/v2/payment-links', {
      body: { amount: 700, description: 'Кофе' },
      headers: h,
    });
    const b = await api(t.app, { apiKey: m.testKey }).post('/v2/payment-links', {
      body: { amount: 700, description: 'Кофе' },
      headers: h,
    });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.body).toEqual(a.body);
    const other = await api(t.app, { apiKey: m.testKey }).post('/v2/payment-links', {
      body: { amount: 701, description: 'Кофе' },
      headers: h,
    });
    expect(other.status).toBe(409);
    expect(errorOf(other).code).toBe('idempotency_conflict');
    expect(
      (
        await api(t.app, { apiKey: m.testKey }).post('/v2/payment-links', {
          body: { amount: 700, description: 'Кофе' },
        })
      ).body.token,
    ).not.toBe(a.body.token);
    expect(await events(t.app, m.testKey, 'payment_link.created')).toHaveLength(2);
  });

  it('live mode needs a connected provider account', async () => {
    const m = await newMerchant(t.app);
    const res = await api(t.app, { apiKey: m.liveKey }).post('/v2/payment-links', {
      body: { amount: 100, description: 'x' },
    });
    expect(res.status).toBe(409);
    expect(errorOf(res).code).toBe('provider_not_connected');
    await connectLive(t, m);
    expect(
      (await api(t.app, { apiKey: m.liveKey }).post('/v2/payment-links', { body: { amount: 100, description: 'x' } }))
        .body,
    ).toMatchObject({
      livemode: true,
      status: 'active',
    });
  });

  it('needs a credential', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/payment-links',
      payload: { amount: 100, description: 'x' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /v2/payment-links/{token}', () => {
  it('reads a link; pl_<token> addresses it too', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey);
    for (const tok of [link.token, `pl_${link.token}`]) {
      const res = await t.app.inject({ method: 'GET', url: `/v2/payment-links/${tok}`, headers: key(m.testKey) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(link);
    }
  });

  it('an active link past its expiry reads as expired (persisted, no event)', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey);
    await expireLinkClock(t, link.token);
    const res = await t.app.inject({ method: 'GET', url: `/v2/payment-links/${link.token}`, headers: key(m.testKey) });
    expect(res.json().status).toBe('expired');
    const row = await t.runtime.deps.db.query<{ status: string }>('SELECT status FROM payment_links WHERE token = $1', [
      link.token,
    ]);
    expect(row.rows[0].status).toBe('expired');
    const types = (await t.app.inject({ method: 'GET', url: '/v2/events', headers: key(m.testKey) }))
      .json()
      .data.map((e: { type: string }) => e.type);
    expect(types).toEqual(['payment_link.created']);
  });

  it('another tenant’s token, the other mode’s, or garbage is 404 payment_link_not_found', async () => {
    const m = await newMerchant(t.app);
    const other = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey, { description: 'секрет' });
    for (const [k, tok] of [
      [other.testKey, link.token],
      [m.liveKey, link.token],
      [m.testKey, 'nope'],
      [m.testKey, 'A'.repeat(24)],
    ] as const) {
      for (const [method, suffix] of [
        ['GET', ''],
        ['PATCH', ''],
        ['POST', '/cancel'],
        ['POST', '/refresh-qr'],
      ] as const) {
        const res = await t.app.inject({
          method,
          url: `/v2/payment-links/${tok}${suffix}`,
          headers: key(k),
          payload: method === 'PATCH' ? { description: 'x' } : {},
        });
        expect(res.statusCode, `${method} ${suffix}`).toBe(404);
        expect(errorOf(res).code).toBe('payment_link_not_found');
        expect(res.body).not.toContain('секрет');
      }
    }
    expect(
      (await t.app.inject({ method: 'GET', url: `/v2/payment-links/${link.token}`, headers: key(m.testKey) })).json()
        .description,
    ).toBe('секрет');
  });
});

describe('GET /v2/payment-links', () => {
  it('cursor pages newest first, status filter, signed cursors bound to the filter', async () => {
    const m = await newMerchant(t.app);
    const made = [];
    for (let i = 0; i < 5; i++) {
      made.push(await createLink(t.app, m.testKey, { amount: 100 + i }));
      // Links of one millisecond are ordered by token, which is random (api-notes): keep them apart, so
      // that creation order is the order this test expects. A fast run made two in one millisecond.
      await new Promise((r) => setTimeout(r, 2));
    }
    await t.app.inject({ method: 'POST', url: `/v2/payment-links/${made[1].token}/cancel`, headers: key(m.testKey) });
    await expireLinkClock(t, made[3].token);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { json(): { data: { token: string }[]; next_cursor: string | null; has_more: boolean } } =
        await t.app.inject({
          method: 'GET',
          url: `/v2/payment-links?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
          headers: key(m.testKey),
        });
      const page = res.json();
      seen.push(...page.data.map((l) => l.token));
      expect(page.data.length).toBeLessThanOrEqual(2);
      cursor = page.next_cursor;
      expect(page.has_more).toBe(cursor !== null);
    } while (cursor);
    expect(seen).toEqual(made.map((l) => l.token).reverse());
    const active = (
      await t.app.inject({ method: 'GET', url: '/v2/payment-links?status=active', headers: key(m.testKey) })
    ).json();
    expect(active.data.map((l: { amount: number }) => l.amount)).toEqual([104, 102, 100]);
    const expired = (
      await t.app.inject({ method: 'GET', url: '/v2/payment-links?status=expired', headers: key(m.testKey) })
    ).json();
    expect(expired.data.map((l: { token: string }) => l.token)).toEqual([made[3].token]);
    const first = (
      await t.app.inject({ method: 'GET', url: '/v2/payment-links?limit=1&status=active', headers: key(m.testKey) })
    ).json();
    const moved = await t.app.inject({
      method: 'GET',
      url: `/v2/payment-links?limit=1&status=paid&cursor=${first.next_cursor}`,
      headers: key(m.testKey),
    });
    expect(errorOf(moved).code).toBe('invalid_cursor');
    for (const [q, code] of [
      ['limit=0', 'invalid_limit'],
      ['limit=101', 'limit_too_large'],
      ['status=open', 'invalid_parameter'],
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `/v2/payment-links?${q}`, headers: key(m.testKey) });
      expect(res.statusCode, q).toBe(400);
      expect(errorOf(res).code, q).toBe(code);
    }
  });

  it('lists only the caller’s tenant and mode', async () => {
    const m = await newMerchant(t.app);
    const other = await newMerchant(t.app);
    await createLink(t.app, other.testKey);
    const mine = await createLink(t.app, m.testKey);
    const list = (await api(t.app, { apiKey: m.testKey }).get('/v2/payment-links')).body;
    expect(list.data.map((l: { token: string }) => l.token)).toEqual([mine.token]);
    expect(
      (await t.app.inject({ method: 'GET', url: '/v2/payment-links', headers: key(m.liveKey) })).json().data,
    ).toEqual([]);
  });
});

describe('JWT callers', () => {
  it('act in live mode unless ?mode=test, and see the same links as the API key of that mode', async () => {
    const m = await newMerchant(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/payment-links?mode=test',
      headers: bearer(m),
      payload: { amount: 300, description: 'из кабинета' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().livemode).toBe(false);
    const tok = res.json().token;
    expect(
      (await t.app.inject({ method: 'GET', url: `/v2/payment-links/${tok}`, headers: key(m.testKey) })).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: `/v2/payment-links/${tok}`, headers: bearer(m) })).statusCode,
    ).toBe(404);
    const list = (await t.app.inject({ method: 'GET', url: '/v2/payment-links?mode=test', headers: bearer(m) })).json();
    expect(list.data).toHaveLength(1);
    const live = await t.app.inject({
      method: 'POST',
      url: '/v2/payment-links',
      headers: bearer(m),
      payload: { amount: 300, description: 'x' },
    });
    expect(errorOf(live).code).toBe('provider_not_connected');
  });

  it('viewers read; only roles that create payments change links', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey);
    const viewer = await newMember(t.app, m, 'viewer');
    const q = '?mode=test';
    expect(
      (await t.app.inject({ method: 'GET', url: `/v2/payment-links${q}`, headers: bearer(viewer) })).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: `/v2/payment-links/${link.token}${q}`, headers: bearer(viewer) }))
        .statusCode,
    ).toBe(200);
    for (const [method, url, payload] of [
      ['POST', `/v2/payment-links${q}`, { amount: 1, description: 'x' }],
      ['PATCH', `/v2/payment-links/${link.token}${q}`, { description: 'y' }],
      ['POST', `/v2/payment-links/${link.token}/cancel${q}`, {}],
      ['POST', `/v2/payment-links/${link.token}/refresh-qr${q}`, {}],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: bearer(viewer), payload });
      expect(res.statusCode, url).toBe(403);
      expect(errorOf(res).code).toBe('forbidden_role');
    }
  });
});
