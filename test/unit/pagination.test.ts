// Cursor signing and binding, and limit parsing.
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, fetchSize, page, parseLimit } from '../../src/domain/pagination.ts';
import { AppError } from '../../src/errors.ts';
import { safeCell } from '../../src/domain/payments/export.ts';
import { normalizePhone } from '../../src/domain/payments/input.ts';
import { resolveItems } from '../../src/domain/payments/line-items.ts';
import type { Queryable } from '../../src/db/db.ts';

const pos = { createdAt: new Date('2026-11-22T07:54:33.123Z'), id: 'op_01J' };
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as AppError).code;
  }
  return 'ok';
};

describe('cursors', () => {
  it('round-trip', () => {
    const c = encodeCursor('s', 'v2.payments', { mode: 'test', status: 'paid' }, pos);
    expect(decodeCursor('s', 'v2.payments', { status: 'paid', mode: 'test' }, c)).toEqual(pos);
  });
  it('refuse another secret, endpoint, filter set, or any edit', () => {
    const c = encodeCursor('s', 'v2.payments', { mode: 'test' }, pos);
    expect(code(() => decodeCursor('other', 'v2.payments', { mode: 'test' }, c))).toBe('invalid_cursor');
    expect(code(() => decodeCursor('s', 'v2.events', { mode: 'test' }, c))).toBe('invalid_cursor');
    expect(code(() => decodeCursor('s', 'v2.payments', { mode: 'live' }, c))).toBe('invalid_cursor');
    expect(code(() => decodeCursor('s', 'v2.payments', { mode: 'test', type: 'qr' }, c))).toBe('invalid_cursor');
    expect(code(() => decodeCursor('s', 'v2.payments', { mode: 'test' }, c.replace(/^./, 'x')))).toBe('invalid_cursor');
    expect(code(() => decodeCursor('s', 'v2.payments', { mode: 'test' }, `${c}.x`))).toBe('invalid_cursor');
  });
  it('a filter value cannot pass for other filters (values are escaped in what is signed)', () => {
    // /v2/events?operation_id=op_A&since=... and /v2/events?operation_id=op_A%26since%3D... are different lists.
    const since = '2026-01-01T00:00:00.000Z';
    const c = encodeCursor('s', 'v2.events', { mode: 'test', op: 'op_A', since }, pos);
    expect(code(() => decodeCursor('s', 'v2.events', { mode: 'test', op: `op_A&since=${since}` }, c))).toBe(
      'invalid_cursor',
    );
    const d = encodeCursor('s', 'v2.events', { mode: 'test', op: `op_A&since=${since}` }, pos);
    expect(code(() => decodeCursor('s', 'v2.events', { mode: 'test', op: 'op_A', since }, d))).toBe('invalid_cursor');
  });
});

describe('limits', () => {
  it('default, bounds and codes', () => {
    expect(parseLimit(undefined)).toBe(20);
    expect(parseLimit(100)).toBe(100);
    expect(code(() => parseLimit(0))).toBe('invalid_limit');
    expect(code(() => parseLimit(2.5))).toBe('invalid_limit');
    expect(code(() => parseLimit(101))).toBe('limit_too_large');
    expect(parseLimit(undefined, 50, 200)).toBe(50);
    expect(code(() => parseLimit(201, 50, 200))).toBe('limit_too_large');
  });
});

describe('page fetch sizes', () => {
  it('round up to a few literal sizes, so a list statement has few texts', () => {
    expect([1, 11, 12, 21, 22, 51, 52, 101].map(fetchSize)).toEqual([11, 11, 21, 21, 51, 51, 101, 101]);
    expect(fetchSize(201)).toBe(201);
    expect(() => fetchSize(0)).toThrow();
    expect(() => fetchSize(1.5)).toThrow();
  });
  it('page() keeps the page to its limit when more rows were fetched', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({
      id: `op_${30 - i}`,
      created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, 30 - i)),
    }));
    const opts = { secret: 's', endpoint: 'v2.payments', filters: {}, limit: 7 };
    const asked: number[] = [];
    const first = await page(
      opts,
      async (_after, n) => (asked.push(n), rows.slice(0, n)),
      (r) => r.id,
    );
    expect(asked).toEqual([11]);
    expect(first.data.map((r) => r.id)).toEqual(rows.slice(0, 7).map((r) => r.id));
    expect(first.has_more).toBe(true);
    expect(decodeCursor('s', 'v2.payments', {}, first.next_cursor!)).toEqual({
      id: 'op_24',
      createdAt: rows[6].created_at,
    });
    const last = await page(
      opts,
      async () => rows.slice(0, 7),
      (r) => r.id,
    );
    expect([last.data.length, last.has_more, last.next_cursor]).toEqual([7, false, null]);
  });
});

describe('small rules', () => {
  it('CSV cells that a spreadsheet would run are neutralised', () => {
    for (const s of ['=1+1', '+7', '-2', '@SUM(A1)', '\tx', '\rx']) expect(safeCell(s).startsWith("'")).toBe(true);
    expect(safeCell('Кофе')).toBe('Кофе');
    expect(safeCell(null)).toBe('');
  });
  it('phones and items', async () => {
    expect(normalizePhone('8 (701) 234-56-78')).toBe('+77012345678');
    expect(code(() => normalizePhone('+1 202 555 0100'))).toBe('invalid_phone');
    // Items that name no catalog item never read the store.
    const noDb = {
      query: () => {
        throw new Error('the catalog was read');
      },
    } as unknown as Queryable;
    const tenant = { clientId: 1, mode: 'test' as const };
    expect(await resolveItems(noDb, tenant, [{ name: 'a', price: 50, quantity: 2 }], 100, 1000)).toEqual([
      {
        name: 'a',
        price: 50,
        quantity: 2,
        unit_code: 796,
        ntin: null,
        gtin: null,
        vat_rate_bps: null,
        section_code: null,
        position_type: 'goods',
        catalog_item_id: null,
      },
    ]);
    await expect(resolveItems(noDb, tenant, [{ name: 'a', price: 50 }], 100, 1000)).rejects.toMatchObject({
      code: 'invalid_parameter',
      param: 'items',
    });
  });
});
