// The job loop's schedule: a pause after each pass, or (fixedRate) one pass start per interval.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { JobLoop } from '../../src/jobs/loop.ts';

const log = { error: () => {} } as unknown as FastifyBaseLogger;

/** stop() waits for the pass under way, whose time is fake: let it run out. */
async function stopped(loop: JobLoop): Promise<void> {
  const done = loop.stop();
  await vi.advanceTimersByTimeAsync(2_000);
  await done;
}

async function passStarts(fixedRate: boolean): Promise<number[]> {
  const starts: number[] = [];
  const loop = new JobLoop(
    't',
    1000,
    log,
    async () => {
      starts.push(Date.now());
      await new Promise((ok) => setTimeout(ok, 300)); // the pass's own time
      return false;
    },
    { fixedRate },
  );
  loop.start();
  await vi.advanceTimersByTimeAsync(4_500);
  await stopped(loop);
  return starts.map((t) => t - starts[0]);
}

describe('JobLoop', () => {
  afterEach(() => vi.useRealTimers());

  it('pauses one interval after each pass by default', async () => {
    vi.useFakeTimers();
    expect(await passStarts(false)).toEqual([0, 1300, 2600]);
  });

  it('starts a pass each interval with fixedRate, whatever the pass takes', async () => {
    vi.useFakeTimers();
    expect(await passStarts(true)).toEqual([0, 1000, 2000, 3000]);
  });

  it('with fixedRate, follows a pass longer than the interval at once', async () => {
    vi.useFakeTimers();
    const starts: number[] = [];
    const loop = new JobLoop(
      't',
      1000,
      log,
      async () => {
        starts.push(Date.now());
        await new Promise((ok) => setTimeout(ok, 1500));
        return false;
      },
      { fixedRate: true },
    );
    loop.start();
    await vi.advanceTimersByTimeAsync(4_200);
    await stopped(loop);
    // (a timer of 0 ms fires after 1 ms in Node)
    const at = starts.map((t) => t - starts[0]);
    expect(at).toHaveLength(3);
    at.forEach((t, i) => expect(Math.abs(t - 1500 * i)).toBeLessThanOrEqual(2));
  });
});
