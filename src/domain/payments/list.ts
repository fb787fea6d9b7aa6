// The payments list of a client and mode: keyset pages, newest first, by status and type.
import type { DbSecretsDeps } from '../../deps.ts';
import type { Tenant } from '../tenant.ts';
import { page, type PageResult, type Paging } from '../pagination.ts';
import { ITEM_COLUMNS, type ListedOperation } from './operations.ts';

export interface PaymentFilters {
  status?: string;
  type?: string;
}

export async function listOperations(
  deps: DbSecretsDeps,
  scope: Tenant & { endpoint: string },
  filters: PaymentFilters,
  paging: Paging,
): Promise<PageResult<ListedOperation>> {
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: scope.endpoint,
      filters: { mode: scope.mode, ...filters },
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after, take) => {
      const where = ['client_id = $1', 'mode = $2'];
      const params: unknown[] = [scope.clientId, scope.mode];
      if (filters.status) where.push(`status = $${params.push(filters.status)}`);
      if (filters.type) where.push(`type = $${params.push(filters.type)}`);
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

/** The cabinet's list: no cursor, newest first. */
export async function recentOperations(
  deps: DbSecretsDeps,
  tenant: Tenant,
  status: string | undefined,
  limit: number,
): Promise<ListedOperation[]> {
  const { clientId, mode } = tenant;
  return (await listOperations(deps, { clientId, mode, endpoint: 'me.payments' }, { status }, { limit })).data;
}
