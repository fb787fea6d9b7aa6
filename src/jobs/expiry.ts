// The expiry sweeper: operations past their deadline are expired on time even if nobody reads them.
// Due rows are claimed with a short lease (FOR UPDATE SKIP LOCKED, so several workers split the work),
// then each is settled with the provider outside any transaction: a payment made at the last second
// is recorded as paid, not expired.
import type { Deps } from '../deps.ts';
import { OP_COLUMNS, type Operation } from '../domain/payments/operations.ts';
import { syncOperation } from '../domain/payments/sync.ts';

export async function sweepExpired(
  deps: Deps,
  batch = 100,
  onError?: (err: unknown, op: Operation) => void,
  stopping: () => boolean = () => false,
): Promise<number> {
  const due = await deps.db.query<Operation>(
    `UPDATE operations SET sweep_locked_until = now() + interval '30 seconds'
      WHERE id IN (SELECT id FROM operations
                    WHERE status = 'created' AND expires_at <= now()
                      AND (sweep_locked_until IS NULL OR sweep_locked_until < now())
                    ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING ${OP_COLUMNS}`,
    [batch],
  );
  for (const op of due.rows) {
    if (stopping()) break; // the rest keep their lease and are claimed again when it runs out
    try {
      await syncOperation(deps, op);
    } catch (err) {
      onError?.(err, op); // the lease runs out and the next pass tries again
    }
  }
  return due.rows.length;
}
