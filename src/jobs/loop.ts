// A job loop: runs `pass` every `intervalMs`, at once again while a pass reports it had a full batch.
// The interval is the pause after a pass, or with `fixedRate` the time from one pass's start to the
// next's (a pass longer than that is followed at once).
import type { FastifyBaseLogger } from 'fastify';

export class JobLoop {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    readonly name: string,
    private intervalMs: number,
    private log: FastifyBaseLogger,
    /** returns true when more work is waiting; `stopping` says the loop is being stopped (leave the batch) */
    private pass: (stopping: () => boolean) => Promise<boolean | number>,
    private opts: { fixedRate?: boolean } = {},
  ) {}

  /**
   * The first pass comes after one interval, at most 10 s: a process that just started (a deploy, a
   * restart) first serves requests and drains webhooks, instead of running every housekeeping pass at
   * once on a store it shares (the embedded store runs one statement at a time). A restart more often than
   * every 10 s would delay housekeeping, never drop it.
   */
  start(): void {
    this.schedule(Math.min(this.intervalMs, 10_000));
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      const started = Date.now();
      const pause = () =>
        this.opts.fixedRate ? Math.max(0, this.intervalMs - (Date.now() - started)) : this.intervalMs;
      this.running = this.pass(() => this.stopped)
        .then((more) => this.schedule(more === true ? 0 : pause()))
        .catch((err) => {
          this.log.error({ err, job: this.name }, 'job pass failed');
          this.schedule(this.intervalMs);
        });
    }, ms);
  }

  /** Resolves once any pass in progress is over; no new pass starts. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Runs one pass now (tests, and callers that want work done before answering). */
  runOnce(): Promise<boolean | number> {
    return this.pass(() => this.stopped);
  }
}
