// Finding a payment (issue 41, item 9): GET /v2/payments and GET /me/payments by time range, amount, a phone's
// last digits and a text over comment and id; every filter alone and combined, the same answer from both lists,
// cursor pages past 100 with filters, bad values as 400 naming the parameter, tenants apart; the CSV export
// with the same filters in its two forms; a payment's refunds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { api, apiError } from '../helpers/api.ts';
import { newMerchant, newPaidPayment, type Merchant } from '../helpers/actors.ts';
import { idem } from '../helpers/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

interface Listed {
  operation_id: string;
  amount: number;
  comment: string | null;
  phone: string | null;
  created_at: string;
}
interface ListPage {
  data: Listed[];
  next_cursor: string | null;
  has_more: boolean;
}

async function qr(m: Merchant, amount: number, comment?: string): Promise<string> {
  const res = await api(t.app, { apiKey: m.testKey }).post('/v2/qr', {
    body: { amount, ...(comment ? { comment } : {}) },
    headers: idem(),
  });
  if (res.status !== 201) throw new Error(`create QR: ${res.status} ${res.raw.body}`);
  return res.body.operation_id;
}

async function invoice(m: Merchant, amount: number, phone: string, comment?: string): Promise<string> {
  const res = await api(t.app, { apiKey: m.testKey }).post('/v2/invoices', {
    body: { amount, phone, ...(comment ? { comment } : {}) },
    headers: idem(),
  });
  if (res.status !== 201) throw new Error(`create invoice: ${res.status} ${res.raw.body}`);
  return res.body.operation_id;
}

/** Moving time: the payment was made at `at` (the API stamps the present; a search by time needs a past). */
async function madeAt(opId: string, at: string): Promise<void> {
  await t.runtime.deps.db.query('UPDATE operations SET created_at = $2 WHERE id = $1', [opId, new Date(at)]);
}

/** One page of the v2 list (API key) and of the cabinet list (JWT, test mode) for the same query. */
async function v2(m: Merchant, query: string) {
  return api(t.app, { apiKey: m.testKey }).get(`/v2/payments?${query}`);
}
async function cabinet(m: Merchant, query: string) {
  return api(t.app, m).get(`/me/payments?mode=test&${query}`);
}

/** The ids both lists find for `query` (they must agree), newest first, asserting a single page. */
async function found(m: Merchant, query: string): Promise<string[]> {
  const a = await v2(m, query);
  const b = await cabinet(m, query);
  expect(a.status, `${query}: ${a.raw.body}`).toBe(200);
  expect(b.status, `${query}: ${b.raw.body}`).toBe(200);
  const ids = (a.body as ListPage).data.map((p) => p.operation_id);
  expect(
    (b.body as ListPage).data.map((p) => p.operation_id),
    query,
  ).toEqual(ids);
  expect((a.body as ListPage).has_more).toBe(false);
  return ids;
}

const enc = encodeURIComponent;

describe('payments search: each filter and their combinations', () => {
  let m: Merchant;
  const ids = {} as Record<'coffee' | 'sale' | 'order' | 'plain' | 'late', string>;
  beforeAll(async () => {
    m = await newMerchant(t.app);
    ids.coffee = await qr(m, 1500, 'Столик 4 — КОФЕ с собой');
    ids.sale = await qr(m, 2500, '100% sale_x \\ back');
    ids.order = await invoice(m, 3000, '+7 701 234 56 78', 'Заказ 17');
    ids.plain = await invoice(m, 4500, '87779998877');
    ids.late = await qr(m, 2500, 'Latte');
    // Almaty (UTC+5) days: coffee on 10 January at 15:00, sale on 11 January at 01:00 (still the 10th in
    // UTC), order on the 11th at 12:00, plain on the 12th, late on the 20th.
    await madeAt(ids.coffee, '2026-01-10T10:00:00.000Z');
    await madeAt(ids.sale, '2026-01-10T20:00:00.000Z');
    await madeAt(ids.order, '2026-01-11T07:00:00.000Z');
    await madeAt(ids.plain, '2026-01-12T07:00:00.000Z');
    await madeAt(ids.late, '2026-01-20T07:00:00.000Z');
  });

  it('without filters: every payment, newest first (the lists as they were)', async () => {
    expect(await found(m, 'limit=100')).toEqual([ids.late, ids.plain, ids.order, ids.sale, ids.coffee]);
  });

  it('a time range in Almaty time, in any offset, both ends inclusive', async () => {
    const day10 = `created_from=${enc('2026-01-10T00:00:00+05:00')}&created_to=${enc('2026-01-10T23:59:59.999+05:00')}`;
    expect(await found(m, day10)).toEqual([ids.coffee]);
    const day11 = `created_from=${enc('2026-01-11T00:00:00+05:00')}&created_to=${enc('2026-01-11T23:59:59.999+05:00')}`;
    expect(await found(m, day11)).toEqual([ids.order, ids.sale]);
    // The same instants in UTC.
    expect(await found(m, 'created_from=2026-01-10T19:00:00Z&created_to=2026-01-11T18:59:59.999Z')).toEqual([
      ids.order,
      ids.sale,
    ]);
    // Inclusive ends: exactly the instant of a payment is in.
    expect(await found(m, 'created_from=2026-01-11T07:00:00Z&created_to=2026-01-11T07:00:00Z')).toEqual([ids.order]);
    // One end only.
    expect(await found(m, `created_from=${enc('2026-01-12T00:00:00+05:00')}`)).toEqual([ids.late, ids.plain]);
    expect(await found(m, `created_to=${enc('2026-01-10T23:59:59+05:00')}`)).toEqual([ids.coffee]);
    // An unencoded `+` arrives as a space; it can only be the offset's.
    expect(await found(m, 'created_from=2026-01-20T00:00:00+05:00')).toEqual([ids.late]);
  });

  it('an amount: exact, at least, at most, between', async () => {
    expect(await found(m, 'amount=2500')).toEqual([ids.late, ids.sale]);
    expect(await found(m, 'amount=2501')).toEqual([]);
    expect(await found(m, 'amount_min=3000')).toEqual([ids.plain, ids.order]);
    expect(await found(m, 'amount_max=2500')).toEqual([ids.late, ids.sale, ids.coffee]);
    expect(await found(m, 'amount_min=2500&amount_max=3000')).toEqual([ids.late, ids.order, ids.sale]);
    expect(await found(m, 'amount_min=2500&amount_max=2500')).toEqual([ids.late, ids.sale]);
  });

  it("a phone's last 4 to 10 digits, whatever spelling the invoice was given", async () => {
    expect(await found(m, 'phone_last=5678')).toEqual([ids.order]);
    expect(await found(m, 'phone_last=7012345678')).toEqual([ids.order]);
    expect(await found(m, 'phone_last=98877')).toEqual([ids.plain]);
    // Only the end of the number: digits from its middle find nothing.
    expect(await found(m, 'phone_last=2345')).toEqual([]);
  });

  it('a text over comment and id: any case, Cyrillic too, LIKE characters as themselves', async () => {
    expect(await found(m, `q=${enc('кофе')}`)).toEqual([ids.coffee]);
    expect(await found(m, `q=${enc('СТОЛИК')}`)).toEqual([ids.coffee]);
    expect(await found(m, `q=${enc('заказ 17')}`)).toEqual([ids.order]);
    expect(await found(m, `q=${enc('  latte ')}`)).toEqual([ids.late]);
    // % and _ match only themselves (unescaped, `%` would find every payment with a comment, `_` any letter).
    expect(await found(m, `q=${enc('%')}`)).toEqual([ids.sale]);
    expect(await found(m, `q=${enc('e_x')}`)).toEqual([ids.sale]);
    expect(await found(m, `q=${enc('e_')}`)).toEqual([ids.sale]);
    expect(await found(m, `q=${enc('\\')}`)).toEqual([ids.sale]);
    expect(await found(m, `q=${enc('x \\ b')}`)).toEqual([ids.sale]);
    // The operation id, in part and in any case.
    expect(await found(m, `q=${ids.order.slice(-10).toLowerCase()}`)).toEqual([ids.order]);
    expect(await found(m, `q=${ids.plain}`)).toEqual([ids.plain]);
    // An empty or blank text is no filter (a form's empty field).
    expect(await found(m, 'q=&limit=100')).toHaveLength(5);
    expect(await found(m, 'q=%20%20&limit=100')).toHaveLength(5);
  });

  it('filters combine (all must hold), with status and type', async () => {
    expect(await found(m, `amount_min=1000&q=${enc('заказ')}&phone_last=5678`)).toEqual([ids.order]);
    expect(await found(m, `amount_min=1000&q=${enc('заказ')}&phone_last=9999`)).toEqual([]);
    expect(await found(m, 'type=invoice&status=created&amount_max=3000')).toEqual([ids.order]);
    expect(await found(m, 'type=qr&amount=2500&created_to=2026-01-15T00:00:00Z')).toEqual([ids.sale]);
    expect(await found(m, `q=e&amount_min=2000&created_from=${enc('2026-01-11T00:00:00+05:00')}&type=qr`)).toEqual([
      ids.late,
      ids.sale,
    ]);
    expect(await found(m, 'status=paid&amount=2500')).toEqual([]);
  });
});

describe('payments search: cursor pages past 100', () => {
  it('pages a filtered search to its end, each payment once, in order, on both lists', async () => {
    const m = await newMerchant(t.app);
    // 130 payments that match (amount 700, "партия" in the comment) between 30 that do not: 700 without the
    // word, and the word with 800.
    const matching: string[] = [];
    for (let i = 0; i < 160; i++) {
      const kind = i % 16;
      if (kind === 5) await qr(m, 700, `заказ ${i}`);
      else if (kind === 11) await qr(m, 800, `Партия ${i}`);
      else matching.push(await qr(m, 700, `Партия ${i}`));
    }
    expect(matching).toHaveLength(140);
    const query = `amount=700&q=${enc('ПАРТИЯ')}`;
    for (const [list, limit] of [
      [v2, 100],
      [cabinet, 100],
      [cabinet, 30],
    ] as const) {
      const seen: string[] = [];
      const times: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await list(m, `${query}&limit=${limit}${cursor ? `&cursor=${enc(cursor)}` : ''}`);
        expect(res.status, res.raw.body).toBe(200);
        const p = res.body as ListPage;
        seen.push(...p.data.map((x) => x.operation_id));
        times.push(...p.data.map((x) => Date.parse(x.created_at)));
        expect(p.has_more).toBe(p.next_cursor !== null);
        cursor = p.next_cursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(Math.ceil(140 / limit));
      expect(new Set(seen).size).toBe(140);
      expect([...seen].sort()).toEqual([...matching].sort());
      // Newest first: times never increase; ties (the same millisecond) are ordered by id, descending.
      for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThanOrEqual(times[i - 1]);
    }
  }, 120_000);

  it('a cursor is bound to its list and its filters; a payment made meanwhile does not shift the pages', async () => {
    const m = await newMerchant(t.app);
    const made: string[] = [];
    for (let i = 0; i < 6; i++) made.push(await qr(m, 900, `ряд ${i}`));
    const first = (await cabinet(m, `amount=900&q=${enc('ряд')}&limit=3`)).body as ListPage;
    expect(first.data.map((p) => p.operation_id)).toEqual(made.slice(3).reverse());
    const cursor = enc(first.next_cursor!);
    // Another payment of the search is made: the next page goes on from where the first stopped.
    await qr(m, 900, 'ряд новый');
    const next = (await cabinet(m, `amount=900&q=${enc('ряд')}&limit=3&cursor=${cursor}`)).body as ListPage;
    expect(next.data.map((p) => p.operation_id)).toEqual(made.slice(0, 3).reverse());
    expect(next.has_more).toBe(false);
    // The same instant in another offset is the same filter: the cursor still fits.
    const from = (await cabinet(m, 'created_from=2020-01-01T05:00:00%2B05:00&limit=2')).body as ListPage;
    const sameFrom = await cabinet(m, `created_from=2020-01-01T00:00:00Z&limit=2&cursor=${enc(from.next_cursor!)}`);
    expect(sameFrom.status).toBe(200);
    // Any other filter, or the other list, refuses it.
    for (const other of [
      cabinet(m, `amount=901&q=${enc('ряд')}&limit=3&cursor=${cursor}`),
      cabinet(m, `amount=900&q=${enc('ряд2')}&limit=3&cursor=${cursor}`),
      cabinet(m, `amount=900&limit=3&cursor=${cursor}`),
      cabinet(m, `amount=900&q=${enc('ряд')}&phone_last=1234&limit=3&cursor=${cursor}`),
      v2(m, `amount=900&q=${enc('ряд')}&limit=3&cursor=${cursor}`),
    ]) {
      const res = await other;
      expect(res.status).toBe(400);
      expect(apiError(res)).toMatchObject({ code: 'invalid_cursor', param: 'cursor' });
    }
  });
});

describe('payments search: bad values', () => {
  const BAD: [string, string][] = [
    ['created_from=yesterday', 'created_from'],
    ['created_from=2026-01-10', 'created_from'],
    ['created_to=2026-01-10T10:00:00', 'created_to'],
    ['created_from=2026-02-30T00:00:00Z', 'created_from'],
    ['created_from=2026-01-10T24:00:00Z', 'created_from'],
    ['created_to=2026-01-10T10:00:00%2B15:00', 'created_to'],
    ['created_from=0000-01-01T00:00:00Z', 'created_from'],
    ['created_from=2026-01-11T00:00:00Z&created_to=2026-01-10T23:59:59Z', 'created_from'],
    ['amount=0', 'amount'],
    ['amount=abc', 'amount'],
    ['amount=1.5', 'amount'],
    ['amount=-5', 'amount'],
    ['amount=99999999999999999999', 'amount'],
    ['amount=500&amount_min=100', 'amount'],
    ['amount_min=600&amount_max=500', 'amount_min'],
    ['amount_max=x', 'amount_max'],
    ['phone_last=12ab', 'phone_last'],
    ['phone_last=%2B7701', 'phone_last'],
    ['phone_last=123', 'phone_last'],
    ['phone_last=12345678901', 'phone_last'],
    [`q=${'я'.repeat(101)}`, 'q'],
    ['q=a%00b', 'q'],
    ['q=a%0Ab', 'q'],
  ];

  it('answer 400 in the error envelope naming the parameter, on both lists and the export', async () => {
    const m = await newMerchant(t.app);
    for (const [query, param] of BAD) {
      for (const res of [
        await v2(m, query),
        await cabinet(m, query),
        await api(t.app, m).get(`/me/payments/export?mode=test&${query}`),
      ]) {
        expect(res.status, `${query}: ${res.raw.body}`).toBe(400);
        const e = apiError(res);
        expect(e.param, query).toBe(param);
        expect(e.code).toBe('invalid_parameter');
      }
    }
    const e = apiError(await v2(m, 'created_from=2026-01-11T00:00:00Z&created_to=2026-01-10T23:59:59Z'));
    expect(e.message).toBe('created_from is after created_to');
    expect(apiError(await cabinet(m, 'amount_min=600&amount_max=500')).message).toBe(
      'amount_min is more than amount_max',
    );
  });
});

describe('payments search: tenants and modes', () => {
  it("another client's payments never appear, whatever the search", async () => {
    const owner = await newMerchant(t.app);
    const other = await newMerchant(t.app);
    const secret = await invoice(owner, 4242, '87015554433', 'только мой заказ');
    await qr(other, 100, 'чужой');
    for (const query of [
      'amount=4242',
      'phone_last=4433',
      `q=${enc('только мой')}`,
      `q=${secret}`,
      'amount_min=1&amount_max=100000',
      'created_from=2000-01-01T00:00:00Z',
    ]) {
      for (const list of [v2, cabinet]) {
        const ids = ((await list(other, query)).body as ListPage).data.map((p) => p.operation_id);
        expect(ids, query).not.toContain(secret);
      }
      const csv = await api(t.app, other).get(`/me/payments/export?mode=test&${query}`);
      expect(csv.raw.body).not.toContain(secret);
    }
    expect(await found(owner, 'phone_last=4433')).toEqual([secret]);
    // The cabinet without ?mode=test reads live payments: the test payment is not there.
    const live = await api(t.app, owner).get('/me/payments?phone_last=4433');
    expect((live.body as ListPage).data).toEqual([]);
  });
});

describe('the CSV export of a search', () => {
  it('default form unchanged; excel-ru with a BOM, `;`, CRLF and Almaty time; the same filters', async () => {
    const m = await newMerchant(t.app);
    const a = await qr(m, 1200, 'Кофе; с молоком');
    const b = await qr(m, 3400, 'Чай');
    await madeAt(a, '2026-03-01T19:30:05.000Z');
    const plain = await api(t.app, m).get('/me/payments/export?mode=test');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(plain.raw.rawPayload[0]).toBe(0x6f); // "o" of operation_id: no BOM
    const rows = plain.raw.body.trim().split('\n');
    expect(rows[0]).toBe(
      'operation_id,type,status,amount,refunded_amount,comment,phone,sender_name,transaction_id,source,' +
        'created_at,paid_at',
    );
    expect(rows).toHaveLength(3);
    expect(rows[2]).toContain(',2026-03-01T19:30:05.000Z,');

    const excel = await api(t.app, m).get('/me/payments/export?mode=test&format=excel-ru');
    expect(excel.status).toBe(200);
    expect([...excel.raw.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = excel.raw.rawPayload.subarray(3).toString('utf8');
    const lines = text.split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe(
      'operation_id;type;status;amount;refunded_amount;comment;phone;sender_name;transaction_id;source;' +
        'created_at;paid_at',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1].startsWith(`${b};qr;created;3400;0;Чай;`)).toBe(true);
    // 19:30:05 UTC is 00:30:05 the next day in Almaty; a cell holding `;` is quoted.
    expect(lines[2]).toBe(`${a};qr;created;1200;0;"Кофе; с молоком";;;;api;02.03.2026 00:30:05;`);

    // The export takes the search's filters.
    const tea = await api(t.app, m).get(`/me/payments/export?mode=test&format=excel-ru&q=${enc('чай')}`);
    expect(tea.raw.rawPayload.subarray(3).toString('utf8').trim().split('\r\n')).toHaveLength(2);
    const range = await api(t.app, m).get(
      `/me/payments/export?mode=test&created_to=${enc('2026-03-02T23:59:59+05:00')}&amount=1200`,
    );
    expect(range.raw.body.trim().split('\n')).toEqual([rows[0], rows[2]]);
    const bad = await api(t.app, m).get('/me/payments/export?mode=test&format=xlsx');
    expect(bad.status).toBe(400);
    expect(apiError(bad).param).toBe('format');
  });
});

describe("a payment's refunds", () => {
  it('lists them newest first with amount, status and time; another client gets 404', async () => {
    const m = await newMerchant(t.app);
    const paid = await newPaidPayment(t.app, m.testKey, 5000);
    const client = api(t.app, m);
    const first = await client.post(`/me/payments/${paid.operation_id}/refund?mode=test`, {
      body: { amount: 1000, reason: 'сдача' },
    });
    const second = await client.post(`/me/payments/${paid.operation_id}/refund?mode=test`, { body: { amount: 1500 } });
    expect([first.status, second.status]).toEqual([201, 201]);
    const list = await client.get(`/me/payments/${paid.operation_id}/refunds?mode=test`);
    expect(list.status).toBe(200);
    expect(list.body.has_more).toBe(false);
    expect(list.body.data).toEqual([
      {
        refund_id: second.body.refund_id,
        operation_id: paid.operation_id,
        amount: 1500,
        status: 'completed',
        reason: null,
        items: null,
        created_at: second.body.created_at,
      },
      {
        refund_id: first.body.refund_id,
        operation_id: paid.operation_id,
        amount: 1000,
        status: 'completed',
        reason: 'сдача',
        items: null,
        created_at: first.body.created_at,
      },
    ]);
    const paged = await client.get(`/me/payments/${paid.operation_id}/refunds?mode=test&limit=1`);
    expect(paged.body.data.map((r) => r.refund_id)).toEqual([second.body.refund_id]);
    const rest = await client.get(
      `/me/payments/${paid.operation_id}/refunds?mode=test&limit=1&cursor=${enc(paged.body.next_cursor!)}`,
    );
    expect(rest.body.data.map((r) => r.refund_id)).toEqual([first.body.refund_id]);
    // A payment without refunds: an empty list.
    const none = await newPaidPayment(t.app, m.testKey, 700);
    expect((await client.get(`/me/payments/${none.operation_id}/refunds?mode=test`)).body.data).toEqual([]);
    const other = await newMerchant(t.app);
    const foreign = await api(t.app, other).get(`/me/payments/${paid.operation_id}/refunds?mode=test`);
    expect(foreign.status).toBe(404);
    expect(apiError(foreign).code).toBe('payment_not_found');
    // The owner in live mode: the test payment is not there either.
    expect((await client.get(`/me/payments/${paid.operation_id}/refunds`)).status).toBe(404);
  });
});
