// Refunds: several partial refunds up to the paid amount. The amount is reserved on the operation first
// (a guarded UPDATE, so concurrent refunds cannot together exceed the payment), then the provider is
// asked outside any transaction, then the outcome is recorded with its journal event.
import type { Queryable } from '../../db/db.ts';
import type { Deps, Mode } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { appendEvent } from '../events/append.ts';
import { newId } from '../ids.ts';
import { checkAmount } from './input.ts';
import { findOperation } from './operations.ts';
import { providerCall } from './provider-call.ts';
import { providerFor } from './provider-accounts.ts';
import { isPaid } from './state.ts';

export interface RefundResult {
  refund_id: string;
  operation_id: string;
  status: 'completed' | 'pending' | 'failed';
  amount: number;
  refunded_total: number;
  remaining_refundable: number;
  created_at: Date;
}

export async function refundPayment(
  deps: Deps,
  ctx: { clientId: number; mode: Mode; inTx?: (tx: Queryable, r: RefundResult) => Promise<void> },
  input: { operation_id: string; amount?: number; reason?: string },
): Promise<RefundResult> {
  const op = await findOperation(deps.db, ctx.clientId, ctx.mode, input.operation_id);
  if (!isPaid(op.status) || op.refunded_amount >= op.amount) {
    throw new AppError('payment_not_refundable', `payment ${op.id} is ${op.status}`);
  }
  const amount = checkAmount(input.amount ?? op.amount - op.refunded_amount, deps.config.amountMax);
  const refundId = newId('rf');
  const reserved = await deps.db.tx(async (tx) => {
    const r = await tx.query<{ refunded_amount: number }>(
      `UPDATE operations SET refunded_amount = refunded_amount + $2, updated_at = now()
        WHERE id = $1 AND status IN ('paid', 'partially_refunded') AND refunded_amount + $2 <= amount
        RETURNING refunded_amount`,
      [op.id, amount],
    );
    if (!r.rows[0]) return false;
    await tx.query(
      `INSERT INTO refunds (id, operation_id, client_id, mode, amount, reason, status) VALUES ($1, $2, $3, $4, $5, $6, 'pending')`,
      [refundId, op.id, op.client_id, op.mode, amount, input.reason ?? null],
    );
    return true;
  });
  if (!reserved) {
    const now = await findOperation(deps.db, ctx.clientId, ctx.mode, op.id);
    if (!isPaid(now.status) || now.refunded_amount >= now.amount) throw new AppError('payment_not_refundable', `payment ${op.id} is ${now.status}`);
    throw new AppError('refund_amount_exceeds', `at most ${now.amount - now.refunded_amount} tenge can still be refunded`, { param: 'amount' });
  }

  const provider = providerFor(deps, op.mode);
  let outcome: { ref: string | null; status: RefundResult['status'] };
  try {
    outcome = await providerCall(deps, op.mode, op.provider_account_id, () => provider.refund(op.provider_ref, amount));
  } catch (err) {
    outcome = { ref: null, status: 'failed' };
    await record(deps, op.id, refundId, amount, outcome, ctx.inTx);
    throw err;
  }
  return record(deps, op.id, refundId, amount, outcome, ctx.inTx);
}

async function record(
  deps: Deps,
  opId: string,
  refundId: string,
  amount: number,
  outcome: { ref: string | null; status: RefundResult['status'] },
  inTx?: (tx: Queryable, r: RefundResult) => Promise<void>,
): Promise<RefundResult> {
  return deps.db.tx(async (tx) => {
    const rf = await tx.query<{ created_at: Date }>(
      'UPDATE refunds SET status = $2, provider_ref = $3 WHERE id = $1 RETURNING created_at',
      [refundId, outcome.status, outcome.ref],
    );
    let op;
    if (outcome.status === 'failed') {
      // Release the reservation: the money did not move.
      op = await tx.query<{ amount: number; refunded_amount: number; client_id: number; mode: Mode }>(
        `UPDATE operations SET refunded_amount = refunded_amount - $2, updated_at = now() WHERE id = $1
         RETURNING amount, refunded_amount, client_id, mode`,
        [opId, amount],
      );
    } else {
      op = await tx.query<{ amount: number; refunded_amount: number; client_id: number; mode: Mode }>(
        `UPDATE operations SET status = CASE WHEN refunded_amount >= amount THEN 'refunded' ELSE 'partially_refunded' END,
                updated_at = now()
          WHERE id = $1 AND status IN ('paid', 'partially_refunded')
          RETURNING amount, refunded_amount, client_id, mode`,
        [opId],
      );
    }
    const o = op.rows[0];
    const result: RefundResult = {
      refund_id: refundId, operation_id: opId, status: outcome.status, amount,
      refunded_total: o.refunded_amount, remaining_refundable: o.amount - o.refunded_amount, created_at: rf.rows[0].created_at,
    };
    if (outcome.status === 'completed') {
      await appendEvent(tx, {
        clientId: o.client_id, mode: o.mode, type: 'payment.refunded',
        data: { operation_id: opId, refund_id: refundId, amount, refunded_total: o.refunded_amount, remaining_refundable: o.amount - o.refunded_amount },
      });
    }
    if (inTx) await inTx(tx, result);
    return result;
  });
}
