// The operation record and its public shapes. Every read takes the tenant (architecture rule 3):
// another client's operation, or the other mode's, is simply not found.
import type { Queryable } from '../../db/db.ts';
import type { Mode, Tenant } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import type { OperationStatus, OperationType } from './state.ts';
import type { Line } from './line-items.ts';

export interface Operation {
  id: string;
  seq: number;
  client_id: number;
  mode: Mode;
  type: OperationType;
  status: OperationStatus;
  amount: number;
  refunded_amount: number;
  comment: string | null;
  items: Line[] | null;
  phone: string | null;
  sender_name: string | null;
  transaction_id: string | null;
  provider_account_id: number;
  provider_ref: string;
  raw_provider_status: string | null;
  qr_token: string | null;
  deep_link: string | null;
  source: (typeof SOURCES)[number];
  link_token: string | null;
  metadata: Record<string, unknown> | null;
  /** decisions 28: the counter a QR was made at, and the team member (user id) who made it there */
  counter_id: string | null;
  cashier_id: number | null;
  created_at: Date;
  updated_at: Date;
  paid_at: Date | null;
  expires_at: Date;
}

export const OP_COLUMNS = `id, seq, client_id, mode, type, status, amount, refunded_amount, comment, items, phone,
  sender_name, transaction_id, provider_account_id, provider_ref, raw_provider_status, qr_token, deep_link, source,
  link_token, metadata, counter_id, cashier_id, created_at, updated_at, paid_at, expires_at`;
/** OP_COLUMNS of an `operations o` in a join. */
export const OP_COLUMNS_O = OP_COLUMNS.split(',')
  .map((c) => `o.${c.trim()}`)
  .join(', ');

export async function findOperation(db: Queryable, tenant: Tenant, id: string, lock = false): Promise<Operation> {
  const { clientId, mode } = tenant;
  const r = await db.query<Operation>(
    `SELECT ${OP_COLUMNS} FROM operations WHERE id = $1 AND client_id = $2 AND mode = $3${lock ? ' FOR UPDATE' : ''}`,
    [id, clientId, mode],
  );
  if (!r.rows[0]) throw new AppError('payment_not_found', `no payment ${id}`);
  return r.rows[0];
}

/** What lists show of an operation (PaymentItem, the CSV export): they read these columns only. */
export const ITEM_COLUMNS = `id, type, status, amount, refunded_amount, comment, phone, sender_name, transaction_id,
  provider_account_id, source, link_token, mode, created_at, paid_at, expires_at`;
export type ListedOperation = Pick<
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
  | 'provider_account_id'
  | 'source'
  | 'link_token'
  | 'mode'
  | 'created_at'
  | 'paid_at'
  | 'expires_at'
>;

/** Where an operation was made (subscription: a plan QR, on the platform client; counter: decisions 28). */
export const SOURCES = ['api', 'cabinet', 'payment_link', 'v1', 'subscription', 'counter'] as const;

/**
 * Claims up to `batch` waiting operations past their deadline with a 30-second sweep lease, FOR UPDATE SKIP
 * LOCKED so that several workers split them (jobs/expiry.ts settles each with the provider).
 */
export async function claimDueExpiries(db: Queryable, batch: number): Promise<Operation[]> {
  const r = await db.query<Operation>(
    `UPDATE operations SET sweep_locked_until = now() + interval '30 seconds'
      WHERE id IN (SELECT id FROM operations
                    WHERE status = 'created' AND expires_at <= now()
                      AND (sweep_locked_until IS NULL OR sweep_locked_until < now())
                    ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING ${OP_COLUMNS}`,
    [batch],
  );
  return r.rows;
}

/** Any client's operation with the driver of its provider account (the operator's tools only). */
export async function findWithDriver(
  db: Queryable,
  opId: string,
): Promise<(Operation & { driver: string }) | undefined> {
  const r = await db.query<Operation & { driver: string }>(
    `SELECT ${OP_COLUMNS_O}, a.driver
       FROM operations o JOIN provider_accounts a ON a.id = o.provider_account_id WHERE o.id = $1`,
    [opId],
  );
  return r.rows[0];
}
