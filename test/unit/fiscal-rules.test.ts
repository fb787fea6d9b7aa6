// The pure rules of fiscal receipts (decisions 27): when a shift must close, and what a receipt lists.
import { describe, expect, it } from 'vitest';
import { closeShiftsOpenedBefore, lastDailyClose, SHIFT_MAX_MS } from '../../src/domain/fiscal/shift-rule.ts';
import { returnLines, saleLines, singleLine } from '../../src/domain/fiscal/lines.ts';
import { vatInsideTiyn } from '../../src/fiscal/types.ts';
import { backoffMs } from '../../src/domain/fiscal/send.ts';

const at = { hour: 23, minute: 50 };

describe('the shift rule', () => {
  it("the day's close is 23:50 Almaty time (18:50 UTC), the latest one not after now", () => {
    expect(lastDailyClose(new Date('2026-11-27T19:00:00Z'), at).toISOString()).toBe('2026-11-27T18:50:00.000Z');
    expect(lastDailyClose(new Date('2026-11-27T18:49:59Z'), at).toISOString()).toBe('2026-11-26T18:50:00.000Z');
    expect(lastDailyClose(new Date('2026-11-27T18:50:00Z'), at).toISOString()).toBe('2026-11-27T18:50:00.000Z');
    // After local midnight (19:00 UTC is 00:00 in Almaty) the last close is still the previous local day's.
    expect(lastDailyClose(new Date('2026-11-27T20:30:00Z'), at).toISOString()).toBe('2026-11-27T18:50:00.000Z');
    expect(lastDailyClose(new Date('2026-11-27T03:00:00Z'), { hour: 6, minute: 0 }).toISOString()).toBe(
      '2026-11-27T01:00:00.000Z',
    );
  });

  it('a shift closes at the daily close, or 23 h 50 min after it opened when that comes first', () => {
    const now = new Date('2026-11-27T19:00:00Z');
    // Opened this morning: before the close that just passed, so due.
    expect(closeShiftsOpenedBefore(now, at).toISOString()).toBe('2026-11-27T18:50:00.000Z');
    // Just before the close: the day's close is 23:50 ago, the 24-hour guard only 23:50 before now.
    const early = new Date('2026-11-27T18:40:00Z');
    expect(closeShiftsOpenedBefore(early, at).getTime()).toBe(early.getTime() - SHIFT_MAX_MS);
    expect(SHIFT_MAX_MS).toBeLessThan(24 * 3600_000);
  });
});

describe('receipt lines', () => {
  const reg = { vat_payer: true, vat_rate_bps: 1600, default_item_name: 'Оплата', section_code: null };

  it('items that add up become the lines; a VAT payer fills the rate; a non-payer has none', () => {
    const items = [
      { name: 'Кофе', price: 1000, quantity: 2 },
      { name: 'Книга', price: 500, vat_rate_bps: 0 },
    ];
    expect(saleLines(2500, items, null, reg).map((l) => [l.name, l.total, l.vatRateBps, l.unitCode])).toEqual([
      ['Кофе', 2000, 1600, 796],
      ['Книга', 500, 0, 796],
    ]);
    expect(saleLines(2500, items, null, { ...reg, vat_payer: false }).map((l) => l.vatRateBps)).toEqual([null, null]);
  });

  it("items that do not add up, or none, become one line of the register's name and the comment", () => {
    expect(saleLines(900, [{ name: 'x', price: 100 }], ' Стол 4 ', reg)).toEqual([singleLine(900, 'Стол 4', reg)]);
    expect(saleLines(900, null, null, reg)[0]).toMatchObject({ name: 'Оплата', price: 900, quantity: 1, total: 900 });
    expect(saleLines(900, null, 'x'.repeat(300), reg)[0].name).toHaveLength(128);
  });

  it("a return lists the refund's lines, else one item at the refunded amount, else one line", () => {
    const sale = { items: [{ name: 'Кофе', price: 1000, quantity: 2, ntin: '123' }], comment: null };
    expect(returnLines(1000, [{ name: 'Кофе', price: 1000, quantity: 1 }], sale, reg)[0]).toMatchObject({
      name: 'Кофе',
      quantity: 1,
      total: 1000,
    });
    expect(returnLines(700, null, sale, reg)[0]).toMatchObject({ name: 'Кофе', price: 700, total: 700, ntin: '123' });
    const two = { items: [...sale.items, { name: 'Чай', price: 500 }], comment: 'Стол 2' };
    expect(returnLines(700, null, two, reg)[0]).toMatchObject({ name: 'Оплата: Стол 2', total: 700 });
  });

  it('VAT inside a price, in tiyn: 16% of 1,160 is 160; 12% of 500 is 53.57', () => {
    expect(vatInsideTiyn(1160, 1600)).toBe(16_000);
    expect(vatInsideTiyn(500, 1200)).toBe(5357);
    expect(vatInsideTiyn(1000, 0)).toBe(0);
  });

  it('back-off: 5 s doubling to an hour', () => {
    expect([0, 1, 2, 3].map(backoffMs)).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(backoffMs(20)).toBe(3_600_000);
  });
});
