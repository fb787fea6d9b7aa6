// A circuit breaker per provider account (decisions 24: 5 failures, 30 s): after 5 failures in a row the
// account's calls fail at once for 30 s instead of waiting on a provider that is down; then one call is
// let through, and its success closes the breaker again.
import { breakerTrips } from '../../telemetry/metrics.ts';

/** Breakers of this process that are not closed: /metrics counts those open now (openBreakers). */
const tripped = new Set<CircuitBreaker>();

/** How many provider accounts' breakers are open at this moment in this process. */
export function openBreakers(): number {
  let n = 0;
  for (const b of tripped) if (b.state === 'open') n++;
  return n;
}

export class CircuitBreaker {
  private failures = 0;
  private openUntil = 0;
  private trialInFlight = false;

  constructor(
    private readonly threshold = 5,
    private readonly openMs = 30_000,
    private readonly now = () => Date.now(),
  ) {}

  /** Whether a call may go out now. */
  allow(): boolean {
    if (this.failures < this.threshold) return true;
    if (this.now() < this.openUntil || this.trialInFlight) return false;
    this.trialInFlight = true; // half-open: one trial call
    return true;
  }

  success(): void {
    this.failures = 0;
    this.trialInFlight = false;
    tripped.delete(this);
  }

  failure(): void {
    this.trialInFlight = false;
    this.failures++;
    if (this.failures >= this.threshold) {
      // Opens now: the fifth failure in a row, or a failed trial of a half-open breaker.
      if (this.state !== 'open') breakerTrips.inc();
      this.openUntil = this.now() + this.openMs;
      tripped.add(this);
    }
  }

  /** The account's connection is gone (credentials changed, process closing): it counts no more. */
  dispose(): void {
    tripped.delete(this);
  }

  get state(): 'closed' | 'open' | 'half_open' {
    if (this.failures < this.threshold) return 'closed';
    return this.now() < this.openUntil ? 'open' : 'half_open';
  }
}
