// Tolem's receipt as Webkassa's POST /api/v4/check body, and Webkassa's answers as the port's shapes
// (research section 1, PM). Pure functions: the unit tests pin every field.
import { formatCompact, formatDotted, parseServiceTime } from '../almaty.ts';
import {
  type FiscalLine,
  type FiscalOfd,
  type FiscalReceiptRequest,
  type IssuedFiscalReceipt,
  type PositionType,
  vatInsideTiyn,
} from '../types.ts';

/** Webkassa's OperationType: 2 sale, 3 sale return. */
export const OPERATION = { sale: 2, return: 3 } as const;
/** Webkassa's PaymentType: 1 bank card, 4 mobile payment (0 cash is never Tolem's). */
export const PAYMENT_TYPE = { card: 1, mobile: 4 } as const;
/** PositionType (protocol 2.0.4): 0 goods, 1 work, 2 service. */
export const POSITION_TYPE: Record<PositionType, number> = { goods: 0, work: 1, service: 2 };
export const TAX_TYPE_VAT = 100;
export const TAX_TYPE_NONE = 0;
/** RoundType 2: rounding per position, Webkassa's default. */
export const ROUND_PER_POSITION = 2;

/** Whole tiyn as tenge with two decimals: 5357 -> 53.57 (a number whose JSON is exactly that). */
export function tiynToTenge(tiyn: number): number {
  return Number((tiyn / 100).toFixed(2));
}

export function position(line: FiscalLine): Record<string, unknown> {
  const p: Record<string, unknown> = {
    Count: line.quantity,
    Price: line.price,
    PositionName: line.name,
    UnitCode: line.unitCode,
    PositionType: POSITION_TYPE[line.positionType],
  };
  if (line.sectionCode !== null) p.SectionCode = line.sectionCode;
  if (line.ntin !== null) p.NTIN = line.ntin;
  if (line.gtin !== null) p.GTIN = line.gtin;
  if (line.vatRateBps === null) {
    p.TaxType = TAX_TYPE_NONE;
  } else {
    p.TaxType = TAX_TYPE_VAT;
    p.TaxPercent = line.vatRateBps / 100;
    // VAT inside the position's sum, the way Webkassa checks it: 500 at 12% is 53.57.
    p.Tax = tiynToTenge(vatInsideTiyn(line.total, line.vatRateBps));
  }
  return p;
}

/** The check body without Token (the driver adds it). */
export function checkBody(cashbox: string, r: FiscalReceiptRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    CashboxUniqueNumber: cashbox,
    OperationType: OPERATION[r.kind],
    Positions: r.lines.map(position),
    Payments: [{ Sum: r.total, PaymentType: PAYMENT_TYPE[r.paymentType] }],
    Change: 0,
    RoundType: ROUND_PER_POSITION,
    ExternalCheckNumber: r.externalNumber,
  };
  if (r.customerEmail) body.CustomerEmail = r.customerEmail;
  if (r.customerPhone) body.CustomerPhone = r.customerPhone;
  if (r.kind === 'return') {
    // A return without its basis is refused since protocol 2.0.3; the domain never sends one, and a bug that
    // did would otherwise reach the register as Webkassa's 255.
    if (!r.basis) throw new Error(`return receipt ${r.externalNumber} has no basis (the sale's receipt)`);
    body.ReturnBasisDetails = {
      CheckNumber: r.basis.fiscalSign,
      DateTime: formatDotted(r.basis.issuedAt),
      RegistrationNumber: r.basis.registrationNumber,
      Total: r.basis.total,
      IsOffline: r.basis.offline,
    };
  }
  return body;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;

/**
 * Webkassa's OFD codes (Cashbox.Ofd.Code) and the check page each operator serves (research sections 1
 * and 6), for answers that name the OFD by its code alone (client-info's `Ofd: {Ofd: 4}`).
 */
export const KNOWN_OFDS: Record<string, { name: string; host: string }> = {
  '1': { name: 'АО "Казахтелеком"', host: 'consumer.oofd.kz' },
  '2': { name: 'АО "Транстелеком"', host: 'ofd1.kz/t/' },
  '3': { name: 'ТОО "KazTransCom"', host: 'consumer.kofd.kz' },
  '4': { name: 'ТОО "Smartcontract" (WOFD)', host: 'cabinet.wofd.kz/consumer' },
};

/** An Ofd block ({Name, Host, Code}, or client-info's {Ofd: code}) as the port's OFD; null when it names none. */
export function ofdOf(v: unknown): FiscalOfd | null {
  const o = obj(v);
  const code = str(o.Code) ?? str(o.Ofd);
  const known = code ? KNOWN_OFDS[code] : undefined;
  const name = str(o.Name) ?? str(o.NameEn) ?? str(o.NameKz) ?? known?.name ?? null;
  const host = str(o.Host) ?? known?.host ?? null;
  if (!name && !host && !code) return null;
  return { name: name ?? code ?? '', code, host };
}

/** A fiscal data operator's check page for a receipt: `<host>?i=<sign>&f=<RNM>&s=<total .2f>&t=<local time>`. */
export function checkUrlFor(
  ofdHost: string,
  r: { fiscalSign: string; registrationNumber: string; total: number; issuedAt: Date },
): string {
  const base = /^https?:\/\//i.test(ofdHost) ? ofdHost : `http://${ofdHost}`;
  const q = new URLSearchParams({
    i: r.fiscalSign,
    f: r.registrationNumber,
    s: r.total.toFixed(2),
    t: formatCompact(r.issuedAt),
  });
  return `${base}${base.includes('?') ? '&' : '?'}${q}`;
}

/** Webkassa's printable page of a receipt, as its TicketPrintUrl writes it. */
export function ticketPrintUrl(baseUrl: string, cashbox: string, shift: number, externalNumber: string): string {
  const q = new URLSearchParams({ chb: cashbox, sh: String(shift), extnum: externalNumber });
  return `${baseUrl}/spa-ui/ticket?${q}`;
}

/** The check's Data as the port's receipt; null when it lacks the fiscal sign (not a receipt). */
export function issuedOf(data: unknown): IssuedFiscalReceipt | null {
  const d = obj(data);
  const fiscalSign = str(d.CheckNumber);
  const issuedAt = parseServiceTime(d.DateTime) ?? parseServiceTime(d.DateTimeUTC);
  if (!fiscalSign || !issuedAt) return null;
  const cashbox = obj(d.Cashbox);
  return {
    fiscalSign,
    registrationNumber: str(cashbox.RegistrationNumber) ?? '',
    shiftNumber: Number(d.ShiftNumber ?? 0),
    issuedAt,
    offline: d.OfflineMode === true,
    checkUrl: str(d.TicketUrl),
    ticketUrl: str(d.TicketPrintUrl),
    ref: null,
  };
}
