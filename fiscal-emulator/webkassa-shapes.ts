// Webkassa's answers as its Postman collection documents them (research section 1): the Cashbox block,
// a receipt's Data, the X/Z-report, history items and the print form. Amounts go out in tenge.
import type { ReceiptKind } from './draft.ts';
import { webkassaDate, webkassaDateUtc, ofdDate } from './dates.ts';
import { ticketUrl } from './ofds.ts';
import type { KindTotals, Receipt, Register, Shift } from './state.ts';

export const ORGANIZATION = { TaxPayerName: 'ТОО Tolem Emulator', TaxPayerIN: '990140001233' };
export const EMPLOYEE = 'Кассир эмулятора';
const tenge = (tiyn: number) => tiyn / 100;

export const OPERATION_TYPE: Record<ReceiptKind, number> = { buy: 0, buy_return: 1, sale: 2, sale_return: 3 };
const OPERATION_TEXT: Record<ReceiptKind, string> = {
  buy: 'Покупка',
  buy_return: 'Возврат покупки',
  sale: 'Продажа',
  sale_return: 'Возврат продажи',
};
const PAYMENT_NAME: Record<number, string> = {
  0: 'Наличные',
  1: 'Банковская карта',
  2: 'Кредит',
  3: 'Тара',
  4: 'Мобильный платеж',
};

export const ofdBlock = (r: Register) => ({
  Name: r.ofd.name,
  NameKz: r.ofd.nameKz,
  NameEn: r.ofd.nameEn,
  Host: r.ofd.host,
  Code: r.ofd.code,
});

export const cashboxBlock = (r: Register) => ({
  UniqueNumber: r.uniqueNumber,
  RegistrationNumber: r.registrationNumber,
  IdentityNumber: r.identityNumber,
  Address: r.address,
  AddressKz: r.address,
  Ofd: ofdBlock(r),
});

export const receiptUrl = (r: Register, rc: Receipt) =>
  ticketUrl(r.ofd, rc.fiscalSign, r.registrationNumber, rc.totalTiyn, ofdDate(rc.at));

/** The print page a receipt's TicketPrintUrl names, on the host the client called. */
export const printUrl = (base: string, r: Register, rc: Receipt) =>
  `${base}/spa-ui/ticket?chb=${encodeURIComponent(r.uniqueNumber)}&sh=${rc.shiftNumber}` +
  `&extnum=${encodeURIComponent(rc.externalId)}`;

/** Data of POST /api/v4/check. */
export function checkData(r: Register, rc: Receipt, base: string) {
  return {
    CheckNumber: rc.fiscalSign,
    DateTime: webkassaDate(rc.at),
    DateTimeUTC: webkassaDateUtc(rc.at),
    OfflineMode: rc.offline,
    CashboxOfflineMode: r.offlineSince !== null,
    Cashbox: cashboxBlock(r),
    Organization: ORGANIZATION,
    CheckOrderNumber: rc.orderNumber,
    ShiftNumber: rc.shiftNumber,
    EmployeeName: EMPLOYEE,
    TicketUrl: receiptUrl(r, rc),
    TicketPrintUrl: printUrl(base, r, rc),
    TicketPrintFormat: printLines(r, rc),
    // Not in the 2.0.3 collection's example; integrators of the newer documentation read it (research IIKO).
    Total: tenge(rc.totalTiyn),
  };
}

/** The receipt as lines to print: text, and the OFD link as a QR (Type 2). */
export function printLines(r: Register, rc: Receipt) {
  const texts: [string, number][] = [
    [ORGANIZATION.TaxPayerName, 1],
    [`БСН/БИН ${ORGANIZATION.TaxPayerIN}`, 0],
    [r.name, 0],
    [`Смена №${rc.shiftNumber}`, 0],
    [`Порядковый номер чека №${rc.orderNumber}`, 0],
    [OPERATION_TEXT[rc.kind].toUpperCase(), 1],
  ];
  for (const l of rc.draft.lines) {
    texts.push([l.name, 0]);
    texts.push([`${l.quantityMilli / 1000} x ${tenge(l.priceTiyn).toFixed(2)} = ${tenge(l.sumTiyn).toFixed(2)}`, 0]);
  }
  for (const p of rc.draft.payments) texts.push([`${PAYMENT_NAME[p.type]}: ${tenge(p.sumTiyn).toFixed(2)}`, 0]);
  texts.push([`ИТОГО: ${tenge(rc.totalTiyn).toFixed(2)}`, 1]);
  texts.push([`ФП: ${rc.fiscalSign}`, 0]);
  texts.push([`Время: ${webkassaDate(rc.at)}`, 0]);
  if (rc.offline) texts.push(['АВТОНОМНЫЙ РЕЖИМ', 1]);
  texts.push([`ОФД: ${r.ofd.name}`, 0]);
  texts.push([`ЗНМ: ${r.uniqueNumber} РНМ: ${r.registrationNumber}`, 0]);
  const lines = texts.map(([Value, Style], i) => ({ Order: i + 1, Type: 0, Value, Style }));
  lines.push({ Order: lines.length + 1, Type: 2, Value: receiptUrl(r, rc), Style: 0 });
  lines.push({ Order: lines.length + 1, Type: 0, Value: 'ФИСКАЛЬНЫЙ ЧЕК', Style: 1 });
  return lines;
}

function kindBlock(t: KindTotals, totalCount: number) {
  return {
    PaymentsByTypesApiModel: [...t.byPayment].map(([Type, sum]) => ({ Sum: tenge(sum), Type })),
    Discount: tenge(t.discountTiyn),
    Markup: tenge(t.markupTiyn),
    Taken: tenge(t.takenTiyn),
    Change: tenge(t.changeTiyn),
    Count: t.count,
    TotalCount: totalCount,
    VAT: tenge(t.vatTiyn),
  };
}

const KINDS: [ReceiptKind, string][] = [
  ['sale', 'Sell'],
  ['buy', 'Buy'],
  ['sale_return', 'ReturnSell'],
  ['buy_return', 'ReturnBuy'],
];

/** Totals of each kind over the shifts up to `shift` (with it when `including`): the non-nullable sums. */
function running(r: Register, shift: Shift, including: boolean) {
  const out: Record<string, number> = {};
  for (const [kind, name] of KINDS) {
    let sum = 0;
    for (const s of r.shifts) {
      if (s.number > shift.number || (!including && s.number === shift.number)) continue;
      sum += s.totals[kind].totalTiyn;
    }
    out[name] = tenge(sum);
  }
  return out;
}

/** An X-report (shift still open) or Z-report. `OfflineDocumentCount` is the emulator's own addition. */
export function reportData(r: Register, shift: Shift, now: number) {
  const blocks: Record<string, unknown> = {};
  for (const [kind, name] of KINDS) {
    const totalCount = r.shifts.filter((s) => s.number <= shift.number).reduce((n, s) => n + s.totals[kind].count, 0);
    blocks[name] = kindBlock(shift.totals[kind], totalCount);
  }
  return {
    TaxPayerName: ORGANIZATION.TaxPayerName,
    TaxPayerIN: ORGANIZATION.TaxPayerIN,
    TaxPayerVAT: true,
    TaxPayerVATSeria: '00000',
    TaxPayerVATNumber: '0000000',
    ReportNumber: shift.reportNumber ?? shift.number,
    CashboxSN: r.uniqueNumber,
    CashboxIN: Number(r.identityNumber),
    CashboxRN: r.registrationNumber,
    StartOn: webkassaDate(shift.openedAt),
    ReportOn: webkassaDate(shift.closedAt ?? now),
    CloseOn: webkassaDate(shift.closedAt ?? now),
    CashierCode: 1,
    CashierName: EMPLOYEE,
    ShiftNumber: shift.number,
    DocumentCount: shift.documents,
    PutMoneyCount: shift.putCount,
    PutMoneySum: tenge(shift.putTiyn),
    TakeMoneyCount: shift.takeCount,
    TakeMoneySum: tenge(shift.takeTiyn),
    ControlSum: tenge(KINDS.reduce((s, [k]) => s + shift.totals[k].totalTiyn, 0)),
    OfflineMode: r.offlineSince !== null,
    CashboxOfflineMode: r.offlineSince !== null,
    SumInCashbox: tenge(shift.cashAtOpenTiyn + shift.putTiyn - shift.takeTiyn + cashMoved(shift)),
    ...blocks,
    EndNonNullable: running(r, shift, true),
    StartNonNullable: running(r, shift, false),
    Ofd: ofdBlock(r),
    OfflineDocumentCount: shift.offlineDocuments,
  };
}

/** The cash receipts of the shift moved: cash paid less change, in for sales, out for returns. */
function cashMoved(shift: Shift): number {
  let sum = 0;
  for (const [kind] of KINDS) {
    const t = shift.totals[kind];
    const cash = (t.byPayment.get(0) ?? 0) - t.changeTiyn;
    sum += kind === 'sale' || kind === 'buy_return' ? cash : -cash;
  }
  return sum;
}

/** One receipt as Check/History and Check/HistoryByNumber list it. */
export function historyItem(r: Register, rc: Receipt, base: string) {
  const d = rc.draft;
  return {
    CashboxUniqueNumber: r.uniqueNumber,
    CashboxRegistrationNumber: r.registrationNumber,
    CashboxIdentityNumber: r.identityNumber,
    Address: r.address,
    Number: rc.fiscalSign,
    OrderNumber: rc.orderNumber,
    ExternalOrderNumber: d.externalOrderNumber,
    RegistratedOn: webkassaDate(rc.at),
    RegistratedOnUTC: webkassaDateUtc(rc.at),
    EmployeeName: EMPLOYEE,
    EmployeeCode: 1,
    ShiftNumber: rc.shiftNumber,
    DocumentNumber: rc.orderNumber,
    OperationType: OPERATION_TYPE[rc.kind],
    OperationTypeText: OPERATION_TEXT[rc.kind],
    Payments: d.payments.map((p) => ({ Sum: tenge(p.sumTiyn), PaymentTypeName: PAYMENT_NAME[p.type] })),
    Total: tenge(rc.totalTiyn),
    Change: tenge(rc.changeTiyn),
    Taken: tenge(rc.totalTiyn + rc.changeTiyn),
    Discount: tenge(d.modifiers.filter((m) => m.type === 'discount').reduce((s, m) => s + m.sumTiyn, 0)),
    MarkupPercent: 0,
    Markup: tenge(d.modifiers.filter((m) => m.type === 'markup').reduce((s, m) => s + m.sumTiyn, 0)),
    TaxPercent: d.lines[0]?.vatPercent ?? 0,
    Tax: tenge(rc.vatTiyn),
    VATPayer: true,
    Positions: d.lines.map((l) => ({
      PositionName: l.name,
      PositionCode: l.code,
      Count: l.quantityMilli / 1000,
      Price: tenge(l.priceTiyn),
      DiscountPercent: 0,
      DiscountTenge: tenge(l.discountTiyn),
      MarkupPercent: 0,
      Markup: tenge(l.markupTiyn),
      TaxPercent: l.vatPercent ?? 0,
      Tax: tenge(l.taxTiyn),
      IsNds: l.vatPercent !== null,
      IsStorno: false,
      MarkupDeleted: false,
      DiscountDeleted: false,
      Sum: tenge(l.sumTiyn),
      UnitCode: l.unitCode,
      Mark: l.marks[0] ?? null,
    })),
    IsOffline: rc.offline,
    TicketUrl: receiptUrl(r, rc),
    TicketPrintUrl: printUrl(base, r, rc),
    CustomerXin: null,
    Ofd: { Name: r.ofd.name, Host: r.ofd.host, Code: r.ofd.code },
    ExternalCheckNumber: rc.externalId,
    TaxPayerName: ORGANIZATION.TaxPayerName,
    TaxPayerIN: ORGANIZATION.TaxPayerIN,
  };
}

export { OPERATION_TEXT };
