// A Webkassa /api/v4/check body read into a draft (draft.ts). Field names in any case, as the service
// reads them; what cannot be read is a code 9 with the reason.
import { tiyn, type Basis, type Draft, type DraftLine, type DraftModifier, type PaymentType } from './draft.ts';
import { readDate } from './dates.ts';
import { field, isObj, text, type Obj } from './jsonc.ts';
import type { ReceiptKind } from './draft.ts';

const KIND_OF: Record<number, ReceiptKind> = { 0: 'buy', 1: 'buy_return', 2: 'sale', 3: 'sale_return' };
const PAYMENT_TYPES = [0, 1, 2, 3, 4];

class Invalid extends Error {}
function must<T>(v: T | string): T {
  if (typeof v === 'string') throw new Invalid(v);
  return v;
}

function vat(o: Obj, at: string): { vatPercent: number | null; taxTiyn: number } {
  const type = field(o, 'TaxType') ?? 0;
  if (type !== 0 && type !== 100) throw new Invalid(`${at}: TaxType must be 0 (no VAT) or 100 (VAT)`);
  const taxTiyn = field(o, 'Tax') == null ? 0 : must(tiyn(field(o, 'Tax'), `${at}: Tax`));
  if (type === 0) return { vatPercent: null, taxTiyn };
  const pct = field(o, 'TaxPercent');
  if (typeof pct !== 'number' || pct <= 0 || pct >= 100) throw new Invalid(`${at}: TaxPercent must be a VAT rate`);
  return { vatPercent: pct, taxTiyn };
}

function marks(o: Obj, at: string): string[] {
  const mark = field(o, 'Mark');
  const list = field(o, 'MarkList');
  // The collection's own examples send "Mark": 0 for "no mark".
  const one = typeof mark === 'string' && mark !== '' ? [mark] : [];
  const many = Array.isArray(list) ? list : [];
  if (many.some((m) => typeof m !== 'string' || m === '')) throw new Invalid(`${at}: MarkList holds mark codes`);
  if (one.length && many.length) throw new Invalid(`${at}: a position carries Mark or MarkList, not both`);
  return one.length ? one : (many as string[]);
}

function line(o: unknown, i: number): DraftLine {
  const at = `position ${i + 1}`;
  if (!isObj(o)) throw new Invalid(`${at} is not an object`);
  const count = field(o, 'Count');
  if (typeof count !== 'number' || !Number.isFinite(count)) throw new Invalid(`${at}: Count must be a number`);
  const quantityMilli = Math.round(count * 1000);
  if (Math.abs(quantityMilli - count * 1000) > 1e-6) throw new Invalid(`${at}: Count has more than 3 decimals`);
  const priceTiyn = must(tiyn(field(o, 'Price'), `${at}: Price`));
  const discountTiyn = field(o, 'Discount') == null ? 0 : must(tiyn(field(o, 'Discount'), `${at}: Discount`));
  const markupTiyn = field(o, 'Markup') == null ? 0 : must(tiyn(field(o, 'Markup'), `${at}: Markup`));
  const name = field(o, 'PositionName');
  if (typeof name !== 'string') throw new Invalid(`${at}: PositionName is required`);
  const positionType = field(o, 'PositionType');
  const unit = field(o, 'UnitCode');
  return {
    name,
    code: text(o, 'PositionCode') ?? null,
    quantityMilli,
    priceTiyn,
    discountTiyn,
    markupTiyn,
    sumTiyn: Math.round((quantityMilli * priceTiyn) / 1000) - discountTiyn + markupTiyn,
    ...vat(o, at),
    unitCode: typeof unit === 'number' ? unit : 796,
    sectionCode: text(o, 'SectionCode') ?? null,
    ntin: text(o, 'NTIN') || null,
    gtin: text(o, 'GTIN') || null,
    positionType: typeof positionType === 'number' ? positionType : null,
    marks: marks(o, at),
  };
}

function modifier(o: unknown): DraftModifier {
  if (!isObj(o)) throw new Invalid('TicketModifiers holds objects');
  const type = field(o, 'Type');
  if (type !== 1 && type !== 2) throw new Invalid('TicketModifiers: Type must be 1 (discount) or 2 (markup)');
  return {
    type: type === 1 ? 'discount' : 'markup',
    sumTiyn: must(tiyn(field(o, 'Sum'), 'TicketModifiers: Sum')),
    text: text(o, 'Text') ?? '',
    ...vat(o, 'TicketModifiers'),
  };
}

function basis(o: unknown): Basis | null {
  if (o == null) return null;
  if (!isObj(o)) throw new Invalid('ReturnBasisDetails must be an object');
  const total = field(o, 'Total');
  return {
    fiscalSign: text(o, 'CheckNumber') ?? '',
    registrationNumber: text(o, 'RegistrationNumber') ?? '',
    at: readDate(field(o, 'DateTime')),
    totalTiyn: typeof total === 'number' ? Math.round(total * 100) : NaN,
    offline: field(o, 'IsOffline') === true,
  };
}

/** The draft of a check body, or what is wrong with it. */
export function readCheck(b: Obj): Draft | string {
  try {
    const kind = KIND_OF[field(b, 'OperationType') as number];
    if (!kind) throw new Invalid('OperationType must be 0, 1, 2 or 3');
    const positions = field(b, 'Positions');
    if (!Array.isArray(positions)) throw new Invalid('Positions must be a list');
    const payments = field(b, 'Payments');
    if (!Array.isArray(payments)) throw new Invalid('Payments must be a list');
    const modifiers = field(b, 'TicketModifiers');
    const change = field(b, 'Change');
    return {
      kind,
      lines: positions.map(line),
      modifiers: Array.isArray(modifiers) ? modifiers.map(modifier) : [],
      payments: payments.map((p) => {
        const type = field(p, 'PaymentType');
        if (!PAYMENT_TYPES.includes(type as number)) throw new Invalid('PaymentType must be 0, 1, 2, 3 or 4');
        return { type: type as PaymentType, sumTiyn: must(tiyn(field(p, 'Sum'), 'Payments: Sum')) };
      }),
      changeTiyn: change == null ? null : must(tiyn(change, 'Change')),
      // Only a return reads its basis; the collection's field catalogue sends one with a sale too.
      basis: kind === 'sale_return' || kind === 'buy_return' ? basis(field(b, 'ReturnBasisDetails')) : null,
      customerEmail: text(b, 'CustomerEmail') ?? null,
      customerPhone: text(b, 'CustomerPhone') ?? null,
      externalOrderNumber: text(b, 'ExternalOrderNumber') ?? null,
    };
  } catch (err) {
    if (err instanceof Invalid) return err.message;
    throw err;
  }
}
