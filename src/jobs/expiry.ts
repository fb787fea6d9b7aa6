// The expiry sweeper: operations past their deadline are expired on time even if nobody reads them.
// Due rows are claimed with a short lease (FOR UPDATE SKIP LOCKED, so several workers split the work),
// then each is settled with the provider outside any transaction: a payment made at the last second
// is recorded as paid, not expired.
import type { Deps } from '../deps.ts';
import { claimDueExpiries, type Operation } from '../domain/payments/operations.ts';
import { syncOperation } from '../domain/payments/sync.ts';
import { inSpan } from '../telemetry/tracing.ts';

export async function sweepExpired(
  deps: Deps,
  batch = 100,
  onError?: (err: unknown, op: Operation) => void,
  stopping: () => boolean = () => false,
): Promise<number> {
  const due = await claimDueExpiries(deps.db, batch);
  for (const op of due) {
    if (stopping()) break; // the rest keep their lease and are claimed again when it runs out
    try {
      // A span per payment (tracing on): the provider's answer, the transition and the webhooks it queues.
      await inSpan('expiry-sweeper sync', { attributes: { 'tolem.operation.id': op.id } }, () =>
        syncOperation(deps, op),
      );
    } catch (err) {
      onError?.(err, op); // the lease runs out and the next pass tries again
    }
  }
  return due.length;
}
