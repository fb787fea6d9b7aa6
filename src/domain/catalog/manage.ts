// The catalog's use cases (decisions 27): create, list with a name search, edit, archive. Deleting
// archives: payments and links made from an item keep their copy of its fields, and the item can be
// brought back by PATCH {archived: false}.
import type { Deps, DbDeps, DbSecretsDeps } from '../../deps.ts';
import type { Tenant } from '../tenant.ts';
import type { Receipt } from '../receipt.ts';
import { invalidParam } from '../../errors.ts';
import { newId } from '../ids.ts';
import { page, type PageResult, type Paging } from '../pagination.ts';
import {
  checkGtin,
  checkName,
  checkNtin,
  checkPositionType,
  checkSectionCode,
  checkUnitCode,
  checkVatRate,
} from './codes.ts';
import { CATALOG_COLUMNS, catalogNotFound, findCatalogItem, type CatalogItem } from './items.ts';

export interface CatalogItemInput {
  name: string;
  price: number;
  unit_code?: number;
  ntin?: string | null;
  gtin?: string | null;
  vat_rate_bps?: number | null;
  section_code?: string | null;
  position_type?: string;
}

export type CatalogItemPatch = Partial<CatalogItemInput> & { archived?: boolean };

function checkPrice(price: number, max: number): number {
  if (!Number.isSafeInteger(price) || price < 1 || price > max)
    throw invalidParam('price', `price must be an integer from 1 to ${max} tenge`);
  return price;
}

export async function createCatalogItem(
  deps: Pick<Deps, 'db' | 'config'>,
  ctx: Tenant,
  input: CatalogItemInput,
  receipt?: Receipt<CatalogItem>,
): Promise<CatalogItem> {
  const values = [
    newId('ci'),
    ctx.clientId,
    ctx.mode,
    checkName(input.name, 'name'),
    checkPrice(input.price, deps.config.amountMax),
    checkUnitCode(input.unit_code, 'unit_code'),
    checkNtin(input.ntin, 'ntin'),
    checkGtin(input.gtin, 'gtin'),
    checkVatRate(input.vat_rate_bps, 'vat_rate_bps'),
    checkSectionCode(input.section_code, 'section_code'),
    checkPositionType(input.position_type, 'position_type'),
  ];
  return deps.db.tx(async (tx) => {
    const r = await tx.query<CatalogItem>(
      `INSERT INTO catalog_items (id, client_id, mode, name, price, unit_code, ntin, gtin, vat_rate_bps, section_code,
                                  position_type)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${CATALOG_COLUMNS}`,
      values,
    );
    const item = r.rows[0];
    if (receipt) await receipt.save(tx, item);
    return item;
  });
}

/** The fields a PATCH may set, in the order of the statement's SET list; null clears an optional code. */
const PATCHABLE = [
  'name',
  'price',
  'unit_code',
  'ntin',
  'gtin',
  'vat_rate_bps',
  'section_code',
  'position_type',
  'archived',
] as const;

export async function updateCatalogItem(
  deps: Pick<Deps, 'db' | 'config'>,
  ctx: Tenant,
  id: string,
  patch: CatalogItemPatch,
): Promise<CatalogItem> {
  const checked: Partial<Record<(typeof PATCHABLE)[number], unknown>> = {};
  if (patch.name !== undefined) checked.name = checkName(patch.name, 'name');
  if (patch.price !== undefined) checked.price = checkPrice(patch.price, deps.config.amountMax);
  if (patch.unit_code !== undefined) checked.unit_code = checkUnitCode(patch.unit_code, 'unit_code');
  if (patch.ntin !== undefined) checked.ntin = checkNtin(patch.ntin, 'ntin');
  if (patch.gtin !== undefined) checked.gtin = checkGtin(patch.gtin, 'gtin');
  if (patch.vat_rate_bps !== undefined) checked.vat_rate_bps = checkVatRate(patch.vat_rate_bps, 'vat_rate_bps');
  if (patch.section_code !== undefined) checked.section_code = checkSectionCode(patch.section_code, 'section_code');
  if (patch.position_type !== undefined)
    checked.position_type = checkPositionType(patch.position_type, 'position_type');
  if (patch.archived !== undefined) checked.archived = patch.archived;
  const cols = PATCHABLE.filter((c) => c in checked);
  // An empty PATCH reads the item as it is (and is 404 for another tenant's id, like any other).
  if (cols.length === 0) return findCatalogItem(deps.db, ctx, id);
  const params: unknown[] = [id, ctx.clientId, ctx.mode];
  const sets = cols.map((c) => `${c} = $${params.push(checked[c])}`);
  const r = await deps.db.query<CatalogItem>(
    `UPDATE catalog_items SET ${sets.join(', ')}, updated_at = now()
      WHERE id = $1 AND client_id = $2 AND mode = $3 RETURNING ${CATALOG_COLUMNS}`,
    params,
  );
  if (!r.rows[0]) throw catalogNotFound(id);
  return r.rows[0];
}

/** DELETE: archives; an item already archived is answered as it is (the call is idempotent). */
export async function archiveCatalogItem(deps: DbDeps, ctx: Tenant, id: string): Promise<CatalogItem> {
  const item = await findCatalogItem(deps.db, ctx, id);
  if (item.archived) return item;
  const r = await deps.db.query<CatalogItem>(
    `UPDATE catalog_items SET archived = true, updated_at = now()
      WHERE id = $1 AND client_id = $2 AND mode = $3 RETURNING ${CATALOG_COLUMNS}`,
    [id, ctx.clientId, ctx.mode],
  );
  return r.rows[0];
}

/** `%`, `_` and `\` in a search text are matched as themselves. */
const likeEscape = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listCatalogItems(
  deps: DbSecretsDeps,
  scope: Tenant,
  filters: { q?: string; archived?: boolean },
  paging: Paging,
): Promise<PageResult<CatalogItem>> {
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: 'v2.catalog_items',
      filters: { mode: scope.mode, q: filters.q, archived: filters.archived },
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after, take) => {
      const where = ['client_id = $1', 'mode = $2'];
      const params: unknown[] = [scope.clientId, scope.mode];
      // Case-insensitive substring of the name; lower() on both sides folds Cyrillic too.
      if (filters.q) where.push(`lower(name) LIKE '%' || lower($${params.push(likeEscape(filters.q))}) || '%'`);
      if (filters.archived !== undefined) where.push(`archived = $${params.push(filters.archived)}`);
      if (after) where.push(`(created_at, id) < ($${params.push(after.createdAt)}, $${params.push(after.id)})`);
      const r = await deps.db.query<CatalogItem>(
        `SELECT ${CATALOG_COLUMNS} FROM catalog_items WHERE ${where.join(' AND ')}
          ORDER BY created_at DESC, id DESC LIMIT ${take}`,
        params,
      );
      return r.rows;
    },
    (i) => i.id,
  );
}
