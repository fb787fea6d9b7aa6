import type { Queryable } from '../../db/db.ts';
import type { Deps, DbDeps } from '../../deps.ts';
import type { Mode } from '../tenant.ts';
import type { Receipt } from '../receipt.ts';
import { AppError } from '../../errors.ts';
import {
  ProviderOutcomeUnknown,
  ProviderRefused,
  ProviderRejected,
  ProviderSessionExpired,
  ProviderUnavailable,
} from '../../providers/types.ts';
import { appendEvent } from '../events/append.ts';
import type { Operation } from './operations.ts';
import type { RefundLine } from './refund-lines.ts';
import { providerCall } from './provider-call.ts';
import { providerFor } from './provider-accounts.ts';
import { markRefunded, releaseRefund } from './transition.ts';

export interface RefundResult {
  refund_id: string;
  operation_id: string;
  status: 'completed' | 'pending' | 'failed';
  amount: number;
  refunded_total: number;
  remaining_refundable: number;
  created_at: Date;
  /** the payment's lines this refund returns (decisions 27); null for a refund by amount */
  items: RefundLine[] | null;
  /** r2 (decisions 26): the return QR the payer is to scan, while the refund waits for it */
  return_qr_token?: string;
  return_deep_link?: string;
  expires_at?: Date;
}

export type Outcome = { ref: string | null; status: RefundResult['status'] };

/**
 * Whether the provider surely did not act on this refund. On the first send: it refused, or the request
 * never reached it. On a later send only a refusal says so (a provider answers a refund id it knows with
 * its outcome); a send that did not get through says nothing about the first one.
 */
function surelyNotActed(err: unknown, first: boolean): boolean {
  const cause = err instanceof AppError ? err.cause : err;
  // A code nobody documents is an answer, but not one that says what happened to the money.
  if (cause instanceof ProviderRejected && cause.reason === 'undocumented') return false;
  if (cause instanceof ProviderRefused) return true;
  if (!first || cause instanceof ProviderOutcomeUnknown) return false;
  return cause instanceof ProviderUnavailable || cause instanceof ProviderSessionExpired;
}

/**
 * Asks the provider for a reserved refund and records the answer. A sure failure of the first send gives
 * the amount back and is thrown (502/503, not stored under the Idempotency-Key, which is freed from the
 * refund so a retry with it starts a new one). Any other error is an unknown outcome: recorded, and
 * answered, as pending. A later send (`first: false`: the retry job, a request that took over the key)
 * repeats the refund id, so the provider answers for the same refund: only its refusal fails the refund
 * (the provider does not know the id, so nothing was refunded); its other errors say nothing about the
 * first send and leave the refund pending.
 */
export async function sendRefund(
  deps: Pick<Deps, 'db' | 'secrets' | 'providers' | 'caches'>,
  op: Operation,
  refundId: string,
  amount: number,
  opts: {
    receipt?: Receipt<RefundResult>;
    first: boolean /** r2: the payer's return, identified */;
    returnRef?: string | null;
  },
): Promise<RefundResult> {
  const provider = await providerFor(deps, op.mode, op.provider_account_id);
  const returns = provider.returns && !provider.capabilities.has('refund') ? provider.returns : undefined;
  const send = returns
    ? () => {
        // Never without the payer's return: the provider would refuse it, and the refund would fail for nothing.
        if (!opts.returnRef) throw new Error(`refund ${refundId} has no identified return to send with`);
        return returns.refundWithReturn(op.provider_ref, amount, opts.returnRef);
      }
    : () => provider.refund(op.provider_ref, amount, refundId);
  let outcome: Outcome;
  try {
    if (provider.refundableAmount) {
      const settled = await reconcile(deps, op, refundId, amount, opts.first, provider.refundableAmount.bind(provider));
      if (settled) return settleRefund(deps, refundId, settled, opts.receipt);
    }
    outcome = await providerCall(deps, op.mode, op.provider_account_id, send);
  } catch (err) {
    if (!surelyNotActed(err, opts.first))
      return settleRefund(deps, refundId, { ref: null, status: 'pending' }, opts.receipt);
    await settleRefund(deps, refundId, { ref: null, status: 'failed' }, undefined, true);
    throw err;
  }
  return settleRefund(deps, refundId, outcome, opts.receipt);
}

/**
 * For a provider whose refunds are not idempotent by our refund id (qrapi), what its refundable rest says
 * (decisions 24). Before the first send it is read and kept on the refund. Before any later send it is
 * read again: down by at least this refund's amount means the first send happened (completed, nothing
 * re-sent); unchanged means it did not (sent again, from the new reading); anything between is left
 * pending for a person to look at (another refund of the same payment moved meanwhile). Null: send.
 */
async function reconcile(
  deps: Pick<Deps, 'db' | 'caches'>,
  op: Operation,
  refundId: string,
  amount: number,
  first: boolean,
  refundable: (ref: string) => Promise<number>,
): Promise<Outcome | null> {
  const read = () => providerCall(deps, op.mode, op.provider_account_id, () => refundable(op.provider_ref));
  const stored = first
    ? null
    : (
        await deps.db.query<{ before: string | null }>(
          'SELECT refundable_before AS before FROM refunds WHERE id = $1',
          [refundId],
        )
      ).rows[0]?.before;
  const now = await read();
  if (stored !== null && stored !== undefined) {
    const before = Number(stored);
    if (now <= before - amount) return { ref: null, status: 'completed' };
    if (now < before) return { ref: null, status: 'pending' };
  }
  await deps.db.query('UPDATE refunds SET refundable_before = $2 WHERE id = $1', [refundId, now]);
  return null;
}

/**
 * Records a provider's answer for a refund still pending, in one transaction with the operation's
 * refunded amount and status and the journal event. A refund settled meanwhile (by the retry job, or a
 * request that took over its key) is left as it is and answered as it stands.
 */
export async function settleRefund(
  deps: DbDeps,
  refundId: string,
  outcome: Outcome,
  receipt?: Receipt<RefundResult>,
  freeRequestKey = false,
): Promise<RefundResult> {
  return deps.db.tx(async (tx) => {
    const rf = await tx.query<{
      operation_id: string;
      amount: number;
      status: RefundResult['status'];
      created_at: Date;
      items: RefundLine[] | null;
    }>(
      `UPDATE refunds SET status = $2, provider_ref = COALESCE($3, provider_ref),
              request_key = CASE WHEN $4::boolean THEN NULL ELSE request_key END
        WHERE id = $1 AND status = 'pending'
        RETURNING operation_id, amount, status, created_at, items`,
      [refundId, outcome.status, outcome.ref, freeRequestKey],
    );
    const settled = rf.rows[0];
    let row: {
      operation_id: string;
      amount: number;
      status: RefundResult['status'];
      created_at: Date;
      items: RefundLine[] | null;
    };
    let op: { amount: number; refunded_amount: number; client_id: number; mode: Mode };
    if (!settled) {
      const cur = await tx.query<
        typeof row & { op_amount: number; refunded_amount: number; client_id: number; mode: Mode }
      >(
        `SELECT r.operation_id, r.amount, r.status, r.created_at, r.items,
                o.amount AS op_amount, o.refunded_amount, o.client_id, o.mode
           FROM refunds r JOIN operations o ON o.id = r.operation_id WHERE r.id = $1`,
        [refundId],
      );
      const c = cur.rows[0];
      row = c;
      op = { amount: c.op_amount, refunded_amount: c.refunded_amount, client_id: c.client_id, mode: c.mode };
    } else {
      row = settled;
      op =
        outcome.status === 'failed'
          ? await releaseRefund(tx, row.operation_id, Number(row.amount))
          : await markRefunded(tx, row.operation_id);
      if (outcome.status === 'completed') {
        await appendEvent(tx, {
          clientId: op.client_id,
          mode: op.mode,
          type: 'payment.refunded',
          data: {
            operation_id: row.operation_id,
            refund_id: refundId,
            amount: Number(row.amount),
            refunded_total: op.refunded_amount,
            remaining_refundable: op.amount - op.refunded_amount,
          },
        });
      }
    }
    const result: RefundResult = {
      refund_id: refundId,
      operation_id: row.operation_id,
      status: row.status,
      amount: Number(row.amount),
      refunded_total: op.refunded_amount,
      remaining_refundable: op.amount - op.refunded_amount,
      created_at: row.created_at,
      items: row.items,
    };
    if (receipt) await receipt.save(tx, result);
    return result;
  });
}

/** A pending refund due to be sent again, as the retry job claims it. */
export interface DueRefund {
  id: string;
  operation_id: string;
  amount: number;
  client_id: number;
  mode: Mode;
  return_qr_id: string | null;
}

/**
 * Claims up to `batch` pending refunds whose next attempt is due by pushing that attempt out (30 s doubling
 * to an hour), FOR UPDATE SKIP LOCKED so that several workers split them (jobs/refund-retry.ts).
 */
export async function claimDueRefunds(db: Queryable, batch: number): Promise<DueRefund[]> {
  const r = await db.query<DueRefund>(
    `UPDATE refunds SET attempts = attempts + 1,
            next_attempt_at = now() + make_interval(secs => LEAST(3600, 30 * power(2, LEAST(attempts, 7))))
      WHERE id IN (SELECT id FROM refunds WHERE status = 'pending' AND next_attempt_at <= now()
                    ORDER BY next_attempt_at LIMIT ${Math.trunc(batch)} FOR UPDATE SKIP LOCKED)
      RETURNING id, operation_id, amount, client_id, mode, return_qr_id`,
  );
  return r.rows;
}
