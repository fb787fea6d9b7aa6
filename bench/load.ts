// One measurement with autocannon: warm-up, then the median of several runs.
import autocannon from 'autocannon';
import type { CpuSample } from './cpu.ts';

export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU µs per request over the timed runs: the server's, and PostgreSQL's (0 on the embedded store) */
  cpu_us?: CpuSample;
}

export interface LoadSpec {
  url: string;
  connections: number;
  /** builds each request: method, path, headers, body */
  next: () => { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string };
  /** samples the CPU ms used so far (bench/cpu.ts) */
  cpu?: () => CpuSample;
}

async function once(spec: LoadSpec, duration: number): Promise<Figures & { total: number }> {
  const r = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration,
    requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, ...spec.next() }) } as never],
  });
  const non2xx = r.non2xx + r.errors + r.timeouts;
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: non2xx, total: r.requests.total };
}

/** The middle value (of an odd count; the upper middle of an even one). */
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One server: warm-up, then the median of its runs (measureRounds with one spec). */
export async function measure(
  spec: LoadSpec,
  opts: { warmup: number; runs: number; duration: number },
): Promise<Figures> {
  return (await measureRounds([spec], opts)).figures[0];
}

export interface Rounds {
  /** each spec's figures: the median rate of its rounds, its CPU summed over them */
  figures: Figures[];
  /** rates[round][spec] */
  rates: number[][];
}

/**
 * Several servers measured in alternating rounds: each round runs every spec once, forwards on even rounds
 * and backwards on odd ones. On a shared host a slow spell of a few seconds moved a ratio of two
 * measurements taken one after the other by up to 0.3x (docs/performance.md); within one round both sides
 * see the same host, so the median of the rounds' ratios (roundsRatio) separates the code from the noise.
 */
export async function measureRounds(
  specs: LoadSpec[],
  opts: { warmup: number; runs: number; duration: number },
): Promise<Rounds> {
  if (opts.warmup > 0) for (const s of specs) await once(s, opts.warmup);
  const runs: (Figures & { total: number })[][] = specs.map(() => []);
  const cpu = specs.map(() => ({ server: 0, db: 0 }));
  const rates: number[][] = [];
  for (let r = 0; r < opts.runs; r++) {
    const order = specs.map((_, i) => i);
    if (r % 2) order.reverse();
    const rate: number[] = [];
    for (const i of order) {
      const before = specs[i].cpu?.();
      const run = await once(specs[i], opts.duration);
      const after = specs[i].cpu?.();
      if (before && after) {
        cpu[i].server += after.server - before.server;
        cpu[i].db += after.db - before.db;
      }
      runs[i].push(run);
      rate[i] = run.rps;
    }
    rates.push(rate);
  }
  const figures = runs.map((rs, i) => {
    const requests = rs.reduce((s, x) => s + x.total, 0);
    return {
      rps: Math.round(median(rs.map((x) => x.rps))),
      p50: median(rs.map((x) => x.p50)),
      p99: median(rs.map((x) => x.p99)),
      errors: rs.reduce((s, x) => s + x.errors, 0),
      ...(specs[i].cpu && requests
        ? {
            cpu_us: {
              server: Math.round((cpu[i].server * 1000) / requests),
              db: Math.round((cpu[i].db * 1000) / requests),
            },
          }
        : {}),
    };
  });
  return { figures, rates };
}

/** The median over the rounds of spec a's rate over spec b's, to two decimals. */
export function roundsRatio(m: Rounds, a: number, b: number): number {
  const ratios = m.rates.map((r) => (r[b] ? r[a] / r[b] : 0));
  return Math.round(median(ratios) * 100) / 100;
}
