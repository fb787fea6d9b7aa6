// The fiscal_receipts table's statements (owner: domain/fiscal). A receipt is made pending in the
// transaction that made its payment paid or its refund completed; the sending job moves it to issued or
// failed. The unique indexes on (operation_id) for sales and (refund_id) for returns are what make "never
// two receipts for one payment" hold under any race: a second insert does nothing.
import type { Queryable } from '../../db/db.ts';
import type { IssuedFiscalReceipt } from '../../fiscal/types.ts';
import type { Mode } from '../tenant.ts';
import type { itemsOf } from './lines.ts';

export type ReceiptStatus = 'pending' | 'issued' | 'failed';

export interface FiscalReceipt {
  id: string;
  client_id: number;
  mode: Mode;
  kind: 'sale' | 'return';
  operation_id: string;
  refund_id: string | null;
  register_id: string;
  status: ReceiptStatus;
  offline: boolean;
  amount: number;
  payment_type: 'mobile' | 'card';
  items: ReturnType<typeof itemsOf>;
  customer_email: string | null;
  fiscal_sign: string | null;
  registration_number: string | null;
  shift_number: number | null;
  check_url: string | null;
  ticket_url: string | null;
  ref: string | null;
  issued_at: Date | null;
  error: { code: string; message: string } | null;
  attempts: number;
  next_attempt_at: Date;
  sent_at: Date | null;
  give_up_at: Date;
  created_at: Date;
}

export const RECEIPT_COLUMNS = `id, client_id, mode, kind, operation_id, refund_id, register_id, status, offline,
  amount, payment_type, items, customer_email, fiscal_sign, registration_number, shift_number, check_url,
  ticket_url, ref, issued_at, error, attempts, next_attempt_at, sent_at, give_up_at, created_at`;

/** How long a receipt is retried before it fails (decisions 27). */
export const RETRY_FOR_MS = 24 * 3600_000;

export interface NewReceipt {
  id: string;
  client_id: number;
  mode: Mode;
  kind: 'sale' | 'return';
  operation_id: string;
  refund_id: string | null;
  register_id: string;
  amount: number;
  payment_type: 'mobile' | 'card';
  items: ReturnType<typeof itemsOf>;
  customer_email: string | null;
}

/** Inserts a pending receipt; null when the payment (or refund) already has one. */
export async function insertReceipt(tx: Queryable, r: NewReceipt): Promise<string | null> {
  const res = await tx.query<{ id: string }>(
    `INSERT INTO fiscal_receipts (id, client_id, mode, kind, operation_id, refund_id, register_id, amount,
            payment_type, items, customer_email, give_up_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, now() + make_interval(secs => $12))
     ON CONFLICT DO NOTHING RETURNING id`,
    [
      r.id,
      r.client_id,
      r.mode,
      r.kind,
      r.operation_id,
      r.refund_id,
      r.register_id,
      r.amount,
      r.payment_type,
      JSON.stringify(r.items),
      r.customer_email,
      RETRY_FOR_MS / 1000,
    ],
  );
  return res.rows[0]?.id ?? null;
}

/** A register's due receipts in the order they were made (a return after its sale), at most `take`. */
export async function dueReceipts(db: Queryable, registerId: string, take: number): Promise<FiscalReceipt[]> {
  const r = await db.query<FiscalReceipt>(
    `SELECT ${RECEIPT_COLUMNS} FROM fiscal_receipts
      WHERE register_id = $1 AND status = 'pending' AND next_attempt_at <= now()
      ORDER BY created_at, id LIMIT ${Math.trunc(take)}`,
    [registerId],
  );
  return r.rows;
}

export async function findReceiptById(db: Queryable, id: string, lock = false): Promise<FiscalReceipt | null> {
  const r = await db.query<FiscalReceipt>(
    `SELECT ${RECEIPT_COLUMNS} FROM fiscal_receipts WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return r.rows[0] ?? null;
}

/** The sale receipt of an operation (a return's basis). */
export async function saleReceiptOf(db: Queryable, operationId: string): Promise<FiscalReceipt | null> {
  const r = await db.query<FiscalReceipt>(
    `SELECT ${RECEIPT_COLUMNS} FROM fiscal_receipts WHERE operation_id = $1 AND kind = 'sale'`,
    [operationId],
  );
  return r.rows[0] ?? null;
}

/** Marks that a request for this receipt is about to go out: from now on a resend looks it up first. */
export async function markSending(db: Queryable, id: string): Promise<void> {
  await db.query(
    `UPDATE fiscal_receipts SET sent_at = now(), attempts = attempts + 1, updated_at = now()
      WHERE id = $1 AND status = 'pending'`,
    [id],
  );
}

/** The receipt is issued; false when it was not pending (nothing written twice). */
export async function markIssued(tx: Queryable, id: string, i: IssuedFiscalReceipt): Promise<FiscalReceipt | null> {
  const r = await tx.query<FiscalReceipt>(
    `UPDATE fiscal_receipts SET status = 'issued', fiscal_sign = $2, registration_number = $3, shift_number = $4,
            issued_at = $5, offline = $6, check_url = $7, ticket_url = $8, ref = $9, error = NULL,
            updated_at = now()
      WHERE id = $1 AND status = 'pending' RETURNING ${RECEIPT_COLUMNS}`,
    [id, i.fiscalSign, i.registrationNumber, i.shiftNumber, i.issuedAt, i.offline, i.checkUrl, i.ticketUrl, i.ref],
  );
  return r.rows[0] ?? null;
}

/** Sends it again later (`delayMs`), with the error that held it back; not a failure yet. */
export async function postpone(
  db: Queryable,
  id: string,
  delayMs: number,
  error: { code: string; message: string } | null,
): Promise<void> {
  await db.query(
    `UPDATE fiscal_receipts SET next_attempt_at = now() + make_interval(secs => $2), error = $3::jsonb,
            updated_at = now()
      WHERE id = $1 AND status = 'pending'`,
    [id, delayMs / 1000, error ? JSON.stringify(error) : null],
  );
}

export async function markFailed(
  tx: Queryable,
  id: string,
  error: { code: string; message: string },
): Promise<FiscalReceipt | null> {
  const r = await tx.query<FiscalReceipt>(
    `UPDATE fiscal_receipts SET status = 'failed', error = $2::jsonb, updated_at = now()
      WHERE id = $1 AND status = 'pending' RETURNING ${RECEIPT_COLUMNS}`,
    [id, JSON.stringify(error)],
  );
  return r.rows[0] ?? null;
}

/** A failed receipt back to pending for 24 more hours of attempts (POST /v2/receipts/{id}/retry). */
export async function requeue(tx: Queryable, id: string): Promise<FiscalReceipt | null> {
  const r = await tx.query<FiscalReceipt>(
    `UPDATE fiscal_receipts SET status = 'pending', next_attempt_at = now(), attempts = 0,
            give_up_at = now() + make_interval(secs => $2), updated_at = now()
      WHERE id = $1 AND status = 'failed' RETURNING ${RECEIPT_COLUMNS}`,
    [id, RETRY_FOR_MS / 1000],
  );
  return r.rows[0] ?? null;
}

export async function pendingCount(db: Queryable, registerId: string): Promise<number> {
  const r = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM fiscal_receipts WHERE register_id = $1 AND status = 'pending'`,
    [registerId],
  );
  return r.rows[0].n;
}
