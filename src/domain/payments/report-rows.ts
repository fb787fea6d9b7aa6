// Every payment of a tenant created in a range, oldest first, read in keyset batches of REPORT_BATCH rows by
// (created_at, id), each batch its own short query on a pooled connection: an export of any size holds at most
// one batch in memory and no connection or transaction while the client downloads. A caller that stops
// iterating (the client went away) stops the reading at the next batch.
// Beside the payment, its sale receipt's status and fiscal sign (decisions 27): one LEFT JOIN on the receipt's
// unique (operation_id) WHERE kind = 'sale' index, so never more than one row per payment.
import type { DbDeps } from '../../deps.ts';
import type { Tenant } from '../tenant.ts';
import type { Operation } from './operations.ts';
import type { ReportRange } from './report-range.ts';

export const REPORT_BATCH = 1000;

export type ReportRow = Pick<
  Operation,
  | 'id'
  | 'type'
  | 'status'
  | 'amount'
  | 'refunded_amount'
  | 'comment'
  | 'phone'
  | 'sender_name'
  | 'transaction_id'
  | 'source'
  | 'created_at'
  | 'paid_at'
> & { receipt_status: string | null; fiscal_sign: string | null };

export async function* reportRows(
  deps: DbDeps,
  tenant: Tenant,
  range: ReportRange,
  batch = REPORT_BATCH,
): AsyncGenerator<ReportRow[]> {
  // The key is carried as the database's own text of created_at: a JS Date keeps milliseconds, the column
  // microseconds, and a key cut to milliseconds would repeat or skip rows of the same millisecond.
  let after: { at: string; id: string } | null = null;
  for (;;) {
    const params: unknown[] = [tenant.clientId, tenant.mode, range.from, range.to];
    const keyset = after
      ? `AND (o.created_at, o.id) > ($${params.push(after.at)}::timestamptz, $${params.push(after.id)})`
      : '';
    const r: { rows: (ReportRow & { key_at: string })[] } = await deps.db.query(
      `SELECT o.id, o.type, o.status, o.amount, o.refunded_amount, o.comment, o.phone, o.sender_name,
              o.transaction_id, o.source, o.created_at, o.paid_at, o.created_at::text AS key_at,
              fr.status AS receipt_status, fr.fiscal_sign
         FROM operations o
         LEFT JOIN fiscal_receipts fr ON fr.operation_id = o.id AND fr.kind = 'sale'
        WHERE o.client_id = $1 AND o.mode = $2 AND o.created_at >= $3 AND o.created_at < $4 ${keyset}
        ORDER BY o.created_at, o.id LIMIT ${batch}`,
      params,
    );
    if (!r.rows.length) return;
    const last = r.rows[r.rows.length - 1];
    after = { at: last.key_at, id: last.id };
    yield r.rows.map(({ key_at: _, ...row }) => row);
    if (r.rows.length < batch) return;
  }
}
