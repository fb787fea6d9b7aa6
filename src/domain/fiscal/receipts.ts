// Receipts as the API shows them (decisions 27): a cursor list with filters, one receipt, a retry of a failed
// one, and sending it to the payer by e-mail or SMS through the outbox. Reads take the tenant: another
// client's receipt, or the other mode's, is not found.
import type { DbDeps, DbSecretsDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { checkEmail } from '../addresses.ts';
import { enqueueMessage } from '../channels/outbox.ts';
import { page, type PageResult, type Paging } from '../pagination.ts';
import { normalizePhone } from '../payments/input.ts';
import type { Tenant } from '../tenant.ts';
import { RECEIPTS_CHANNEL } from './enqueue.ts';
import { RECEIPT_COLUMNS, requeue, type FiscalReceipt, type ReceiptStatus } from './receipts-store.ts';

export interface ReceiptFilters {
  operation_id?: string;
  status?: ReceiptStatus;
  kind?: 'sale' | 'return';
}

export async function listReceipts(
  deps: DbSecretsDeps,
  tenant: Tenant,
  filters: ReceiptFilters,
  paging: Paging,
): Promise<PageResult<FiscalReceipt>> {
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: 'v2.receipts',
      filters: { mode: tenant.mode, ...filters },
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after, take) => {
      const params: unknown[] = [tenant.clientId, tenant.mode];
      const where = ['client_id = $1', 'mode = $2'];
      if (filters.operation_id) where.push(`operation_id = $${params.push(filters.operation_id)}`);
      if (filters.status) where.push(`status = $${params.push(filters.status)}`);
      if (filters.kind) where.push(`kind = $${params.push(filters.kind)}`);
      if (after) where.push(`(created_at, id) < ($${params.push(after.createdAt)}, $${params.push(after.id)})`);
      const r = await deps.db.query<FiscalReceipt>(
        `SELECT ${RECEIPT_COLUMNS} FROM fiscal_receipts WHERE ${where.join(' AND ')}
          ORDER BY created_at DESC, id DESC LIMIT ${take}`,
        params,
      );
      return r.rows;
    },
    (r) => r.id,
  );
}

export async function getReceipt(deps: DbDeps, tenant: Tenant, id: string): Promise<FiscalReceipt> {
  const r = await deps.db.query<FiscalReceipt>(
    `SELECT ${RECEIPT_COLUMNS} FROM fiscal_receipts WHERE id = $1 AND client_id = $2 AND mode = $3`,
    [id, tenant.clientId, tenant.mode],
  );
  if (!r.rows[0]) throw new AppError('receipt_not_found', `no receipt ${id}`);
  return r.rows[0];
}

export type PaymentReceiptRef = Pick<FiscalReceipt, 'id' | 'status' | 'check_url'>;

/** An operation's sale receipt as its GET shows it (decisions 27), or null. */
export async function paymentReceipt(deps: DbDeps, opId: string): Promise<PaymentReceiptRef | null> {
  const r = await deps.db.query<PaymentReceiptRef>(
    `SELECT id, status, check_url FROM fiscal_receipts WHERE operation_id = $1 AND kind = 'sale'`,
    [opId],
  );
  return r.rows[0] ?? null;
}

/** The receipts of some operations (a page of payments), newest kind first: the payment's `receipt` field. */
export async function saleReceiptsOf(
  deps: DbDeps,
  tenant: Tenant,
  operationIds: string[],
): Promise<Map<string, Pick<FiscalReceipt, 'id' | 'status' | 'check_url'>>> {
  if (!operationIds.length) return new Map();
  const r = await deps.db.query<Pick<FiscalReceipt, 'id' | 'status' | 'check_url' | 'operation_id'>>(
    `SELECT id, status, check_url, operation_id FROM fiscal_receipts
      WHERE client_id = $1 AND mode = $2 AND kind = 'sale' AND operation_id = ANY($3::text[])`,
    [tenant.clientId, tenant.mode, operationIds],
  );
  return new Map(r.rows.map((x) => [x.operation_id, { id: x.id, status: x.status, check_url: x.check_url }]));
}

/** A failed receipt is tried again, for another 24 hours (409 receipt_not_failed otherwise). */
export async function retryReceipt(deps: DbDeps, tenant: Tenant, id: string): Promise<FiscalReceipt> {
  await getReceipt(deps, tenant, id);
  return deps.db.tx(async (tx) => {
    const r = await requeue(tx, id);
    if (!r) throw new AppError('receipt_not_failed', `receipt ${id} is not failed; only a failed receipt is retried`);
    await tx.query(`SELECT pg_notify('${RECEIPTS_CHANNEL}', '')`);
    return r;
  });
}

/** Sends an issued receipt's check link to the payer (e-mail or SMS), through the outbox. */
export async function sendReceipt(
  deps: DbDeps,
  tenant: Tenant,
  id: string,
  to: { email?: string; phone?: string },
): Promise<{ receipt_id: string; channel: 'email' | 'sms'; recipient: string }> {
  const rc = await getReceipt(deps, tenant, id);
  if (!to.email === !to.phone)
    throw new AppError('invalid_parameter', 'give either email or phone', { param: to.email ? 'phone' : 'email' });
  if (rc.status !== 'issued' || !rc.check_url)
    throw new AppError('invalid_parameter', `receipt ${id} is ${rc.status}: only an issued receipt is sent`, {
      param: 'id',
    });
  const channel = to.email ? 'email' : 'sms';
  const recipient = to.email ? checkEmail(to.email, 'email') : normalizePhone(to.phone!, 'phone');
  const what = rc.kind === 'sale' ? 'Фискальный чек / Фискалдық чек / Fiscal receipt' : 'Чек возврата / Return receipt';
  const body =
    channel === 'email'
      ? `${what}: ${rc.amount} ₸, ФП ${rc.fiscal_sign}\n\n` +
        `Проверить чек / Чекті тексеру / Check it: ${rc.check_url}\n`
      : `${rc.kind === 'sale' ? 'Чек' : 'Чек возврата'} ${rc.amount} ₸: ${rc.check_url}`;
  await enqueueMessage(deps.db, {
    channel,
    recipient,
    subject: channel === 'email' ? `${what} ${rc.amount} ₸` : undefined,
    body,
    clientId: tenant.clientId,
    purpose: 'fiscal_receipt',
  });
  return { receipt_id: id, channel, recipient };
}
