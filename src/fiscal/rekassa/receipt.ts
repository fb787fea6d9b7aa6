// Tolem's receipt as reKassa's POST /api/crs/{id}/tickets body, and reKassa's tickets as the port's shapes
// (research section 2). Money is {bills: whole tenge, coins: tiyn}, quantities in thousandths, VAT
// percents ×1000: all made from integers, so no binary fraction ever reaches a receipt.
import { createHash } from 'node:crypto';
import { almatyParts, fromAlmatyParts, parseServiceTime } from '../almaty.ts';
import {
  type FiscalLine,
  type FiscalOfd,
  type FiscalReceiptRequest,
  type IssuedFiscalReceipt,
  vatInsideTiyn,
} from '../types.ts';

export interface Money {
  bills: number;
  coins: number;
}

export const OPERATION = { sale: 'OPERATION_SELL', return: 'OPERATION_SELL_RETURN' } as const;
export const PAYMENT = { mobile: 'PAYMENT_MOBILE', card: 'PAYMENT_CARD' } as const;
export const TAX_TYPE_VAT = 100;
/** taxationType 100: the general regime (STS); VAT is charged only under it. */
export const TAXATION_GENERAL = 100;
/** The section a line without one goes to: every public client sends "1". */
export const DEFAULT_SECTION = '1';

export function moneyOfTiyn(tiyn: number): Money {
  return { bills: Math.floor(tiyn / 100), coins: tiyn % 100 };
}

export function moneyOfTenge(tenge: number): Money {
  return { bills: tenge, coins: 0 };
}

/** {bills, coins} (bills may come as a string, protobuf's JSON of an int64) in tiyn; 0 when absent. */
export function tiynOf(v: unknown): number {
  const m = (v && typeof v === 'object' ? v : {}) as { bills?: unknown; coins?: unknown };
  return Number(m.bills ?? 0) * 100 + Number(m.coins ?? 0);
}

/** reKassa's dateTime: the instant's parts at UTC+5. */
export function dateTimeOf(at: Date): { date: object; time: object } {
  const p = almatyParts(at);
  return {
    date: { year: p.year, month: p.month, day: p.day },
    time: { hour: p.hour, minute: p.minute, second: p.second },
  };
}

/** A dateTime object back to an instant; null when it is not one. */
export function instantOf(v: unknown): Date | null {
  const o = (v && typeof v === 'object' ? v : {}) as { date?: Record<string, unknown>; time?: Record<string, unknown> };
  if (!o.date || !o.time) return null;
  const n = (x: unknown) => Number(x ?? 0);
  const d = fromAlmatyParts({
    year: n(o.date.year),
    month: n(o.date.month),
    day: n(o.date.day),
    hour: n(o.time.hour),
    minute: n(o.time.minute),
    second: n(o.time.second),
  });
  return Number.isNaN(d.getTime()) || !o.date.year ? null : d;
}

/**
 * The X-Request-ID of a receipt: a UUID (version 5 layout, SHA-1) of its external number, so a resend of
 * the same receipt carries the same id, whatever reKassa does with it (its de-duplication is undocumented).
 */
export function requestIdOf(externalNumber: string): string {
  const h = createHash('sha1').update(`tolem-fiscal-receipt:${externalNumber}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

export function item(line: FiscalLine): Record<string, unknown> {
  const commodity: Record<string, unknown> = {
    name: line.name,
    sectionCode: line.sectionCode ?? DEFAULT_SECTION,
    quantity: line.quantity * 1000,
    price: moneyOfTenge(line.price),
    sum: moneyOfTenge(line.total),
    measureUnitCode: String(line.unitCode),
    taxes:
      line.vatRateBps === null
        ? []
        : [
            {
              taxType: TAX_TYPE_VAT,
              taxationType: TAXATION_GENERAL,
              // percent ×1000: 16% (1600 bps) is 16000
              percent: line.vatRateBps * 10,
              sum: moneyOfTiyn(vatInsideTiyn(line.total, line.vatRateBps)),
              isInTotalSum: true,
            },
          ],
  };
  if (line.gtin !== null) commodity.barcode = line.gtin;
  if (line.ntin !== null) commodity.ntin = line.ntin;
  return { type: 'ITEM_TYPE_COMMODITY', commodity };
}

/**
 * The ticket body. `externalId` carries Tolem's receipt id: reKassa's ticket answers with an `externalId`,
 * and no public client shows the request's field, so the request uses the answer's name. lookup() matches
 * on the answer's field either way.
 */
export function ticketBody(r: FiscalReceiptRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    operation: OPERATION[r.kind],
    dateTime: dateTimeOf(r.at),
    // Trading when any line is goods; a receipt of work and services alone is services.
    domain: { type: r.lines.some((l) => l.positionType === 'goods') ? 'DOMAIN_TRADING' : 'DOMAIN_SERVICES' },
    items: r.lines.map(item),
    payments: [{ type: PAYMENT[r.paymentType], sum: moneyOfTenge(r.total) }],
    // `taken` is what the buyer handed over: the whole sum for a sale paid without cash; nothing for a
    // return (reKassa refuses a return whose taken is not 0, per an integrator's sandbox notes).
    amounts: {
      total: moneyOfTenge(r.total),
      taken: moneyOfTenge(r.kind === 'sale' ? r.total : 0),
      change: moneyOfTenge(0),
    },
    externalId: r.externalNumber,
  };
  const ext: Record<string, string> = {};
  if (r.customerEmail) ext.customer_email = r.customerEmail;
  if (r.customerPhone) ext.customer_phone = r.customerPhone;
  if (Object.keys(ext).length) body.extensionOptions = ext;
  if (r.kind === 'return') {
    if (!r.basis) throw new Error(`return receipt ${r.externalNumber} has no basis (the sale's receipt)`);
    // Their spelling: parentTicketDataTime.
    body.parentTicket = {
      parentTicketNumber: r.basis.fiscalSign,
      parentTicketDataTime: dateTimeOf(r.basis.issuedAt),
      kgdKkmId: r.basis.registrationNumber,
      parentTicketTotal: moneyOfTenge(r.basis.total),
      parentTicketIsOffline: r.basis.offline,
    };
  }
  return body;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;

/** reKassa's `fdo`: an object {code, nameRu, url} on tickets, a code string on registers. */
export function ofdOf(v: unknown): FiscalOfd | null {
  if (typeof v === 'string' && v) return { name: v, code: v, host: null };
  const o = obj(v);
  const code = str(o.code);
  const name = str(o.nameRu) ?? str(o.nameKk) ?? code;
  if (!name) return null;
  let host: string | null = null;
  const url = str(o.url);
  if (url) host = /^https?:\/\//i.test(url) ? new URL(url).host : url;
  return { name, code, host };
}

/** The printable page of a ticket, on the partner API's host (the path public clients use). */
export function printUrl(baseUrl: string, crsId: string, ticketId: string): string {
  return `${new URL(baseUrl).origin}/print/${encodeURIComponent(crsId)}/${encodeURIComponent(ticketId)}`;
}

/** A ticket (the POST answer or an entry of a list) as the port's receipt; null when it carries no sign. */
export function issuedOf(
  ticket: unknown,
  ctx: { baseUrl: string; crsId: string; registrationNumber: string; sentAt: Date | null },
): IssuedFiscalReceipt | null {
  const t = obj(ticket);
  const fiscalSign = str(t.ticketNumber) ?? str(t.offlineTicketNumber);
  const id = str(t.id);
  if (!fiscalSign || !id) return null;
  const issuedAt = instantOf(obj(obj(t.data).ticket).dateTime) ?? ctx.sentAt ?? parseServiceTime(t.messageTime) ?? null;
  if (!issuedAt) return null;
  return {
    fiscalSign,
    registrationNumber: str(t.kgdKkmId) ?? str(t.registrationNumber) ?? ctx.registrationNumber,
    shiftNumber: Number(t.shiftNumber ?? 0),
    issuedAt,
    offline: t.offline === true,
    checkUrl: str(t.qrCode),
    ticketUrl: printUrl(ctx.baseUrl, ctx.crsId, id),
    ref: id,
  };
}
