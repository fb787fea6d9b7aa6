// Line items on the wire (decisions 27): what QR, invoice and link requests may give, what payments, links
// and refunds show, and the lines a refund names by index.
import { Type } from 'typebox';
import { Amount, Nullable } from '../schemas.ts';
import { Gtin, Ntin, PositionType, SectionCode, UnitCode, VatRate } from './catalog-item.ts';
import type { Line } from '../../domain/payments/line-items.ts';
import { DEFAULT_UNIT_CODE } from '../../domain/catalog/codes.ts';
import type { RefundLine } from '../../domain/payments/refund-lines.ts';

const Quantity = Type.Integer({ minimum: 1, maximum: 10000 });

export const LineItemInput = Type.Object(
  {
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'required unless catalog_item_id gives it' }),
    ),
    price: Type.Optional(
      Type.Integer({ description: 'integer tenge, per unit; required unless catalog_item_id gives it' }),
    ),
    quantity: Type.Optional(Type.Integer({ ...Quantity, default: 1 })),
    unit_code: Type.Optional(UnitCode),
    ntin: Type.Optional(Nullable(Ntin)),
    gtin: Type.Optional(Nullable(Gtin)),
    vat_rate_bps: Type.Optional(Nullable(VatRate)),
    section_code: Type.Optional(Nullable(SectionCode)),
    position_type: Type.Optional(PositionType),
    catalog_item_id: Type.Optional(
      Type.String({
        description:
          'a catalog item of this mode (not archived): its fields fill in the ones this item leaves out; ' +
          'the ones given win',
      }),
    ),
  },
  { additionalProperties: false, title: 'LineItemRequest' },
);

export const ItemsInput = Type.Array(LineItemInput, {
  minItems: 1,
  maxItems: 100,
  description: 'price x quantity of all items must add up to amount',
  examples: [[{ name: 'Кофе', price: 2500, quantity: 2 }]],
});

const lineProps = {
  name: Type.String(),
  price: Amount,
  quantity: Type.Integer(),
  unit_code: Type.Integer(),
  ntin: Nullable(Type.String()),
  gtin: Nullable(Type.String()),
  vat_rate_bps: Nullable(Type.Integer()),
  section_code: Nullable(Type.String()),
  position_type: PositionType,
  catalog_item_id: Nullable(Type.String()),
};

export const LineItem = Type.Object(lineProps, { title: 'LineItem' });
export const LineItems = Nullable(Type.Array(LineItem));

export const RefundLineInput = Type.Object(
  {
    index: Type.Integer({ minimum: 0, description: "the line's position in the payment's items, from 0" }),
    quantity: Quantity,
  },
  { additionalProperties: false, title: 'RefundLineRequest' },
);

export const RefundLineItem = Type.Object({ index: Type.Integer(), ...lineProps }, { title: 'RefundLine' });
export const RefundLineItems = Nullable(Type.Array(RefundLineItem));

/**
 * The mapper copies the stored fields so nothing else reaches the wire. Items stored before the catalog
 * have only name, price and quantity: the defaults they were fiscalized with fill the rest.
 */
export const toLineItems = (lines: Line[] | null) => lines?.map(toLine) ?? null;
const toLine = (l: Partial<Line> & Pick<Line, 'name' | 'price'>) => ({
  name: l.name,
  price: l.price,
  quantity: l.quantity ?? 1,
  unit_code: l.unit_code ?? DEFAULT_UNIT_CODE,
  ntin: l.ntin ?? null,
  gtin: l.gtin ?? null,
  vat_rate_bps: l.vat_rate_bps ?? null,
  section_code: l.section_code ?? null,
  position_type: l.position_type ?? 'goods',
  catalog_item_id: l.catalog_item_id ?? null,
});
export const toRefundLineItems = (lines: RefundLine[] | null | undefined) =>
  lines?.map((l) => Object.assign({ index: l.index }, toLine(l))) ?? null;
