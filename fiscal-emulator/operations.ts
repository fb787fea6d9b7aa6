// The rules of a register both surfaces share (research section 10): the first operation opens shift
// n+1; nothing but a Z-report goes through 24 hours after the shift opened; after 72 hours offline no
// receipt is issued; an external id is used once; a return needs the sale it returns and cannot take back
// more than is left of it; cash cannot go below zero. Each surface maps a Refusal to its own answer.
import { RETURN_OF, type Draft, type ReceiptKind } from './draft.ts';
import type { FiscalState, KindTotals, MoneyOperation, Receipt, Register, Shift } from './state.ts';
import { draftProblem, totalOf } from './validation.ts';

export type RefusalKind =
  | 'unknown_register'
  | 'blocked'
  | 'not_activated'
  | 'shift_expired'
  | 'shift_closed'
  | 'no_shift'
  | 'duplicate'
  | 'offline_expired'
  | 'no_basis'
  | 'invalid'
  | 'not_enough_cash'
  | 'busy';

export interface Refusal {
  refused: RefusalKind;
  message: string;
  /** the original of a duplicate */
  receipt?: Receipt;
  money?: MoneyOperation;
}

export const isRefusal = (v: unknown): v is Refusal => Boolean(v) && typeof (v as Refusal).refused === 'string';
const refuse = (refused: RefusalKind, message: string, extra: Partial<Refusal> = {}): Refusal => ({
  refused,
  message,
  ...extra,
});

export const SHIFT_LIMIT_MS = 24 * 3600_000;
export const OFFLINE_LIMIT_MS = 72 * 3600_000;

/** A blocked, deregistered or not activated register refuses everything. */
export function statusRefusal(r: Register): Refusal | null {
  switch (r.status) {
    case 'blocked':
      return refuse('blocked', 'Касса заблокирована');
    case 'not-activated':
      return refuse('not_activated', 'Касса не активирована или отсутствует лицензия');
    case 'deregistered':
      return refuse('unknown_register', 'Касса снята с учёта');
    default:
      return null;
  }
}

export const shiftExpired = (s: FiscalState, r: Register) =>
  r.shift !== null && s.now() - r.shift.openedAt > SHIFT_LIMIT_MS;

const emptyTotals = (): KindTotals => ({
  count: 0,
  totalTiyn: 0,
  vatTiyn: 0,
  discountTiyn: 0,
  markupTiyn: 0,
  changeTiyn: 0,
  takenTiyn: 0,
  byPayment: new Map(),
});

/** The open shift, opened now as number n+1 when there is none. */
function currentShift(s: FiscalState, r: Register): Shift {
  if (r.shift) return r.shift;
  const last = r.shifts.at(-1);
  const shift: Shift = {
    number: (last?.number ?? 0) + 1,
    openedAt: s.now(),
    closedAt: null,
    documents: 0,
    offlineDocuments: 0,
    cashAtOpenTiyn: r.cashTiyn,
    putTiyn: 0,
    putCount: 0,
    takeTiyn: 0,
    takeCount: 0,
    totals: { sale: emptyTotals(), sale_return: emptyTotals(), buy: emptyTotals(), buy_return: emptyTotals() },
    reportNumber: null,
  };
  r.shift = shift;
  r.shifts.push(shift);
  return shift;
}

/** What stops any operation but a Z-report now: the register's status, a shift over 24 hours. */
function operationRefusal(s: FiscalState, r: Register): Refusal | null {
  return (
    statusRefusal(r) ??
    (shiftExpired(s, r) ? refuse('shift_expired', 'Продолжительность смены превышает 24 часа') : null)
  );
}

const offline = (r: Register) => r.offlineSince !== null;

function offlineRefusal(s: FiscalState, r: Register): Refusal | null {
  return r.offlineSince !== null && s.now() - r.offlineSince > OFFLINE_LIMIT_MS
    ? refuse('offline_expired', 'Касса работает в автономном режиме более 72 часов')
    : null;
}

/** The sale a return names, or why it names none. */
function basisRefusal(s: FiscalState, d: Draft, total: number): Refusal | { sale: Receipt } {
  const b = d.basis;
  if (!b) return refuse('no_basis', 'Не указаны данные чека-основания для возврата (ReturnBasisDetails)');
  const sale = s.bySign.get(b.fiscalSign);
  const regOf = sale && s.registers.get(sale.register)?.registrationNumber;
  if (
    !sale ||
    sale.kind !== RETURN_OF[d.kind] ||
    regOf !== b.registrationNumber ||
    !(Math.abs(b.at - sale.at) < 1000) ||
    b.totalTiyn !== sale.totalTiyn ||
    b.offline !== sale.offline
  )
    return refuse(
      'invalid',
      'Чек-основание не найден: фискальный признак, РНМ, дата, сумма или автономность не совпадают',
    );
  if (total > sale.totalTiyn - sale.returnedTiyn)
    return refuse(
      'invalid',
      `Сумма возврата превышает остаток чека-основания (${((sale.totalTiyn - sale.returnedTiyn) / 100).toFixed(2)})`,
    );
  return { sale };
}

/** How the receipt moves the cash in the drawer: what was paid in cash less the change, in or out. */
function cashDelta(kind: ReceiptKind, d: Draft, change: number): number {
  const cash = (d.payments.find((p) => p.type === 0)?.sumTiyn ?? 0) - change;
  return kind === 'sale' || kind === 'buy_return' ? cash : -cash;
}

function vatOf(d: Draft): number {
  let vat = d.lines.reduce((s, l) => s + l.taxTiyn, 0);
  for (const m of d.modifiers) vat += m.type === 'discount' ? -m.taxTiyn : m.taxTiyn;
  return vat;
}

/** Issues a receipt, or says why not. Nothing is stored on a refusal. */
export function issueReceipt(
  s: FiscalState,
  r: Register,
  d: Draft,
  externalId: string,
  surface: Receipt['surface'],
): Receipt | Refusal {
  const dup = r.receipts.get(externalId);
  if (dup) return refuse('duplicate', 'Чек уже существует в системе', { receipt: dup });
  const stop = operationRefusal(s, r);
  if (stop) return stop;
  const problem = draftProblem(d, r);
  if (problem) return refuse('invalid', problem);
  const total = totalOf(d);
  let sale: Receipt | null = null;
  if (RETURN_OF[d.kind]) {
    const b = basisRefusal(s, d, total);
    if (isRefusal(b)) return b;
    sale = b.sale;
  }
  const off = offlineRefusal(s, r);
  if (off) return off;
  const change = d.payments.reduce((sum, p) => sum + p.sumTiyn, 0) - total;
  const delta = cashDelta(d.kind, d, change);
  if (r.cashTiyn + delta < 0) return refuse('not_enough_cash', 'Недостаточно наличных в кассе');

  const shift = currentShift(s, r);
  const isOffline = offline(r);
  const receipt: Receipt = {
    externalId,
    ticketId: s.ticketId(),
    fiscalSign: s.fiscalSign(isOffline),
    kind: d.kind,
    draft: d,
    totalTiyn: total,
    changeTiyn: change,
    vatTiyn: vatOf(d),
    returnedTiyn: 0,
    at: s.now(),
    shiftNumber: shift.number,
    orderNumber: ++shift.documents,
    offline: isOffline,
    register: r.uniqueNumber,
    surface,
  };
  if (isOffline) shift.offlineDocuments++;
  if (sale) sale.returnedTiyn += total;
  r.cashTiyn += delta;
  const t = shift.totals[d.kind];
  t.count++;
  t.totalTiyn += total;
  t.vatTiyn += receipt.vatTiyn;
  t.changeTiyn += change;
  t.takenTiyn += total + change;
  for (const l of d.lines) {
    t.discountTiyn += l.discountTiyn;
    t.markupTiyn += l.markupTiyn;
  }
  for (const m of d.modifiers) m.type === 'discount' ? (t.discountTiyn += m.sumTiyn) : (t.markupTiyn += m.sumTiyn);
  for (const p of d.payments) t.byPayment.set(p.type, (t.byPayment.get(p.type) ?? 0) + p.sumTiyn);
  r.receipts.set(externalId, receipt);
  s.bySign.set(receipt.fiscalSign, receipt);
  return receipt;
}

/** Cash put in or taken out; taking more than the drawer holds is refused. */
export function moneyOperation(
  s: FiscalState,
  r: Register,
  kind: 'in' | 'out',
  sumTiyn: number,
  externalId: string,
): MoneyOperation | Refusal {
  const dup = r.money.get(externalId);
  if (dup) return refuse('duplicate', 'Операция уже существует в системе', { money: dup });
  const stop = operationRefusal(s, r) ?? offlineRefusal(s, r);
  if (stop) return stop;
  if (sumTiyn <= 0) return refuse('invalid', 'Sum must be above 0');
  if (kind === 'out' && sumTiyn > r.cashTiyn) return refuse('not_enough_cash', 'Недостаточно наличных для изъятия');
  const shift = currentShift(s, r);
  shift.documents++;
  if (offline(r)) shift.offlineDocuments++;
  r.cashTiyn += kind === 'in' ? sumTiyn : -sumTiyn;
  if (kind === 'in') {
    shift.putTiyn += sumTiyn;
    shift.putCount++;
  } else {
    shift.takeTiyn += sumTiyn;
    shift.takeCount++;
  }
  const op: MoneyOperation = {
    externalId,
    kind,
    sumTiyn,
    at: s.now(),
    shiftNumber: shift.number,
    offline: offline(r),
    balanceTiyn: r.cashTiyn,
  };
  r.money.set(externalId, op);
  return op;
}

/** The open shift for an X-report. */
export function xReport(s: FiscalState, r: Register): Shift | Refusal {
  const stop = operationRefusal(s, r);
  if (stop) return stop;
  return r.shift ?? refuse('no_shift', 'Смена не открыта');
}

/** Closes the open shift (the way out of the 24-hour rule); a closed one gives 12, none ever 13. */
export function zReport(s: FiscalState, r: Register): Shift | Refusal {
  const stop = statusRefusal(r);
  if (stop) return stop;
  if (!r.shift)
    return r.shifts.length > 0 ? refuse('shift_closed', 'Смена уже закрыта') : refuse('no_shift', 'Смена не открыта');
  const shift = r.shift;
  shift.closedAt = s.now();
  shift.reportNumber = shift.number;
  r.shift = null;
  return shift;
}
