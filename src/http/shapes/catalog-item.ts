// The catalog item on the wire (decisions 27): the record, its create and edit bodies, and the mapper.
import { Type } from 'typebox';
import { Amount, Body, Nullable, Timestamp } from '../schemas.ts';
import { POSITION_TYPES } from '../../domain/catalog/codes.ts';
import type { CatalogItem } from '../../domain/catalog/items.ts';

export const PositionType = Type.String({ title: 'PositionType', enum: [...POSITION_TYPES] });
export const UnitCode = Type.Integer({ description: 'OKEI unit code: 796 piece, 166 kg, 112 l, 5114 service' });
export const Ntin = Type.String({ description: "the National Catalogue's (НКТ) code: 13 or 14 digits" });
export const Gtin = Type.String({ description: 'GTIN-8, -12, -13 or -14 with its check digit' });
export const VatRate = Type.Integer({
  description: 'VAT in basis points (1200 is 12 %); null: the register default',
});
export const SectionCode = Type.String({ description: "the register's section (department) code" });

export const CatalogItemRecord = Type.Object(
  {
    id: Type.String({ description: 'ci_<ULID>' }),
    name: Type.String(),
    price: Amount,
    unit_code: Type.Integer(),
    ntin: Nullable(Type.String()),
    gtin: Nullable(Type.String()),
    vat_rate_bps: Nullable(Type.Integer()),
    section_code: Nullable(Type.String()),
    position_type: PositionType,
    archived: Type.Boolean(),
    livemode: Type.Boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'CatalogItem' },
);

const Name = Type.String({ minLength: 1, maxLength: 128 });

export const CatalogItemCreateBody = Body(
  {
    name: Name,
    price: Amount,
    unit_code: Type.Optional(UnitCode),
    ntin: Type.Optional(Nullable(Ntin)),
    gtin: Type.Optional(Nullable(Gtin)),
    vat_rate_bps: Type.Optional(Nullable(VatRate)),
    section_code: Type.Optional(Nullable(SectionCode)),
    position_type: Type.Optional(PositionType),
  },
  'CatalogItemRequest',
);

export const CatalogItemPatchBody = Body(
  {
    ...Type.Partial(Type.Object(CatalogItemCreateBody.properties)).properties,
    archived: Type.Optional(Type.Boolean({ description: 'false brings an archived item back' })),
  },
  'CatalogItemPatch',
);

export const toCatalogItemRecord = (i: CatalogItem) => ({
  id: i.id,
  name: i.name,
  price: i.price,
  unit_code: i.unit_code,
  ntin: i.ntin,
  gtin: i.gtin,
  vat_rate_bps: i.vat_rate_bps,
  section_code: i.section_code,
  position_type: i.position_type,
  archived: i.archived,
  livemode: i.mode === 'live',
  created_at: i.created_at,
  updated_at: i.updated_at,
});
