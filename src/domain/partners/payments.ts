// The payments of a partner's clients (decisions 22), in the key's mode: one keyset list over all of them
// on operations_partner_page_idx (the operation carries its client's partner), or one client's on the
// client's own index; each item names its client by both ids.
import type { DbDeps, DbSecretsDeps } from '../../deps.ts';
import type { Mode } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import { page, type PageResult, type Paging } from '../pagination.ts';
import { ITEM_COLUMNS, type ListedOperation } from '../payments/operations.ts';

export type PartnerPayment = ListedOperation & { client_id: number; external_id: string | null };

const COLUMNS = `${ITEM_COLUMNS.split(',')
  .map((c) => `o.${c.trim()}`)
  .join(', ')}, o.client_id, c.external_id`;

export async function listPartnerPayments(
  deps: DbSecretsDeps,
  scope: { partnerId: number; mode: Mode },
  filters: { clientId?: number; status?: string; type?: string },
  paging: Paging,
): Promise<PageResult<PartnerPayment>> {
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: 'partner.v1.payments',
      filters: { mode: scope.mode, client: filters.clientId, status: filters.status, type: filters.type },
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after, take) => {
      const params: unknown[] = [scope.partnerId, scope.mode];
      // The partner condition stays with a client filter too: it is what keeps another partner's client out.
      const where = ['o.partner_id = $1', 'o.mode = $2'];
      if (filters.clientId !== undefined) where.push(`o.client_id = $${params.push(filters.clientId)}`);
      if (filters.status) where.push(`o.status = $${params.push(filters.status)}`);
      if (filters.type) where.push(`o.type = $${params.push(filters.type)}`);
      if (after) where.push(`(o.created_at, o.id) < ($${params.push(after.createdAt)}, $${params.push(after.id)})`);
      const r = await deps.db.query<PartnerPayment>(
        `SELECT ${COLUMNS} FROM operations o JOIN clients c ON c.id = o.client_id
          WHERE ${where.join(' AND ')} ORDER BY o.created_at DESC, o.id DESC LIMIT ${take}`,
        params,
      );
      return r.rows;
    },
    (op) => op.id,
  );
}

export async function getPartnerPayment(
  deps: DbDeps,
  scope: { partnerId: number; mode: Mode },
  operationId: string,
): Promise<PartnerPayment> {
  const r = await deps.db.query<PartnerPayment>(
    `SELECT ${COLUMNS} FROM operations o JOIN clients c ON c.id = o.client_id
      WHERE o.id = $1 AND o.partner_id = $2 AND o.mode = $3`,
    [operationId, scope.partnerId, scope.mode],
  );
  if (!r.rows[0]) throw new AppError('payment_not_found', `payment ${operationId} not found`);
  return r.rows[0];
}
