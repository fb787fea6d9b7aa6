import type { Deps } from '../../deps.ts';
import type { Tenant } from '../tenant.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { newId } from '../ids.ts';
import { checkAmount } from './input.ts';
import { assertLinesLeft, refundLinesOf, type RefundLine, type RefundLineInput } from './refund-lines.ts';
import { findOperation } from './operations.ts';
import { providerFor, requireCapability } from './provider-accounts.ts';
import { isPaid } from './state.ts';
import { refundAsItStands, startReturn } from './refund-return.ts';
import { sendRefund, type RefundResult } from './refund-settle.ts';
import type { Receipt } from '../receipt.ts';

export type { RefundResult } from './refund-settle.ts';

/** When the first answer is due from the request itself, the retry job leaves the refund alone. */
const FIRST_RETRY_S = 60;

export async function refundPayment(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'providers' | 'caches'>,
  ctx: Tenant,
  input: { operation_id: string; amount?: number; reason?: string; items?: RefundLineInput[] },
  receipt?: Receipt<RefundResult>,
): Promise<RefundResult> {
  const op = await findOperation(deps.db, ctx, input.operation_id);
  const requestKey = receipt?.requestKey;
  if (requestKey) {
    // This request's Idempotency-Key was taken over from a holder that died after reserving its refund:
    // continue that refund (same id, same amount) rather than making a second one, whatever the retry
    // job has made of it meanwhile. Keys live 24 h; a key reused after that is a new request.
    const prior = await deps.db.query<{ id: string; amount: number; returned: boolean }>(
      `SELECT id, amount, (return_qr_id IS NOT NULL OR return_status IS NOT NULL) AS returned FROM refunds
        WHERE client_id = $1 AND mode = $2 AND request_key = $3 AND operation_id = $4
          AND created_at > now() - interval '24 hours'`,
      [ctx.clientId, ctx.mode, requestKey, op.id],
    );
    const p = prior.rows[0];
    // A return QR already made is answered as it stands: the payer may be scanning it.
    if (p?.returned) return refundAsItStands(deps, p.id, receipt);
    if (p) return sendRefund(deps, op, p.id, Number(p.amount), { receipt, first: false });
  }
  if (!isPaid(op.status) || op.refunded_amount >= op.amount) {
    throw new AppError('payment_not_refundable', `payment ${op.id} is ${op.status}`);
  }
  // Before anything is reserved: a scheme without refunds is 501, not a pending refund. r2 refunds
  // through the payer's return QR (decisions 26).
  const provider = await providerFor(deps, op.mode, op.provider_account_id);
  if (!provider.returns)
    requireCapability(provider, 'refund', "refund through the API (refund in the provider's business app)");
  let lines: RefundLine[] | null = null;
  let amount: number;
  if (input.items) {
    const named = refundLinesOf(op, input.items);
    lines = named.lines;
    if (input.amount !== undefined && input.amount !== named.amount)
      throw invalidParam('amount', `the items named add up to ${named.amount}, not amount ${input.amount}`);
    amount = checkAmount(named.amount, deps.config.amountMax);
  } else amount = checkAmount(input.amount ?? op.amount - op.refunded_amount, deps.config.amountMax);
  const refundId = newId('rf');
  const reserved = await deps.db.tx(async (tx) => {
    const r = await tx.query<{ refunded_amount: number }>(
      `UPDATE operations SET refunded_amount = refunded_amount + $2, updated_at = now()
        WHERE id = $1 AND status IN ('paid', 'partially_refunded') AND refunded_amount + $2 <= amount
        RETURNING refunded_amount`,
      [op.id, amount],
    );
    if (!r.rows[0]) return false;
    // Under the row lock the UPDATE took: a concurrent refund of the same lines is counted here.
    if (lines) await assertLinesLeft(tx, op, lines);
    await tx.query(
      `INSERT INTO refunds (id, operation_id, client_id, mode, amount, reason, status, request_key, next_attempt_at,
                            items)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, now() + make_interval(secs => ${FIRST_RETRY_S}), $8)`,
      [
        refundId,
        op.id,
        op.client_id,
        op.mode,
        amount,
        input.reason ?? null,
        receipt?.requestKey ?? null,
        lines ? JSON.stringify(lines) : null,
      ],
    );
    return true;
  });
  if (!reserved) {
    const now = await findOperation(deps.db, ctx, op.id);
    if (!isPaid(now.status) || now.refunded_amount >= now.amount)
      throw new AppError('payment_not_refundable', `payment ${op.id} is ${now.status}`);
    throw new AppError(
      'refund_amount_exceeds',
      `at most ${now.amount - now.refunded_amount} tenge can still be refunded`,
      { param: 'amount' },
    );
  }
  if (provider.returns && !provider.capabilities.has('refund'))
    return startReturn(deps, op, refundId, provider.returns, receipt);
  return sendRefund(deps, op, refundId, amount, { receipt, first: true });
}
