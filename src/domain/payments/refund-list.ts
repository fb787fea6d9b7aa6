// The refunds of one payment, newest first, in keyset pages (a payment may be refunded in many parts). The
// payment is looked up in the tenant first, so another client's payment, or the other mode's, is not found.
import type { DbSecretsDeps } from '../../deps.ts';
import type { Tenant } from '../tenant.ts';
import { page, type PageResult, type Paging } from '../pagination.ts';
import { findOperation } from './operations.ts';
import type { RefundLine } from './refund-lines.ts';

export interface ListedRefund {
  id: string;
  operation_id: string;
  amount: number;
  status: 'completed' | 'pending' | 'failed';
  reason: string | null;
  created_at: Date;
  items: RefundLine[] | null;
}

export async function listRefunds(
  deps: DbSecretsDeps,
  tenant: Tenant & { endpoint: string },
  operationId: string,
  paging: Paging,
): Promise<PageResult<ListedRefund>> {
  const op = await findOperation(deps.db, tenant, operationId);
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: tenant.endpoint,
      filters: { mode: tenant.mode, op: op.id },
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after, take) => {
      const params: unknown[] = [op.id, tenant.clientId, tenant.mode];
      // refunds_operation_idx finds the payment's few refunds; the order is a sort of those.
      const keyset = after
        ? ` AND (created_at, id) < ($${params.push(after.createdAt)}, $${params.push(after.id)})`
        : '';
      const r = await deps.db.query<ListedRefund>(
        `SELECT id, operation_id, amount, status, reason, created_at, items FROM refunds
          WHERE operation_id = $1 AND client_id = $2 AND mode = $3${keyset}
          ORDER BY created_at DESC, id DESC LIMIT ${take}`,
        params,
      );
      return r.rows;
    },
    (rf) => rf.id,
  );
}
