// The line items of a payment, a link (decisions 27) and the refunds of a payment: what its fiscal receipt
// lists. An item may name a catalog item (catalog_item_id): the catalog's fields fill in what the item
// does not give, and what it gives wins (a one-off price or name for this sale). The lines always add up
// to the amount (decisions 1); a line's copy of its catalog item does not change when the item does.
import type { Queryable } from '../../db/db.ts';
import type { Tenant } from '../tenant.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { catalogItemsForLines, type CatalogItem } from '../catalog/items.ts';
import {
  checkGtin,
  checkName,
  checkNtin,
  checkPositionType,
  checkSectionCode,
  checkUnitCode,
  checkVatRate,
  type PositionType,
} from '../catalog/codes.ts';
import { checkAmount } from './input.ts';

/** A payment's item names were up to 255 characters before the catalog; they stay so. */
const LINE_NAME_MAX = 255;
export const QUANTITY_MAX = 10_000;

/** An item as a request gives it. */
export interface LineInput {
  name?: string;
  price?: number;
  quantity?: number;
  unit_code?: number;
  ntin?: string | null;
  gtin?: string | null;
  vat_rate_bps?: number | null;
  section_code?: string | null;
  position_type?: string;
  catalog_item_id?: string;
}

/** An item as it is stored on the operation or the link, every field resolved. */
export interface Line {
  name: string;
  price: number;
  quantity: number;
  unit_code: number;
  ntin: string | null;
  gtin: string | null;
  vat_rate_bps: number | null;
  section_code: string | null;
  position_type: PositionType;
  catalog_item_id: string | null;
}

function checkQuantity(q: number | undefined, param: string): number {
  if (q === undefined) return 1;
  if (!Number.isInteger(q) || q < 1 || q > QUANTITY_MAX)
    throw invalidParam(param, `${param} must be an integer from 1 to ${QUANTITY_MAX}`);
  return q;
}

function resolveLine(i: LineInput, n: number, catalog: Map<string, CatalogItem>, max: number): Line {
  const at = `items.${n}`;
  let c: CatalogItem | undefined;
  if (i.catalog_item_id !== undefined) {
    c = catalog.get(i.catalog_item_id);
    // Another tenant's item is unknown here, like a made-up id: the same answer for both.
    if (!c) throw invalidParam(`${at}.catalog_item_id`, `no catalog item ${i.catalog_item_id}`);
    if (c.archived)
      throw invalidParam(`${at}.catalog_item_id`, `catalog item ${c.id} is archived; restore it or name another`);
  }
  const name = i.name ?? c?.name;
  if (name === undefined) throw invalidParam(`${at}.name`, `${at}.name is required without catalog_item_id`);
  const price = i.price ?? c?.price;
  if (price === undefined) throw invalidParam(`${at}.price`, `${at}.price is required without catalog_item_id`);
  // undefined means "not given": the catalog's value, else the default; an explicit null clears a code.
  const pick = <K extends 'ntin' | 'gtin' | 'vat_rate_bps' | 'section_code'>(k: K) =>
    i[k] !== undefined ? i[k] : (c?.[k] ?? null);
  return {
    name: checkName(name, `${at}.name`, LINE_NAME_MAX),
    price: checkAmount(price, max, `${at}.price`),
    quantity: checkQuantity(i.quantity, `${at}.quantity`),
    unit_code: checkUnitCode(i.unit_code ?? c?.unit_code, `${at}.unit_code`),
    ntin: checkNtin(pick('ntin'), `${at}.ntin`),
    gtin: checkGtin(pick('gtin'), `${at}.gtin`),
    vat_rate_bps: checkVatRate(pick('vat_rate_bps'), `${at}.vat_rate_bps`),
    section_code: checkSectionCode(pick('section_code'), `${at}.section_code`),
    position_type: checkPositionType(i.position_type ?? c?.position_type, `${at}.position_type`),
    catalog_item_id: c?.id ?? null,
  };
}

/**
 * The request's items resolved against the tenant's catalog, checked to add up to `amount`; null when
 * the request has none. The catalog is read only when an item names it.
 */
export async function resolveItems(
  db: Queryable,
  tenant: Tenant,
  items: LineInput[] | undefined,
  amount: number,
  max: number,
): Promise<Line[] | null> {
  if (!items) return null;
  const ids = items.flatMap((i) => (i.catalog_item_id === undefined ? [] : [i.catalog_item_id]));
  const catalog = ids.length ? await catalogItemsForLines(db, tenant, ids) : new Map<string, CatalogItem>();
  let total = 0;
  const lines = items.map((i, n) => {
    const line = resolveLine(i, n, catalog, max);
    total += line.price * line.quantity;
    return line;
  });
  if (total !== amount)
    throw new AppError('invalid_parameter', `items add up to ${total}, not amount ${amount}`, { param: 'items' });
  return lines;
}
