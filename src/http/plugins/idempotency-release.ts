// Idempotency claims whose release failed. A request that ends in a 5xx or 429 frees its key so that the
// client may send it again; when the 5xx was the store itself being unreachable (a restart, a failover),
// the DELETE fails as well, and the key stayed 'running' for the claim's whole lease: each retry was a 409
// idempotency_conflict for up to a minute after a database restart of a few seconds (the PostgreSQL fault
// drill, docs/operations.md, Fault drills). Such claims are released again every second once the store answers.
//
// Safe only while the claim's own lease holds: after it, another request may have taken the key over
// (idempotency.ts), and deleting its row would let a third one run the same request. So each release is
// tried until `LEASE_S - MARGIN_S` after the claim (the margin covers the clock of this process running
// ahead of the database's), and only on a row whose lease is still in force.

const RETRY_MS = 1000;
const MARGIN_S = 10;

export interface PendingRelease {
  /** the key's scope: client, mode, method, path, key */
  scope: unknown[];
  /** when this process claimed the key (ms) */
  claimedAt: number;
}

export class ClaimReleases {
  private readonly pending = new Map<string, PendingRelease>();
  private timer?: NodeJS.Timeout;

  constructor(
    /** deletes the key's row if it is still 'running' and its lease still holds (idempotency.ts owns it) */
    private release: (scope: unknown[]) => Promise<unknown>,
    private leaseSeconds: number,
    private now: () => number = Date.now,
  ) {}

  /** A claim whose release failed: released later, while its lease holds. */
  add(claim: PendingRelease): void {
    this.pending.set(JSON.stringify(claim.scope), claim);
    this.timer ??= setTimeout(() => void this.flush(), RETRY_MS).unref();
  }

  get size(): number {
    return this.pending.size;
  }

  /** One round: each claim released, dropped once its time is over, or kept for the next round. */
  async flush(): Promise<void> {
    this.timer = undefined;
    for (const [id, claim] of this.pending) {
      if (this.now() > claim.claimedAt + (this.leaseSeconds - MARGIN_S) * 1000) {
        this.pending.delete(id);
        continue;
      }
      try {
        await this.release(claim.scope);
        this.pending.delete(id);
      } catch {
        // still unreachable: the next round tries again
      }
    }
    if (this.pending.size) this.timer ??= setTimeout(() => void this.flush(), RETRY_MS).unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }
}
