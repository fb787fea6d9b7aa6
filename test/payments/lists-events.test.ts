// GET /v2/payments and GET /v2/events: cursors, limits, filters, modes, tenants.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { errorOf, key, newMerchant } from '../helpers/factories.ts';
import { createQr, pay } from '../helpers/payments.ts';
import { api } from '../helpers/api.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('GET /v2/payments', () => {
  it('pages newest first with a cursor until has_more is false', async () => {
    const m = await newMerchant(t.app);
    const ids: string[] = [];
    for (let i = 1; i <= 7; i++) ids.push((await createQr(t.app, m.testKey, i * 100)).operation_id);
    const seen: string[] = [];
    let url: `/v2/payments?${string}` = '/v2/payments?limit=3';
    for (;;) {
      const page = (await api(t.app, { apiKey: m.testKey }).get(url)).body;
      seen.push(...page.data.map((p: { operation_id: string }) => p.operation_id));
      if (!page.has_more) {
        expect(page.next_cursor).toBeNull();
        break;
      }
      url = `/v2/payments?limit=3&cursor=${encodeURIComponent(page.next_cursor!)}`;
    }
    expect(seen).toEqual(ids.reverse());
    const item = (await api(t.app, { apiKey: m.testKey }).get('/v2/payments?limit=1')).body.data[0];
    expect(Object.keys(item).sort()).toEqual([
      'amount',
      'comment',
      'created_at',
      'expires_at',
      'link_token',
      'livemode',
      'operation_id',
      'paid_at',
      'phone',
      'provider_account_id',
      'refunded_amount',
      'sender_name',
      'source',
      'status',
      'transaction_id',
      'type',
    ]);
    expect(item).toMatchObject({ livemode: false, source: 'api', type: 'qr' });
  });

  it('filters by status and type', async () => {
    const m = await newMerchant(t.app);
    const a = await createQr(t.app, m.testKey);
    await createQr(t.app, m.testKey);
    await pay(t.app, m.testKey, a.operation_id);
    await t.app.inject({
      method: 'POST',
      url: '/v2/invoices',
      headers: { ...key(m.testKey), 'idempotency-key': 'inv-1' },
      payload: { phone: '+77012345678', amount: 100 },
    });
    const paid = (await api(t.app, { apiKey: m.testKey }).get('/v2/payments?status=paid')).body.data;
    expect(paid.map((p: { operation_id: string }) => p.operation_id)).toEqual([a.operation_id]);
    expect((await api(t.app, { apiKey: m.testKey }).get('/v2/payments?type=invoice')).body.data).toHaveLength(1);
    expect((await api(t.app, { apiKey: m.testKey }).get('/v2/payments?type=qr')).body.data).toHaveLength(2);
    const bad = await api(t.app, { apiKey: m.testKey }).get('/v2/payments?status=done');
    expect(errorOf(bad)).toMatchObject({ code: 'invalid_parameter', param: 'status' });
    expect(errorOf(await api(t.app, { apiKey: m.testKey }).get('/v2/payments?type=card')).param).toBe('type');
  });

  it('limit and cursor errors', async () => {
    const m = await newMerchant(t.app);
    for (let i = 0; i < 3; i++) await createQr(t.app, m.testKey);
    for (const [q, code] of [
      ['limit=0', 'invalid_limit'],
      ['limit=-3', 'invalid_limit'],
      ['limit=1.5', 'invalid_limit'],
      ['limit=x', 'invalid_limit'],
      ['limit=101', 'limit_too_large'],
    ]) {
      const res = await api(t.app, { apiKey: m.testKey }).get(`/v2/payments?${q}`);
      expect(res.status, q).toBe(400);
      expect(errorOf(res).code, q).toBe(code);
    }
    expect((await api(t.app, { apiKey: m.testKey }).get('/v2/payments?limit=100')).status).toBe(200);
    expect((await api(t.app, { apiKey: m.testKey }).get('/v2/payments')).body.data).toHaveLength(3); // default 20
    const next_cursor = (await api(t.app, { apiKey: m.testKey }).get('/v2/payments?limit=1')).body.next_cursor!;
    const [body, sig] = next_cursor.split('.');
    const tampered =
      `${Buffer.from(JSON.stringify(['2030-01-01T00:00:00.000Z', 'op_X'])).toString('base64url')}` + `.${sig}`;
    for (const c of [tampered, `${body}.${'0'.repeat(32)}`, 'garbage', `${body}`]) {
      const res = await api(t.app, { apiKey: m.testKey }).get(`/v2/payments?cursor=${encodeURIComponent(c)}`);
      expect(errorOf(res).code).toBe('invalid_cursor');
    }
    // Bound to the filters and the endpoint.
    expect(
      errorOf(
        await api(t.app, { apiKey: m.testKey }).get(
          `/v2/payments?status=paid&cursor=${encodeURIComponent(next_cursor)}`,
        ),
      ).code,
    ).toBe('invalid_cursor');
    expect(
      errorOf(await api(t.app, { apiKey: m.testKey }).get(`/v2/events?cursor=${encodeURIComponent(next_cursor)}`)).code,
    ).toBe('invalid_cursor');
    expect(
      (await api(t.app, { apiKey: m.testKey }).get(`/v2/payments?cursor=${encodeURIComponent(next_cursor)}`)).status,
    ).toBe(200);
  });

  it('shows only this client’s operations of this key’s mode', async () => {
    const m = await newMerchant(t.app);
    const other = await newMerchant(t.app);
    await createQr(t.app, m.testKey);
    expect((await api(t.app, { apiKey: other.testKey }).get('/v2/payments')).body.data).toHaveLength(0);
    expect((await api(t.app, { apiKey: m.liveKey }).get('/v2/payments')).body.data).toHaveLength(0);
    // A cursor of one client is useless to another: it only positions within the caller's own rows.
    await createQr(t.app, m.testKey);
    const c = (await api(t.app, { apiKey: m.testKey }).get('/v2/payments?limit=1')).body.next_cursor;
    expect(
      (await api(t.app, { apiKey: other.testKey }).get(`/v2/payments?cursor=${encodeURIComponent(c!)}`)).body.data,
    ).toHaveLength(0);
  });
});

describe('GET /v2/events', () => {
  async function merchantWithEvents() {
    const m = await newMerchant(t.app);
    const a = await createQr(t.app, m.testKey, 100);
    await pay(t.app, m.testKey, a.operation_id);
    const b = await createQr(t.app, m.testKey, 200);
    await t.app.inject({ method: 'POST', url: `/v2/test/payments/${b.operation_id}/expire`, headers: key(m.testKey) });
    await t.app.inject({
      method: 'POST',
      url: '/v2/refunds',
      headers: { ...key(m.testKey), 'idempotency-key': `r-${a.operation_id}` },
      payload: { operation_id: a.operation_id, amount: 50 },
    });
    return m;
  }

  it('filters by several types, comma-separated, and pages', async () => {
    const m = await merchantWithEvents();
    const all = (await api(t.app, { apiKey: m.testKey }).get('/v2/events')).body.data;
    expect(all.map((e: { type: string }) => e.type)).toEqual([
      'payment.refunded',
      'payment.expired',
      'payment.completed',
    ]);
    expect(all[0].id).toMatch(/^evt_/);
    const two = (await api(t.app, { apiKey: m.testKey }).get('/v2/events?type=payment.completed,payment.refunded')).body
      .data;
    expect(two.map((e: { type: string }) => e.type)).toEqual(['payment.refunded', 'payment.completed']);
    const p1 = (await api(t.app, { apiKey: m.testKey }).get('/v2/events?limit=2')).body;
    expect(p1.has_more).toBe(true);
    const p2 = (
      await api(t.app, { apiKey: m.testKey }).get(`/v2/events?limit=2&cursor=${encodeURIComponent(p1.next_cursor!)}`)
    ).body;
    expect(p2.data.map((e: { type: string }) => e.type)).toEqual(['payment.completed']);
    expect(errorOf(await api(t.app, { apiKey: m.testKey }).get('/v2/events?type=payment.nope')).param).toBe('type');
  });

  it('operation_id: the events of one payment only, newest first', async () => {
    const m = await merchantWithEvents();
    const all = (await api(t.app, { apiKey: m.testKey }).get('/v2/events')).body.data as {
      type: string;
      data: { operation_id?: string };
    }[];
    const paid = all.find((e) => e.type === 'payment.refunded')!.data.operation_id!;
    const own = (await api(t.app, { apiKey: m.testKey }).get(`/v2/events?operation_id=${paid}`)).body.data as {
      type: string;
      data: { operation_id?: string };
    }[];
    expect(own.map((e) => e.type)).toEqual(['payment.refunded', 'payment.completed']);
    expect(own.every((e) => e.data.operation_id === paid)).toBe(true);
    expect(
      (await api(t.app, { apiKey: m.testKey }).get('/v2/events?operation_id=op_01NOSUCHOPERATION000000000')).body.data,
    ).toEqual([]);
    // Another client's payment: nothing.
    const other = await newMerchant(t.app);
    expect((await api(t.app, { apiKey: other.testKey }).get(`/v2/events?operation_id=${paid}`)).body.data).toEqual([]);
  });

  it('since and until are inclusive; a bare until date covers the whole day', async () => {
    const m = await merchantWithEvents();
    const all = (await api(t.app, { apiKey: m.testKey }).get('/v2/events')).body.data;
    const newest = all[0].created_at;
    const today = newest.slice(0, 10);
    expect((await api(t.app, { apiKey: m.testKey }).get(`/v2/events?since=${newest}`)).body.data[0].id).toBe(all[0].id);
    expect((await api(t.app, { apiKey: m.testKey }).get(`/v2/events?until=${today}`)).body.data).toHaveLength(3);
    expect(
      (await api(t.app, { apiKey: m.testKey }).get(`/v2/events?since=${today}&until=${today}`)).body.data,
    ).toHaveLength(3);
    expect((await api(t.app, { apiKey: m.testKey }).get('/v2/events?until=2020-01-01')).body.data).toHaveLength(0);
    expect(errorOf(await api(t.app, { apiKey: m.testKey }).get('/v2/events?since=yesterday')).param).toBe('since');
    expect(errorOf(await api(t.app, { apiKey: m.testKey }).get('/v2/events?until=2026-13-45')).param).toBe('until');
    // Years the stores cannot take: 400, not 500.
    expect(errorOf(await api(t.app, { apiKey: m.testKey }).get('/v2/events?since=0000-01-01')).param).toBe('since');
    expect(
      errorOf(
        await api(t.app, { apiKey: m.testKey }).get(
          `/v2/events?until=${encodeURIComponent('9999-12-31T23:00:00-14:00')}`,
        ),
      ).param,
    ).toBe('until');
  });

  it("a time without a zone is UTC, whatever the server's time zone", async () => {
    const m = await merchantWithEvents();
    const newest = (await api(t.app, { apiKey: m.testKey }).get('/v2/events')).body.data[0];
    const tz = process.env.TZ;
    process.env.TZ = 'Asia/Almaty'; // UTC+5: read as local time, the instant would be 5 h earlier
    try {
      const bare = newest.created_at.replace(/Z$/, '');
      const until = (await api(t.app, { apiKey: m.testKey }).get(`/v2/events?until=${bare}`)).body.data;
      expect(until[0].id).toBe(newest.id);
      const since = (await api(t.app, { apiKey: m.testKey }).get(`/v2/events?since=${bare}`)).body.data;
      expect(since.map((e: { id: string }) => e.id)).toEqual([newest.id]);
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });

  it('JWT reads live by default and test with ?mode=test; tenants are separate', async () => {
    const m = await merchantWithEvents();
    const live = (await api(t.app, m).get('/v2/events')).body;
    expect(live.data).toHaveLength(0);
    const test = (await api(t.app, m).get('/v2/events?mode=test')).body;
    expect(test.data).toHaveLength(3);
    expect(test.data.every((e: { livemode: boolean }) => e.livemode === false)).toBe(true);
    const other = await newMerchant(t.app);
    expect((await api(t.app, { apiKey: other.testKey }).get('/v2/events')).body.data).toHaveLength(0);
  });
});
