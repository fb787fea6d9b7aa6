// Status changes with their journal events, in one transaction (the outbox). The UPDATE is guarded by
// the status we saw, so when two actors race (the sweeper and a read, two callbacks) exactly one wins
// and exactly one event is written. What else a payment becoming paid causes (its link's bookkeeping, plan
// notices, later commissions) is a subscriber of `afterPaymentPaid`, run in the same transaction.
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../errors.ts';
import { appendEvent } from '../events/append.ts';
import type { JournalEventType } from '../events/types.ts';
import { eventToken } from '../ids.ts';
import { TxHooks } from '../tx-hooks.ts';
import { OP_COLUMNS, type Operation } from './operations.ts';
import { canTransition, type OperationStatus } from './state.ts';

/** Reactions to a payment that has just become paid (after its payment.completed event). */
export const afterPaymentPaid = new TxHooks<Operation>('payment paid');

export async function transition(
  tx: Queryable,
  op: Operation,
  to: OperationStatus,
  patch: Partial<
    Pick<Operation, 'paid_at' | 'sender_name' | 'transaction_id' | 'raw_provider_status' | 'phone' | 'refunded_amount'>
  >,
  event?: { type: JournalEventType; data: (next: Operation) => Record<string, unknown> },
): Promise<Operation | null> {
  if (!canTransition(op.status, to, op.type)) {
    throw new AppError('payment_not_cancellable', `payment ${op.id} cannot go from ${op.status} to ${to}`);
  }
  const keys = Object.keys(patch) as (keyof typeof patch)[];
  const sets = keys.map((k, i) => `${k} = $${i + 4}`);
  const r = await tx.query<Operation>(
    `UPDATE operations SET status = $3, updated_at = now()${sets.length ? ', ' + sets.join(', ') : ''}
      WHERE id = $1 AND status = $2 RETURNING ${OP_COLUMNS}`,
    [op.id, op.status, to, ...keys.map((k) => patch[k])],
  );
  const next = r.rows[0];
  if (!next) return null;
  if (event)
    await appendEvent(tx, { clientId: next.client_id, mode: next.mode, type: event.type, data: event.data(next) });
  if (to === 'paid') await afterPaymentPaid.run(tx, next);
  return next;
}

/** What the refund moves below return of the payment. */
export type RefundedTotals = Pick<Operation, 'amount' | 'refunded_amount' | 'client_id' | 'mode'>;

// The refund moves. Refunding reserves its amount first (refund.ts, a guarded UPDATE of refunded_amount
// that leaves the status alone); these two settle it. Each computes the status from the amounts in the
// same statement, so two refunds of one payment settling at once both count (a status read beforehand
// would let the second overwrite the first). The status rule is statusAfterRefund's (state.ts), in SQL.

/** A refund went through: the payment is refunded, or partially, by what is refunded or still reserved. */
export async function markRefunded(tx: Queryable, opId: string): Promise<RefundedTotals> {
  const r = await tx.query<RefundedTotals>(
    `UPDATE operations SET updated_at = now(),
            status = CASE WHEN refunded_amount >= amount THEN 'refunded' ELSE 'partially_refunded' END
      WHERE id = $1 AND status IN ('paid', 'partially_refunded', 'refunded')
      RETURNING amount, refunded_amount, client_id, mode`,
    [opId],
  );
  return r.rows[0];
}

/**
 * A refund failed: the money did not move, so its reserved amount is given back. The status follows what is
 * still refunded or reserved (a refund pending since it was made counted as refunded meanwhile).
 */
export async function releaseRefund(tx: Queryable, opId: string, amount: number): Promise<RefundedTotals> {
  const r = await tx.query<RefundedTotals>(
    `UPDATE operations SET refunded_amount = refunded_amount - $2, updated_at = now(),
            status = CASE WHEN status NOT IN ('paid', 'partially_refunded', 'refunded') THEN status
                          WHEN refunded_amount - $2 > 0 THEN 'partially_refunded' ELSE 'paid' END
      WHERE id = $1 RETURNING amount, refunded_amount, client_id, mode`,
    [opId, amount],
  );
  return r.rows[0];
}

export const completedData = (op: Operation, senderPhone?: string | null) => ({
  operation_id: op.id,
  type: op.type,
  amount: op.amount,
  status: 'paid',
  phone: op.phone ?? senderPhone ?? null,
  sender_name: op.sender_name,
  paid_at: op.paid_at,
  transaction_id: op.transaction_id,
  source: op.source,
  // Events name a link `pl_<token>`, as payment_link.paid does for the same payment (decisions).
  link_token: op.link_token ? eventToken(op.link_token) : null,
  metadata: op.metadata ?? {},
});

export const expiredData = (op: Operation) => ({
  operation_id: op.id,
  type: op.type,
  amount: op.amount,
  expired_at: op.updated_at,
});

export const cancelledData = (reason: string) => (op: Operation) => ({
  operation_id: op.id,
  type: op.type,
  amount: op.amount,
  reason,
});
