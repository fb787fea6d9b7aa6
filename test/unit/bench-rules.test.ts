// The bench's rules for noisy figures: a ratio measured in alternating rounds is the median of the rounds'
// ratios (bench/load.ts), and the fan-out's lag p99 is taken per window (bench/fanout.ts), so one slow
// spell of the shared host does not decide either.
import { describe, expect, it } from 'vitest';
import { roundsRatio, type Rounds } from '../../bench/load.ts';
import { windowP99s } from '../../bench/fanout.ts';

const rounds = (rates: number[][]): Rounds => ({ figures: [], rates });

describe('roundsRatio', () => {
  it('is the median of the per-round ratios, not the ratio of the medians', () => {
    // Per round: 0.5, 1.0, 2.0, 0.9, 1.1 -> 1.0. The medians of the rates alone would say 1000/900.
    const m = rounds([
      [500, 1000],
      [900, 900],
      [1000, 500],
      [900, 1000],
      [1100, 1000],
    ]);
    expect(roundsRatio(m, 0, 1)).toBe(1);
  });

  it('compares any two of the measured servers, to two decimals', () => {
    const m = rounds([
      [2283, 1427, 2678],
      [2014, 1493, 3117],
      [2269, 1448, 2821],
      [1842, 1420, 2627],
      [2254, 1609, 2886],
    ]);
    expect(roundsRatio(m, 0, 2)).toBe(0.78);
    expect(roundsRatio(m, 2, 0)).toBe(1.28); // the median round read the other way round
  });

  it('counts a round where the reference served nothing as 0, not as infinity', () => {
    expect(
      roundsRatio(
        rounds([
          [100, 0],
          [100, 0],
          [100, 100],
        ]),
        0,
        1,
      ),
    ).toBe(0);
  });
});

describe('windowP99s', () => {
  // A receipt at createdAt + lag.
  const at = (createdAt: number, lag: number) => ({ createdAt, at: createdAt + lag });

  it("puts each receipt in the window of its commit and takes each window's p99", () => {
    const receipts = [
      ...Array.from({ length: 100 }, (_, i) => at(1_000 + i, 10)), // window 0: all 10 ms
      ...Array.from({ length: 99 }, (_, i) => at(11_000 + i, 20)), // window 1: 20 ms, and one stall
      at(11_500, 900),
      ...Array.from({ length: 100 }, (_, i) => at(21_000 + i, 30)), // window 2: all 30 ms
    ];
    expect(windowP99s(receipts, 0, 10_000, 3)).toEqual([10, 900, 30]);
  });

  it('counts a commit before the start in the first window and one after the last in the last', () => {
    expect(windowP99s([at(-5, 7), at(99_000, 8)], 0, 10_000, 2)).toEqual([7, 8]);
  });

  it('gives 0 for a window with no receipts', () => {
    expect(windowP99s([at(1, 5)], 0, 10_000, 2)).toEqual([5, 0]);
  });
});
