// Refunds by items (decisions 27): lines of the payment by index and quantity; the amount is their sum;
// a line is returned at most as many times as it was sold over all refunds that have not failed, also when
// two refunds race; the refund shows its lines. Refunds by amount stay as they were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, idem, key, newMerchant, type Merchant } from '../helpers/factories.ts';
import { createQr, pay } from '../helpers/payments.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const ITEMS = [
  { name: 'Кофе', price: 1000, quantity: 3, gtin: '4006381333931' },
  { name: 'Торт', price: 2500, quantity: 1, vat_rate_bps: 1200 },
];
const TOTAL = 1000 * 3 + 2500;

async function paidWithItems(m: Merchant) {
  const qr = await createQr(t.app, m.testKey, TOTAL, { items: ITEMS });
  await pay(t.app, m.testKey, qr.operation_id);
  return qr.operation_id;
}

const refund = (m: Merchant, body: object) =>
  t.app.inject({ method: 'POST', url: '/v2/refunds', headers: { ...key(m.testKey), ...idem() }, payload: body });

describe('refunds by items', () => {
  it('refunds exactly the lines named, their sum as the amount, and shows them on the refund', async () => {
    const m = await newMerchant(t.app);
    const op = await paidWithItems(m);
    const res = await refund(m, { operation_id: op, items: [{ index: 0, quantity: 2 }] });
    expect(res.statusCode).toBe(201);
    const coffee = {
      index: 0,
      name: 'Кофе',
      price: 1000,
      quantity: 2,
      unit_code: 796,
      ntin: null,
      gtin: '4006381333931',
      vat_rate_bps: null,
      section_code: null,
      position_type: 'goods',
      catalog_item_id: null,
    };
    expect(res.json()).toMatchObject({ amount: 2000, status: 'completed', remaining_refundable: TOTAL - 2000 });
    expect(res.json().items).toEqual([coffee]);
    // amount given with items must be their sum.
    const wrong = await refund(m, { operation_id: op, amount: 2400, items: [{ index: 1, quantity: 1 }] });
    expect(errorOf(wrong)).toMatchObject({ code: 'invalid_parameter', param: 'amount' });
    const cake = await refund(m, { operation_id: op, amount: 2500, items: [{ index: 1, quantity: 1 }] });
    expect(cake.json()).toMatchObject({ amount: 2500, items: [{ index: 1, name: 'Торт', vat_rate_bps: 1200 }] });
    // The refunds list shows the lines; a refund by amount shows null.
    const byAmount = await refund(m, { operation_id: op, amount: 500 });
    expect(byAmount.json().items).toBeNull();
    const list = await t.app.inject({
      method: 'GET',
      url: `/me/payments/${op}/refunds?mode=test`,
      headers: bearer(m),
    });
    expect(
      list.json().data.map((r: { items: { index: number }[] | null }) => r.items?.map((l) => l.index) ?? null),
    ).toEqual([null, [1], [0]]);
    expect(list.json().data[2].items).toEqual([coffee]);
  });

  it('refuses a line that does not exist, is named twice, or is returned more than sold', async () => {
    const m = await newMerchant(t.app);
    const op = await paidWithItems(m);
    const refused = async (items: object[], param: string) => {
      const res = await refund(m, { operation_id: op, items });
      expect(errorOf(res), JSON.stringify(items)).toMatchObject({ code: 'invalid_parameter', param });
    };
    await refused([{ index: 2, quantity: 1 }], 'items.0.index');
    await refused(
      [
        { index: 0, quantity: 1 },
        { index: 0, quantity: 1 },
      ],
      'items.1.index',
    );
    await refused([{ index: 1, quantity: 2 }], 'items.0.quantity');
    expect((await refund(m, { operation_id: op, items: [{ index: 0, quantity: 2 }] })).statusCode).toBe(201);
    // Two of three coffees are back: two more would be four.
    await refused([{ index: 0, quantity: 2 }], 'items.0.quantity');
    // Refused attempts reserved nothing: the rest is still refundable, line by line.
    const last = await refund(m, {
      operation_id: op,
      items: [
        { index: 0, quantity: 1 },
        { index: 1, quantity: 1 },
      ],
    });
    expect(last.json()).toMatchObject({ amount: 3500, remaining_refundable: 0 });
    // A payment without items is refunded by amount only.
    const plain = await createQr(t.app, m.testKey, 700);
    await pay(t.app, m.testKey, plain.operation_id);
    const none = await refund(m, { operation_id: plain.operation_id, items: [{ index: 0, quantity: 1 }] });
    expect(errorOf(none)).toMatchObject({ code: 'invalid_parameter', param: 'items' });
    // v2 still needs an amount when no items are named.
    const bare = await refund(m, { operation_id: plain.operation_id });
    expect(errorOf(bare)).toMatchObject({ code: 'invalid_parameter', param: 'amount' });
  });

  it('a failed refund gives its lines back', async () => {
    const m = await newMerchant(t.app);
    const op = await paidWithItems(m);
    const first = await refund(m, { operation_id: op, items: [{ index: 1, quantity: 1 }] });
    // The provider turned it down afterwards (what the settle path records for a refused refund).
    await t.runtime.deps.db.query(`UPDATE refunds SET status = 'failed' WHERE id = $1`, [first.json().refund_id]);
    await t.runtime.deps.db.query(`UPDATE operations SET refunded_amount = refunded_amount - 2500 WHERE id = $1`, [op]);
    expect((await refund(m, { operation_id: op, items: [{ index: 1, quantity: 1 }] })).statusCode).toBe(201);
  });

  it('two refunds of the same last line at once: one wins, the other is refused, nothing is lost', async () => {
    const m = await newMerchant(t.app);
    const op = await paidWithItems(m);
    const body = { operation_id: op, items: [{ index: 1, quantity: 1 }] };
    const both = await Promise.all([refund(m, body), refund(m, body)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 400]);
    expect(errorOf(both.find((r) => r.statusCode === 400)!)).toMatchObject({
      code: 'invalid_parameter',
      param: 'items.0.quantity',
    });
    const row = await t.runtime.deps.db.query<{ refunded_amount: number; n: number }>(
      `SELECT o.refunded_amount, (SELECT count(*)::int FROM refunds r WHERE r.operation_id = o.id) AS n
         FROM operations o WHERE o.id = $1`,
      [op],
    );
    expect(row.rows[0]).toEqual({ refunded_amount: 2500, n: 1 });
  });

  it('the cabinet refunds by items too, the amount being their sum', async () => {
    const m = await newMerchant(t.app);
    const op = await paidWithItems(m);
    const res = await t.app.inject({
      method: 'POST',
      url: `/me/payments/${op}/refund?mode=test`,
      headers: bearer(m),
      payload: { items: [{ index: 0, quantity: 3 }] },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ amount: 3000, items: [{ index: 0, quantity: 3 }] });
    // The rest by amount alone, as before.
    const rest = await t.app.inject({
      method: 'POST',
      url: `/me/payments/${op}/refund?mode=test`,
      headers: bearer(m),
      payload: {},
    });
    expect(rest.json()).toMatchObject({ amount: 2500, items: null, remaining_refundable: 0 });
  });
});
