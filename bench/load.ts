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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function measure(spec: LoadSpec, opts: { warmup: number; runs: number; duration: number }): Promise<Figures> {
  if (opts.warmup > 0) await once(spec, opts.warmup);
  const runs: (Figures & { total: number })[] = [];
  const before = spec.cpu?.();
  for (let i = 0; i < opts.runs; i++) runs.push(await once(spec, opts.duration));
  const after = spec.cpu?.();
  const requests = runs.reduce((s, r) => s + r.total, 0);
  const perRequest = (k: keyof CpuSample) => Math.round(((after![k] - before![k]) * 1000) / requests);
  return {
    rps: Math.round(median(runs.map((r) => r.rps))),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    errors: runs.reduce((s, r) => s + r.errors, 0),
    ...(before && requests ? { cpu_us: { server: perRequest('server'), db: perRequest('db') } } : {}),
  };
}
