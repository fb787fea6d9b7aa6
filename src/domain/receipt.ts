// What a use case owes the request that asked for a change, as one object instead of callbacks: the
// answer stored in the same transaction as the change (idempotency, decisions 6), the request's id for the
// provider, and what the request's key answers when the provider's outcome is unknown. The HTTP layer makes
// one from a request (http/plugins/idempotency.ts `receiptFor`); a use case called without one (a job, a
// test, the checkout page) writes nothing extra.
import type { Queryable } from '../db/db.ts';

export interface Receipt<R> {
  /**
   * A stable id of the request (same client, mode, path, key and body) for the provider, which answers a
   * repeated id with what the first made: a retry after a lost answer gets that QR or invoice, not a second.
   */
  readonly requestId?: string;
  /** The key with the method and path it is scoped to, for records that must know which request made them. */
  readonly requestKey?: string;
  /** Stores the answer to `result` in the caller's transaction, so that the change and the answer commit together. */
  save(tx: Queryable, result: R): Promise<void>;
  /**
   * The same as one statement to embed in the use case's own (a data-modifying CTE: one round trip, no
   * BEGIN/COMMIT); its placeholders start after `offset`. Absent when saving needs more than one statement.
   */
  saveStatement?(result: R, offset: number): { sql: string; params: unknown[] };
  /**
   * The provider may have acted but its answer was lost (decisions 24): the request's key answers every
   * retry with 409 provider_outcome_unknown, since a second push could be paid too.
   */
  outcomeUnknown?(): Promise<void>;
}

/**
 * The receipt with a write of the use case's own before its save, in the same transaction (a link's
 * bookkeeping around the QR it issues). The one-statement form is dropped: the extra write needs the
 * transaction. Without a receipt, the write alone.
 */
export function alsoWriting<R>(
  receipt: Receipt<R> | undefined,
  write: (tx: Queryable, result: R) => Promise<void>,
): Receipt<R> {
  return {
    requestId: receipt?.requestId,
    requestKey: receipt?.requestKey,
    outcomeUnknown: receipt?.outcomeUnknown ? () => receipt.outcomeUnknown!() : undefined,
    async save(tx, result) {
      await write(tx, result);
      await receipt?.save(tx, result);
    },
  };
}

/** A receipt for the same request with another answer: the caller's result mapped before it is saved. */
export function answering<R, S>(receipt: Receipt<S> | undefined, map: (result: R) => S): Receipt<R> | undefined {
  if (!receipt) return undefined;
  return {
    requestId: receipt.requestId,
    requestKey: receipt.requestKey,
    outcomeUnknown: receipt.outcomeUnknown ? () => receipt.outcomeUnknown!() : undefined,
    save: (tx, result) => receipt.save(tx, map(result)),
  };
}
