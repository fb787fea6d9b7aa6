// The catalog item record (decisions 27) and its named reads. Every read takes the tenant (client and
// mode): another tenant's item is not found. Payments read items through `catalogItemsForLines`.
import type { Queryable } from '../../db/db.ts';
import type { Mode, Tenant } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import type { PositionType } from './codes.ts';

export interface CatalogItem {
  id: string;
  client_id: number;
  mode: Mode;
  name: string;
  price: number;
  unit_code: number;
  ntin: string | null;
  gtin: string | null;
  vat_rate_bps: number | null;
  section_code: string | null;
  position_type: PositionType;
  archived: boolean;
  created_at: Date;
  updated_at: Date;
}

export const CATALOG_COLUMNS = `id, client_id, mode, name, price, unit_code, ntin, gtin, vat_rate_bps, section_code,
  position_type, archived, created_at, updated_at`;

const ID_RE = /^ci_[0-9A-HJKMNP-TV-Z]{26}$/;

export const catalogNotFound = (id: string) => new AppError('catalog_item_not_found', `no catalog item ${id}`);

/** An item of this tenant, archived or not. `lock` takes a row lock (use inside a transaction). */
export async function findCatalogItem(db: Queryable, tenant: Tenant, id: string, lock = false): Promise<CatalogItem> {
  if (!ID_RE.test(id)) throw catalogNotFound(id);
  const r = await db.query<CatalogItem>(
    `SELECT ${CATALOG_COLUMNS} FROM catalog_items
      WHERE id = $1 AND client_id = $2 AND mode = $3${lock ? ' FOR NO KEY UPDATE' : ''}`,
    [id, tenant.clientId, tenant.mode],
  );
  if (!r.rows[0]) throw catalogNotFound(id);
  return r.rows[0];
}

/**
 * The tenant's items among `ids`, archived ones included (the caller decides what an archived item
 * means), by id. Ids of another tenant, or not ids at all, are simply absent from the map.
 */
export async function catalogItemsForLines(
  db: Queryable,
  tenant: Tenant,
  ids: string[],
): Promise<Map<string, CatalogItem>> {
  const wanted = [...new Set(ids.filter((id) => ID_RE.test(id)))];
  if (wanted.length === 0) return new Map();
  const r = await db.query<CatalogItem>(
    `SELECT ${CATALOG_COLUMNS} FROM catalog_items WHERE client_id = $1 AND mode = $2 AND id = ANY($3::text[])`,
    [tenant.clientId, tenant.mode, wanted],
  );
  return new Map(r.rows.map((i) => [i.id, i]));
}
