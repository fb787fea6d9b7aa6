// The operation record and its public shapes. Every read takes the tenant (architecture rule 3):
// another client's operation, or the other mode's, is simply not found.
import type { Queryable } from '../../db/db.ts';
import type { Mode } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import type { OperationStatus, OperationType } from './state.ts';

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
  items: unknown;
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
  created_at: Date;
  updated_at: Date;
  paid_at: Date | null;
  expires_at: Date;
}

export const OP_COLUMNS = `id, seq, client_id, mode, type, status, amount, refunded_amount, comment, items, phone,
  sender_name, transaction_id, provider_account_id, provider_ref, raw_provider_status, qr_token, deep_link, source,
  link_token, metadata, created_at, updated_at, paid_at, expires_at`;
/** OP_COLUMNS of an `operations o` in a join. */
export const OP_COLUMNS_O = OP_COLUMNS.split(',')
  .map((c) => `o.${c.trim()}`)
  .join(', ');

export async function findOperation(
  db: Queryable,
  clientId: number,
  mode: Mode,
  id: string,
  lock = false,
): Promise<Operation> {
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

/** Where an operation was made (subscription: a plan QR, on the platform client). */
export const SOURCES = ['api', 'cabinet', 'payment_link', 'v1', 'subscription'] as const;
