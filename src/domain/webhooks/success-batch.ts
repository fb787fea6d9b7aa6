// Recording successful worker attempts in batches. A success is the common outcome and changes nothing
// but its row (and clears a failure series that is usually absent), so the worker records all successes
// that completed while the previous batch was being written in one statement, instead of a transaction
// of its own each: at hundreds of deliveries a second that is the difference between the database
// keeping up or not. A batch is written as soon as the previous one is, so batching adds no waiting
// when deliveries are few.
import type { Queryable } from '../../db/db.ts';

export interface Success {
  deliveryId: number;
  leaseToken: string;
  status: number;
  /** the start of the receiver's answer (responsePreview) */
  response: string;
  /** when the receiver answered */
  at: Date;
}

/**
 * Marks the deliveries delivered, where the lease is still the recorder's (a worker whose lease ran
 * out and whose row was claimed again records nothing, as in recordAttempt), and ends the failure series
 * of their webhooks.
 *
 * A worker's lease token on a row means the row is pending: only pending rows are claimed, and every
 * change of status clears the token. The statement says no more than that on purpose: a condition on
 * status would let the planner answer it from the partial index of pending rows, which with statistics
 * older than a backlog it did, reading every pending row for each batch (a drain that slowed as the
 * backlog grew); matched by primary key alone it reads the batch's rows only.
 */
export async function recordSuccesses(db: Queryable, batch: Success[]): Promise<void> {
  await db.query(
    `WITH done AS (
       UPDATE webhook_deliveries d
          SET status = 'delivered', attempts = d.attempts + 1, last_status = u.status, last_error = NULL,
              last_response = u.response, last_attempt_at = u.at, delivered_at = u.at, locked_until = NULL,
              lease_token = NULL
         FROM unnest($1::bigint[], $2::text[], $3::int[], $4::timestamptz[], $5::text[])
              AS u(id, lease_token, status, at, response)
        WHERE d.id = u.id AND d.lease_token = u.lease_token
        RETURNING d.webhook_id)
     UPDATE webhooks SET failing_since = NULL, updated_at = now()
      WHERE id IN (SELECT webhook_id FROM done) AND failing_since IS NOT NULL`,
    [
      batch.map((s) => s.deliveryId),
      batch.map((s) => s.leaseToken),
      batch.map((s) => s.status),
      batch.map((s) => s.at),
      batch.map((s) => s.response),
    ],
  );
}

/**
 * How long a batch waits for more successes before it is written. On PostgreSQL, none: answers keep
 * arriving while a batch is written, so the next one is full anyway. The embedded store runs each
 * statement on the main thread, blocking it: no answer is read meanwhile, so without a pause every batch
 * held one success (measured: 3,000 single-row statements, half of a drain's time). A few milliseconds let
 * the answers already on the wire be read and recorded together. Nothing is delivered later for it, and a
 * crash inside the pause only means the receiver gets those again (at least once).
 */
export const coalesceMsFor = (kind: 'pg' | 'pglite') => (kind === 'pglite' ? 4 : 0);

/** Coalesces successes: add() resolves once its success is written (or rejects with the batch's error). */
export class SuccessBatcher {
  private queue: { s: Success; done: (err?: unknown) => void }[] = [];
  private writing = false;

  constructor(
    private db: Queryable,
    private coalesceMs = 0,
  ) {}

  add(s: Success): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ s, done: (err) => (err ? reject(err) : resolve()) });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    if (this.coalesceMs) await new Promise((ok) => setTimeout(ok, this.coalesceMs));
    while (this.queue.length) {
      const batch = this.queue.splice(0, 500);
      try {
        await recordSuccesses(
          this.db,
          batch.map((b) => b.s),
        );
        for (const b of batch) b.done();
      } catch (err) {
        for (const b of batch) b.done(err);
      }
    }
    this.writing = false;
  }
}
