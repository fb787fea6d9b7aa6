// A reKassa ticket body (research section 2) read into a draft: money as {bills, coins}, quantities in
// thousandths, VAT percent × 1000, payments by name, the sale a return names in parentTicket.
import { ALMATY_OFFSET_MS, readDate } from './dates.ts';
import type { Basis, Draft, DraftLine, PaymentType, ReceiptKind } from './draft.ts';
import { field, isObj, text, type Obj } from './jsonc.ts';

export const KIND_OF: Record<string, ReceiptKind> = {
  OPERATION_SELL: 'sale',
  OPERATION_SELL_RETURN: 'sale_return',
  OPERATION_BUY: 'buy',
  OPERATION_BUY_RETURN: 'buy_return',
};
export const PAYMENT_OF: Record<string, PaymentType> = { PAYMENT_CASH: 0, PAYMENT_CARD: 1, PAYMENT_MOBILE: 4 };

class Invalid extends Error {}

/** {bills, coins} as tiyn. */
export function money(v: unknown, what: string): number {
  if (!isObj(v)) throw new Invalid(`${what} must be {bills, coins}`);
  const bills = v.bills === '' ? NaN : Number(v.bills ?? 0);
  const coins = v.coins === '' ? NaN : Number(v.coins ?? 0);
  if (!Number.isInteger(bills) || bills < 0) throw new Invalid(`${what}.bills must be a whole number of tenge ≥ 0`);
  if (!Number.isInteger(coins) || coins < 0 || coins > 99) throw new Invalid(`${what}.coins must be 0 to 99`);
  return bills * 100 + coins;
}

export const toMoney = (tiyn: number) => ({ bills: Math.trunc(tiyn / 100), coins: tiyn % 100 });

/** {date:{year,month,day}, time:{hour,minute,second}} in Almaty time, as an instant; NaN if unreadable. */
export function instant(v: unknown): number {
  if (typeof v === 'string') return readDate(v);
  if (!isObj(v) || !isObj(v.date)) return NaN;
  const d = v.date;
  const t = isObj(v.time) ? v.time : {};
  const ms = Date.UTC(
    Number(d.year),
    Number(d.month) - 1,
    Number(d.day),
    Number(t.hour ?? 0),
    Number(t.minute ?? 0),
    Number(t.second ?? 0),
  );
  return ms - ALMATY_OFFSET_MS;
}

function line(item: unknown, i: number, positionType: number | null): DraftLine {
  const at = `items[${i}]`;
  if (!isObj(item) || !isObj(item.commodity)) throw new Invalid(`${at} must be {type, commodity}`);
  const c = item.commodity;
  // Numbers may come as strings: PHP clients send "bills": "500" and "year": "2026" (research RK1).
  const quantityMilli = Number(c.quantity);
  if (!Number.isInteger(quantityMilli) || quantityMilli <= 0)
    throw new Invalid(`${at}.commodity.quantity must be a whole number of thousandths above 0`);
  const priceTiyn = money(c.price, `${at}.commodity.price`);
  const sumTiyn = money(c.sum, `${at}.commodity.sum`);
  const expected = Math.round((quantityMilli * priceTiyn) / 1000);
  if (sumTiyn !== expected) throw new Invalid(`${at}.commodity.sum is not quantity × price`);
  const taxes = Array.isArray(c.taxes) ? c.taxes : [];
  const vat = taxes.find((t) => isObj(t) && Number(t.taxType) === 100) as Obj | undefined;
  const stamp = text(c, 'exciseStamp');
  return {
    name: typeof c.name === 'string' ? c.name : '',
    code: null,
    quantityMilli,
    priceTiyn,
    discountTiyn: 0,
    markupTiyn: 0,
    sumTiyn,
    vatPercent: vat ? Number(vat.percent) / 1000 : null,
    taxTiyn: vat ? money(vat.sum, `${at}.commodity.taxes.sum`) : 0,
    unitCode: Number(c.measureUnitCode ?? 796),
    sectionCode: text(c, 'sectionCode') ?? null,
    ntin: text(c, 'ntin') || null,
    gtin: text(c, 'barcode') || null,
    positionType,
    marks: stamp ? [stamp] : [],
  };
}

function basis(p: unknown): Basis | null {
  if (!isObj(p)) return null;
  const total = p.parentTicketTotal;
  return {
    fiscalSign: text(p, 'parentTicketNumber') ?? '',
    registrationNumber: text(p, 'kgdKkmId') ?? '',
    at: instant(p.parentTicketDataTime ?? p.parentTicketDateTime),
    totalTiyn: typeof total === 'number' ? Math.round(total * 100) : money(total, 'parentTicketTotal'),
    offline: p.parentTicketIsOffline === true,
  };
}

export interface TicketRequest {
  draft: Draft;
  /** the dateTime the client stamped, as an instant */
  at: number;
  totalTiyn: number;
}

/** The draft of a ticket body, or what is wrong with it. */
export function readTicket(b: Obj): TicketRequest | string {
  try {
    const kind = KIND_OF[String(b.operation)];
    if (!kind) throw new Invalid(`operation must be one of ${Object.keys(KIND_OF).join(', ')}`);
    if (!Array.isArray(b.items)) throw new Invalid('items must be a list');
    if (!Array.isArray(b.payments)) throw new Invalid('payments must be a list');
    if (!isObj(b.amounts)) throw new Invalid('amounts must be {total, taken, change}');
    // The flag of protocol 2.0.4 (goods, work, service) follows the ticket's domain.
    const domain = isObj(b.domain) ? b.domain.type : undefined;
    const positionType = domain === 'DOMAIN_TRADING' ? 0 : domain === 'DOMAIN_SERVICES' ? 2 : null;
    const ext = isObj(b.extensionOptions) ? b.extensionOptions : {};
    const draft: Draft = {
      kind,
      lines: b.items.map((it, i) => line(it, i, positionType)),
      modifiers: [],
      payments: b.payments.map((p, i) => {
        const type = PAYMENT_OF[String(field(p, 'type'))];
        if (type === undefined)
          throw new Invalid(`payments[${i}].type must be PAYMENT_CASH, PAYMENT_CARD or PAYMENT_MOBILE`);
        return { type, sumTiyn: money(field(p, 'sum'), `payments[${i}].sum`) };
      }),
      changeTiyn: b.amounts.change == null ? null : money(b.amounts.change, 'amounts.change'),
      basis: kind === 'sale_return' || kind === 'buy_return' ? basis(b.parentTicket) : null,
      customerEmail: text(ext, 'customer_email') ?? null,
      customerPhone: text(ext, 'customer_phone') ?? null,
      externalOrderNumber: null,
    };
    return { draft, at: instant(b.dateTime), totalTiyn: money(b.amounts.total, 'amounts.total') };
  } catch (err) {
    if (err instanceof Invalid) return err.message;
    throw err;
  }
}
