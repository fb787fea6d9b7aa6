// What a receipt lists (decisions 27): the operation's items, each with its unit, codes, VAT and kind, or
// one line when it has none (the register's default name, the comment after it); a return lists the refund's
// lines, or one line of its amount. Pure: the register's settings and the stored items in, lines out.
import type { FiscalLine, PositionType } from '../../fiscal/types.ts';

/** What a receipt is made with: the register's settings that shape the lines. */
export interface LineSettings {
  vat_payer: boolean;
  vat_rate_bps: number;
  default_item_name: string;
  section_code: string | null;
}

/** An item as operations and refunds store it (older rows carry only name, price and quantity). */
export interface StoredItem {
  name: string;
  price: number;
  quantity?: number;
  unit_code?: number;
  ntin?: string | null;
  gtin?: string | null;
  vat_rate_bps?: number | null;
  section_code?: string | null;
  position_type?: PositionType;
}

/** Receipts name a line in at most 128 characters (every service's rule; longer is refused, not cut). */
export const LINE_NAME_MAX = 128;

function line(item: StoredItem, s: LineSettings): FiscalLine {
  const quantity = item.quantity ?? 1;
  return {
    name: item.name.slice(0, LINE_NAME_MAX),
    price: item.price,
    quantity,
    total: item.price * quantity,
    unitCode: item.unit_code ?? 796,
    sectionCode: item.section_code ?? s.section_code,
    ntin: item.ntin ?? null,
    gtin: item.gtin ?? null,
    // A seller outside VAT prints none, whatever the item says; a VAT payer's item without a rate takes the
    // register's.
    vatRateBps: s.vat_payer ? (item.vat_rate_bps ?? s.vat_rate_bps) : null,
    positionType: item.position_type ?? 'goods',
  };
}

/** One line for an amount: the register's default name, with the operation's comment when there is one. */
export function singleLine(amount: number, comment: string | null, s: LineSettings): FiscalLine {
  const name = comment?.trim() ? `${s.default_item_name}: ${comment.trim()}` : s.default_item_name;
  return line({ name, price: amount, quantity: 1 }, s);
}

/** The lines of a sale: its items when they add up to the amount (the sum rule), else one line. */
export function saleLines(amount: number, items: unknown, comment: string | null, s: LineSettings): FiscalLine[] {
  const list = Array.isArray(items) ? (items as StoredItem[]) : [];
  const lines = list.map((i) => line(i, s));
  if (lines.length && lines.reduce((t, l) => t + l.total, 0) === amount) return lines;
  return [singleLine(amount, comment, s)];
}

/**
 * The lines of a return: the refund's own lines when it named items (refunds by items), else one line of
 * its amount, named as the sale's single line or its first item when the sale had one item.
 */
export function returnLines(
  amount: number,
  refundItems: unknown,
  sale: { items: unknown; comment: string | null },
  s: LineSettings,
): FiscalLine[] {
  const named = Array.isArray(refundItems) ? (refundItems as StoredItem[]) : [];
  if (named.length) {
    const lines = named.map((i) => line(i, s));
    if (lines.reduce((t, l) => t + l.total, 0) === amount) return lines;
  }
  const saleItems = Array.isArray(sale.items) ? (sale.items as StoredItem[]) : [];
  if (saleItems.length === 1) return [line({ ...saleItems[0], price: amount, quantity: 1 }, s)];
  return [singleLine(amount, sale.comment, s)];
}

/** The receipt's items as the API shows them: the lines, with the VAT inside each in tenge. */
export function itemsOf(lines: FiscalLine[]) {
  return lines.map((l) => ({
    name: l.name,
    price: l.price,
    quantity: l.quantity,
    total: l.total,
    unit_code: l.unitCode,
    ntin: l.ntin,
    gtin: l.gtin,
    vat_rate_bps: l.vatRateBps,
    section_code: l.sectionCode,
    position_type: l.positionType,
  }));
}

/** The stored items back as lines (the receipt keeps what it was made with; a resend sends the same). */
export function linesOf(items: ReturnType<typeof itemsOf>): FiscalLine[] {
  return items.map((i) => ({
    name: i.name,
    price: i.price,
    quantity: i.quantity,
    total: i.total,
    unitCode: i.unit_code,
    ntin: i.ntin,
    gtin: i.gtin,
    vatRateBps: i.vat_rate_bps,
    sectionCode: i.section_code,
    positionType: i.position_type,
  }));
}
