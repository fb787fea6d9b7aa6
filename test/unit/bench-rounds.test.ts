// The bench's rule for a ratio measured in alternating rounds (bench/load.ts): the median of the rounds'
// ratios, so one round in a slow spell of the host on either side does not decide it.
import { describe, expect, it } from 'vitest';
import { roundsRatio, type Rounds } from '../../bench/load.ts';

const rounds = (rates: number[][]): Rounds => ({ figures: [], rates });

describe('roundsRatio', () => {
  it('is the median of the per-round ratios, not the ratio of the medians', () => {
    // Per round: 0.5, 1.0, 2.0, 0.9, 1.1 -> 1.0. The medians of the rates alone would say 1000/900.
    const m = rounds([[500, 1000], [900, 900], [1000, 500], [900, 1000], [1100, 1000]]);
    expect(roundsRatio(m, 0, 1)).toBe(1);
  });

  it('compares any two of the measured servers, to two decimals', () => {
    const m = rounds([[2283, 1427, 2678], [2014, 1493, 3117], [2269, 1448, 2821], [1842, 1420, 2627], [2254, 1609, 2886]]);
    expect(roundsRatio(m, 0, 2)).toBe(0.78);
    expect(roundsRatio(m, 2, 0)).toBe(1.28); // the median round read the other way round
  });

  it('counts a round where the reference served nothing as 0, not as infinity', () => {
    expect(roundsRatio(rounds([[100, 0], [100, 0], [100, 100]]), 0, 1)).toBe(0);
  });
});
