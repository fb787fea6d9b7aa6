// Rows created within one millisecond must all be paged. A cursor carries its position as a JS Date
// (milliseconds); had a row kept a microsecond tail, the next page's `(created_at, id) < (cursor)` would
// skip the rows of that millisecond that sort after it. The rows' times are set below the API to the
// microseconds that concurrent creations get from now().
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { idem, idsOf, key, newMerchant, type Merchant } from '../helpers/factories.ts';
import { newRegister } from '../helpers/fiscal.ts';
import { createQr, pay } from '../helpers/payments.ts';
import { createLink } from '../links/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** Gives the rows `ids` (a column of `table`) times within one millisecond, in the order given. */
async function sameMillisecond(table: string, column: string, ids: string[]): Promise<void> {
  const times = ['2026-11-20 10:00:00.123900+00', '2026-11-20 10:00:00.123600+00', '2026-11-20 10:00:00.123300+00'];
  for (const [i, id] of ids.entries()) {
    await t.runtime.deps.db.query(`UPDATE ${table} SET created_at = $1 WHERE ${column} = $2`, [times[i], id]);
  }
}

/** Every item of a list, one per page. */
async function pageByOne(m: Merchant, path: string, idOf: (item: Record<string, string>) => string): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const url: string = `${path}?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = (await t.app.inject({ method: 'GET', url, headers: key(m.testKey) })).json();
    seen.push(...page.data.map(idOf));
    cursor = page.next_cursor;
  } while (cursor && seen.length < 10);
  return seen;
}

describe('lists page through rows of one millisecond', () => {
  it('payments', async () => {
    const m = await newMerchant(t.app);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createQr(t.app, m.testKey)).operation_id);
    // Descending time against ascending id: the newest row has the smallest id.
    await sameMillisecond('operations', 'id', ids);
    const seen = await pageByOne(m, '/v2/payments', (p) => p.operation_id);
    expect([...seen].sort()).toEqual([...ids].sort());
  });

  it('events', async () => {
    const m = await newMerchant(t.app);
    for (let i = 0; i < 3; i++) await pay(t.app, m.testKey, (await createQr(t.app, m.testKey)).operation_id);
    const events = (await t.app.inject({ method: 'GET', url: '/v2/events', headers: key(m.testKey) }))
      .json()
      .data.map((e: { id: string }) => e.id);
    expect(events).toHaveLength(3);
    await sameMillisecond('events', 'id', [...events].sort());
    const seen = await pageByOne(m, '/v2/events', (e) => e.id);
    expect([...seen].sort()).toEqual([...events].sort());
  });

  it('payment links', async () => {
    const m = await newMerchant(t.app);
    const tokens: string[] = [];
    for (let i = 0; i < 3; i++) tokens.push((await createLink(t.app, m.testKey)).token);
    await sameMillisecond('payment_links', 'token', [...tokens].sort());
    const seen = await pageByOne(m, '/v2/payment-links', (l) => l.token);
    expect([...seen].sort()).toEqual([...tokens].sort());
  });

  it('fiscal receipts and catalog items', async () => {
    const m = await newMerchant(t.app);
    await newRegister(t, m);
    for (let i = 0; i < 3; i++) await pay(t.app, m.testKey, (await createQr(t.app, m.testKey)).operation_id);
    const receipts = (await t.app.inject({ method: 'GET', url: '/v2/receipts', headers: key(m.testKey) }))
      .json()
      .data.map((r: { id: string }) => r.id);
    expect(receipts).toHaveLength(3);
    await sameMillisecond('fiscal_receipts', 'id', [...receipts].sort());
    expect((await pageByOne(m, '/v2/receipts', (r) => r.id)).sort()).toEqual([...receipts].sort());
    const items: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/catalog/items',
        headers: { ...key(m.testKey), ...idem() },
        payload: { name: `Товар ${i}`, price: 100 },
      });
      items.push(res.json().id);
    }
    await sameMillisecond('catalog_items', 'id', [...items].sort());
    expect((await pageByOne(m, '/v2/catalog/items', (r) => r.id)).sort()).toEqual([...items].sort());
  });
});

describe('created_at is cut to the millisecond, not rounded', () => {
  // Rounding would put about half the rows' created_at up to 1 ms after the updated_at (and before the
  // expires_at) written in the same statement: a link's shown TTL would be 1 ms short. Ten rows each
  // make a pass by luck a one-in-a-million event.
  it('never after the times written with it', async () => {
    const m = await newMerchant(t.app);
    for (let i = 0; i < 10; i++) {
      const link = await createLink(t.app, m.testKey, { expires_in_minutes: 5 });
      expect(new Date(link.expires_at).getTime() - new Date(link.created_at).getTime()).toBe(5 * 60_000);
      await createQr(t.app, m.testKey);
    }
    const { clientId } = await idsOf(t.runtime.deps.db, m);
    const { rows } = await t.runtime.deps.db.query<{ links: number; ops: number }>(
      `SELECT (SELECT count(*)::int FROM payment_links WHERE client_id = $1 AND created_at > updated_at) AS links,
              (SELECT count(*)::int FROM operations WHERE client_id = $1 AND created_at > updated_at) AS ops`,
      [clientId],
    );
    expect(rows[0]).toEqual({ links: 0, ops: 0 });
  });
});
