// What a payer sees of one operation at its own page /pay/{op_id} (decisions 26), and of an r2 refund's
// return QR at /pay/{op_id}/refunds/{refund_id}. Read-only: the QR watcher and the expiry sweeper settle
// live QRs with the provider, so a page polled every few seconds by every open phone never causes a
// provider call of its own (nor gives anyone holding an address a way to cause them).
//
// These reads take no tenant: the address is the payer's link, so the operation of any client, in either
// mode, is found by its id alone. That is why only a payer's fields are selected here, never metadata,
// customer data, provider references or the client's ids beyond what finds its branding.
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../errors.ts';
import type { Mode } from '../tenant.ts';
import type { OperationStatus } from './state.ts';

// The addresses of these pages are made by payer-url.ts (payerPageUrl, returnPageUrl).

// Ids as newId makes them (a prefix and a ULID). Anything else is not found without asking the store.
const OP_ID = /^op_[0-9A-HJKMNP-TV-Z]{26}$/;
const REFUND_ID = /^rf_[0-9A-HJKMNP-TV-Z]{26}$/;

export interface PayerPayment {
  id: string;
  /** only to find the merchant's public branding; never shown */
  client_id: number;
  mode: Mode;
  status: OperationStatus;
  amount: number;
  comment: string | null;
  /** what the QR image encodes, as the provider gave it (a digit string for live QRs, a URL in the sandbox) */
  qr_token: string;
  expires_at: Date;
  paid_at: Date | null;
}

export interface PayerPaymentStatus {
  status: OperationStatus;
  paid_at: Date | null;
  expires_at: Date;
}

const notFound = () => new AppError('payment_not_found', 'no payment with a QR has this id');

/** The operation of a payer page; only operations with a QR have one (an invoice without a QR does not). */
export async function findPayerPayment(db: Queryable, opId: string): Promise<PayerPayment> {
  if (!OP_ID.test(opId)) throw notFound();
  const r = await db.query<PayerPayment>(
    `SELECT id, client_id, mode, status, amount, comment, qr_token, expires_at, paid_at
       FROM operations WHERE id = $1 AND qr_token IS NOT NULL`,
    [opId],
  );
  if (!r.rows[0]) throw notFound();
  return r.rows[0];
}

/** What the page polls: the three columns, by primary key. */
export async function payerPaymentStatus(db: Queryable, opId: string): Promise<PayerPaymentStatus> {
  if (!OP_ID.test(opId)) throw notFound();
  const r = await db.query<PayerPaymentStatus>(
    'SELECT status, paid_at, expires_at FROM operations WHERE id = $1 AND qr_token IS NOT NULL',
    [opId],
  );
  if (!r.rows[0]) throw notFound();
  return r.rows[0];
}

export type RefundStatus = 'pending' | 'completed' | 'failed';

export interface PayerRefund {
  id: string;
  operation_id: string;
  /** only to find the merchant's public branding; never shown */
  client_id: number;
  mode: Mode;
  amount: number;
  status: RefundStatus;
  /** the provider's step of the return (r2), as recorded by the return watcher */
  return_status: string | null;
  return_qr_token: string;
  return_expires_at: Date | null;
  /** the amount of the payment refunded */
  payment_amount: number;
}

export interface PayerRefundStatus {
  status: RefundStatus;
  return_status: string | null;
  expires_at: Date | null;
}

const refundNotFound = () => new AppError('not_found', 'no refund with a return QR has this id on this payment');

/** A refund with a return QR (r2) of this operation; another operation's refund is not found. */
export async function findPayerRefund(db: Queryable, opId: string, refundId: string): Promise<PayerRefund> {
  if (!OP_ID.test(opId) || !REFUND_ID.test(refundId)) throw refundNotFound();
  const r = await db.query<PayerRefund>(
    `SELECT r.id, r.operation_id, o.client_id, o.mode, r.amount, r.status, r.return_status, r.return_qr_token,
            r.return_expires_at, o.amount AS payment_amount
       FROM refunds r JOIN operations o ON o.id = r.operation_id
      WHERE r.id = $1 AND r.operation_id = $2 AND r.return_qr_token IS NOT NULL`,
    [refundId, opId],
  );
  if (!r.rows[0]) throw refundNotFound();
  return r.rows[0];
}

export async function payerRefundStatus(db: Queryable, opId: string, refundId: string): Promise<PayerRefundStatus> {
  if (!OP_ID.test(opId) || !REFUND_ID.test(refundId)) throw refundNotFound();
  const r = await db.query<PayerRefundStatus>(
    `SELECT status, return_status, return_expires_at AS expires_at FROM refunds
      WHERE id = $1 AND operation_id = $2 AND return_qr_token IS NOT NULL`,
    [refundId, opId],
  );
  if (!r.rows[0]) throw refundNotFound();
  return r.rows[0];
}
