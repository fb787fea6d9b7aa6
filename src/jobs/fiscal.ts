// The fiscal receipts worker (decisions 27): claims registers that have a receipt due or a shift to close,
// each under a lease so one worker alone talks to it (the services' one-request-at-a-time rule), and serves
// them side by side up to `capacity` registers. A committed receipt wakes it through LISTEN; a poll each
// second covers back-offs coming due and a lost notification.
import type { FastifyBaseLogger } from 'fastify';
import type { Deps } from '../deps.ts';
import { RECEIPTS_CHANNEL } from '../domain/fiscal/enqueue.ts';
import { claimRegisters } from '../domain/fiscal/registers-store.ts';
import { LEASE_S, serveRegister } from '../domain/fiscal/send.ts';
import { closeShiftsOpenedBefore } from '../domain/fiscal/shift-rule.ts';

const POLL_MS = 1000;
/** receipts one register's turn sends before its lease goes back (others of the batch wait less) */
const PER_TURN = 20;

export class FiscalWorker {
  private readonly inFlight = new Set<Promise<unknown>>();
  private timer?: NodeJS.Timeout;
  private claiming?: Promise<void>;
  private stopped = false;
  private nudged = false;

  constructor(
    private readonly deps: Deps,
    private readonly log: FastifyBaseLogger,
    private readonly capacity = 20,
  ) {}

  start(): void {
    this.deps.db
      .listen(RECEIPTS_CHANNEL, () => this.nudge())
      .catch((err) => this.log.error({ err }, 'LISTEN for fiscal receipts failed; polling only'));
    this.wake(0);
  }

  private nudge(): void {
    if (this.stopped || this.nudged) return;
    this.nudged = true;
    if (!this.claiming) this.wake(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.claiming;
    await Promise.all(this.inFlight);
  }

  private wake(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refill(), ms);
  }

  /** One pass now, waiting for what it claimed (tests). Returns the receipts settled. */
  async runOnce(): Promise<number> {
    const ids = await this.claim(this.capacity);
    const n = await Promise.all(ids.map((id) => this.serve(id)));
    return n.reduce((a, b) => a + b, 0);
  }

  private claim(free: number): Promise<string[]> {
    const now = this.deps.clock.now();
    return claimRegisters(this.deps.db, {
      batch: free,
      leaseS: LEASE_S,
      closeBefore: closeShiftsOpenedBefore(now, this.deps.config.fiscal.shiftCloseAt),
    });
  }

  private serve(id: string): Promise<number> {
    return serveRegister(this.deps, id, {
      take: PER_TURN,
      stopping: () => this.stopped,
      onError: (err, receipt) => this.log.warn({ err, register: id, receipt }, 'fiscal receipt attempt failed'),
    });
  }

  private async refill(): Promise<void> {
    if (this.claiming || this.stopped) return;
    const free = this.capacity - this.inFlight.size;
    if (free <= 0) return this.wake(POLL_MS);
    this.nudged = false;
    let full = false;
    this.claiming = (async () => {
      try {
        const ids = await this.claim(free);
        full = ids.length === free;
        for (const id of ids) {
          const p: Promise<unknown> = this.serve(id)
            .catch((err) => this.log.error({ err, register: id }, 'serving a fiscal register failed'))
            .finally(() => {
              this.inFlight.delete(p);
              // A register's turn ended: its remaining receipts (or another's) may be due at once.
              if (!this.claiming) this.wake(0);
            });
          this.inFlight.add(p);
        }
      } catch (err) {
        this.log.error({ err, job: 'fiscal-receipts' }, 'claiming fiscal registers failed');
      }
    })();
    await this.claiming;
    this.claiming = undefined;
    this.wake(full || this.nudged ? 0 : POLL_MS);
  }
}
