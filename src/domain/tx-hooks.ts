// In-transaction subscribers. A lower folder of the domain announces a change (a payment became paid, a
// journal event was written) and the folders above it react inside the same transaction, without the
// lower one importing them: payments never know links or plan notices, events never know webhooks.
// The subscribers are named in one place, domain/subscribers.ts, and wired once at start-up.
import type { Queryable } from '../db/db.ts';

export type TxSubscriber<T> = (tx: Queryable, value: T) => Promise<void>;

export class TxHooks<T> {
  private subscribers: TxSubscriber<T>[] = [];

  constructor(private readonly what: string) {}

  subscribe(fn: TxSubscriber<T>): void {
    if (!this.subscribers.includes(fn)) this.subscribers.push(fn);
  }

  /**
   * Runs every subscriber in order, in the caller's transaction; a failure rolls the change back with
   * them. With none wired it refuses: a forgotten wiring would silently lose webhook deliveries.
   */
  async run(tx: Queryable, value: T): Promise<void> {
    if (!this.subscribers.length)
      throw new Error(`no subscribers wired for "${this.what}": call wireDomainSubscribers() at start-up`);
    for (const fn of this.subscribers) await fn(tx, value);
  }
}
