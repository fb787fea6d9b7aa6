// A receipt as both surfaces hand it to the rules (operations.ts): amounts in tiyn (1/100 tenge) and
// quantities in thousandths, so no rule meets a binary fraction. Webkassa's positions and reKassa's items
// are read into this by their routes.

export type ReceiptKind = 'sale' | 'sale_return' | 'buy' | 'buy_return';
export const RETURN_OF: Partial<Record<ReceiptKind, ReceiptKind>> = { sale_return: 'sale', buy_return: 'buy' };

/** Webkassa's payment types: 0 cash, 1 card, 2 credit, 3 tare, 4 mobile. */
export type PaymentType = 0 | 1 | 2 | 3 | 4;

export interface DraftLine {
  name: string;
  code: string | null;
  quantityMilli: number;
  priceTiyn: number;
  discountTiyn: number;
  markupTiyn: number;
  /** quantity × price − discount + markup */
  sumTiyn: number;
  /** VAT percent, or null for a line without VAT (TaxType 0) */
  vatPercent: number | null;
  /** the VAT the client says is inside the sum */
  taxTiyn: number;
  unitCode: number;
  sectionCode: string | null;
  ntin: string | null;
  gtin: string | null;
  positionType: number | null;
  marks: string[];
}

export interface DraftModifier {
  type: 'discount' | 'markup';
  sumTiyn: number;
  text: string;
  vatPercent: number | null;
  taxTiyn: number;
}

export interface Basis {
  fiscalSign: string;
  registrationNumber: string;
  /** NaN when it could not be read */
  at: number;
  totalTiyn: number;
  offline: boolean;
}

export interface Draft {
  kind: ReceiptKind;
  lines: DraftLine[];
  modifiers: DraftModifier[];
  payments: { type: PaymentType; sumTiyn: number }[];
  /** the change the client stated; null: the service computes it */
  changeTiyn: number | null;
  basis: Basis | null;
  customerEmail: string | null;
  customerPhone: string | null;
  externalOrderNumber: string | null;
}

export const MAX_NAME = 128;

/** Tenge with at most 2 decimals, as tiyn; a string saying what is wrong otherwise. */
export function tiyn(v: unknown, what: string, allowNegative = false): number | string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return `${what} must be a number`;
  if (v < 0 && !allowNegative) return `${what} must not be negative`;
  const t = Math.round(v * 100);
  if (Math.abs(t - v * 100) > 1e-6) return `${what} must have at most 2 decimals`;
  return t;
}

/** The VAT inside a sum at a percent, rounded to the tiyn (500 at 12% is 53.57). */
export const vatInside = (sumTiyn: number, percent: number) => Math.round((sumTiyn * percent) / (100 + percent));
