// Read-through caches for the lookups every payment call makes (API key -> client, default provider account) and for
// the merchant's public branding every checkout opening shows, with invalidation that crosses processes: a change
// NOTIFYs `tolem_cache` in its transaction, and every instance LISTENs and evicts. A revoked key therefore stops within
// the notification's delivery (milliseconds), and the TTL bounds staleness if a notification were ever missed.
import { MAYBE_MISSED, type Db, type Queryable } from '../db/db.ts';

const CHANNEL = 'tolem_cache';
const TTL_MS = 30_000;
const MAX = 50_000;

export class TtlCache<V> {
  private map = new Map<string, { v: V; until: number }>();
  private evictions = 0;

  /**
   * Counts evictions. A read-through takes it before its query and passes it to `set`: a value read
   * while an eviction happened may predate the change that caused it (the change commits, and notifies,
   * while the query runs), so it is not cached.
   */
  get generation(): number {
    return this.evictions;
  }

  get(k: string): V | undefined {
    const e = this.map.get(k);
    if (!e) return undefined;
    if (e.until < Date.now()) {
      this.map.delete(k);
      return undefined;
    }
    return e.v;
  }

  set(k: string, v: V, readAt?: number): void {
    if (readAt !== undefined && readAt !== this.evictions) return;
    if (this.map.size >= MAX) this.map.clear(); // crude but bounded; a miss only costs one query
    this.map.set(k, { v, until: Date.now() + TTL_MS });
  }

  delete(k: string): void {
    this.evictions++;
    this.map.delete(k);
  }

  clear(): void {
    this.evictions++;
    this.map.clear();
  }

  deletePrefix(prefix: string): void {
    this.evictions++;
    for (const k of this.map.keys()) if (k.startsWith(prefix)) this.map.delete(k);
  }
}

/** One set per process and store (tests run several stores in one process). */
export class Caches {
  readonly apiKeys = new TtlCache<unknown>();
  readonly accounts = new TtlCache<unknown>();
  readonly merchants = new TtlCache<unknown>();

  evict(message: string): void {
    if (message === MAYBE_MISSED) {
      // The listening connection was re-established: evictions may have been missed.
      for (const c of [this.apiKeys, this.accounts, this.merchants]) c.clear();
      return;
    }
    const i = message.indexOf(':');
    const [kind, rest] = [message.slice(0, i), message.slice(i + 1)];
    if (kind === 'key') this.apiKeys.delete(rest);
    else if (kind === 'account') this.accounts.deletePrefix(rest);
    else if (kind === 'merchant') this.merchants.delete(rest);
  }
}

type Message = `key:${string}` | `account:${string}` | `merchant:${number}`;

/** Evicts in every instance when the transaction commits, and here at once when `local` is given. */
export async function invalidate(tx: Queryable, message: Message, local?: Caches): Promise<void> {
  local?.evict(message);
  await tx.query('SELECT pg_notify($1, $2)', [CHANNEL, message]);
}

export async function listenForInvalidation(db: Db, caches: Caches): Promise<void> {
  await db.listen(CHANNEL, (m) => caches.evict(m));
}
