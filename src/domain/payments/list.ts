// The payments list of a client and mode: keyset pages, newest first, by status, type and the search's filters
// (search.ts). The cursor is bound to the endpoint and the checked filters, so a page after the first is the
// next page of the same search, whatever filters it combines.
import type { DbSecretsDeps } from '../../deps.ts';
import type { Tenant } from '../tenant.ts';
import { page, type PageResult, type Paging } from '../pagination.ts';
import { ITEM_COLUMNS, type ListedOperation } from './operations.ts';
import { cursorFilters, parsePaymentSearch, searchConditions, type PaymentSearchInput } from './search.ts';

export type PaymentFilters = PaymentSearchInput;

export async function listOperations(
  deps: DbSecretsDeps,
  scope: Tenant & { endpoint: string },
  filters: PaymentFilters,
  paging: Paging,
): Promise<PageResult<ListedOperation>> {
  const search = parsePaymentSearch(filters);
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: scope.endpoint,
      filters: { mode: scope.mode, ...cursorFilters(search) },
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after, take) => {
      const params: unknown[] = [scope.clientId, scope.mode];
      const where = ['client_id = $1', 'mode = $2', ...searchConditions(search, params)];
      if (after) where.push(`(created_at, id) < ($${params.push(after.createdAt)}, $${params.push(after.id)})`);
      const r = await deps.db.query<ListedOperation>(
        `SELECT ${ITEM_COLUMNS} FROM operations WHERE ${where.join(' AND ')}
          ORDER BY created_at DESC, id DESC LIMIT ${take}`,
        params,
      );
      return r.rows;
    },
    (op) => op.id,
  );
}

/** The first `limit` rows of a search, newest first (the CSV export: one page of its own size). */
export async function newestOperations(
  deps: DbSecretsDeps,
  tenant: Tenant,
  filters: PaymentFilters,
  limit: number,
): Promise<ListedOperation[]> {
  const { clientId, mode } = tenant;
  return (await listOperations(deps, { clientId, mode, endpoint: 'me.payments.export' }, filters, { limit })).data;
}
