// The refund retry job: a refund left pending (the provider's answer was lost, or it said pending, or the
// request that made it died) is sent again under its own refund id, which the provider answers as the
// same refund, until it is completed or failed. Due rows are claimed by pushing their next attempt out
// (FOR UPDATE SKIP LOCKED, so several workers split them), backing off from 30 s to an hour; a refund
// is never given up on, because only the provider knows whether its money moved.
import type { Deps } from '../deps.ts';
import { findOperation } from '../domain/payments/operations.ts';
import { claimDueRefunds, sendRefund } from '../domain/payments/refund-settle.ts';
import { inSpan } from '../telemetry/tracing.ts';

export async function retryPendingRefunds(
  deps: Deps,
  batch = 50,
  onError?: (err: unknown, refundId: string) => void,
  stopping: () => boolean = () => false,
): Promise<number> {
  const due = await claimDueRefunds(deps.db, batch);
  for (const r of due) {
    if (stopping()) break; // the rest are due again at their next attempt
    try {
      // A span per refund (tracing on): the provider's call and what its answer settles.
      await inSpan('refund-retry send', { attributes: { 'tolem.refund.id': r.id } }, async () => {
        const op = await findOperation(deps.db, { clientId: r.client_id, mode: r.mode }, r.operation_id);
        // An r2 refund here has its payer identified already (one still waiting for the scan has no next
        // attempt: the return watcher follows it); it is sent again naming the same return.
        await sendRefund(deps, op, r.id, Number(r.amount), { first: false, returnRef: r.return_qr_id });
      });
    } catch (err) {
      onError?.(err, r.id); // still pending: the next attempt is already scheduled
    }
  }
  return due.length;
}
