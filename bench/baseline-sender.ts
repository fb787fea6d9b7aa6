// The fan-out baseline: raw undici POSTs of a delivery body to the bench's receiver, `CONCURRENCY` in
// flight, no signing, no database. Prints {rps, p50, p99, errors} as one JSON line.
import { Pool } from 'undici';

const url = process.env.RECEIVER_URL!;
const total = Number(process.env.TOTAL ?? 10_000);
const width = Number(process.env.CONCURRENCY ?? 50);
const body = process.env.BODY ?? '{}';
const pool = new Pool(url, { connections: width, keepAliveTimeout: 30_000 });
const latencies: number[] = [];
let errors = 0;
let next = 0;
const t0 = performance.now();
await Promise.all(
  Array.from({ length: width }, async () => {
    while (next < total) {
      next++;
      const s = performance.now();
      try {
        const r = await pool.request({
          path: '/raw',
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        await r.body.dump();
        if (r.statusCode !== 200) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - s);
    }
  }),
);
const ms = performance.now() - t0;
latencies.sort((a, b) => a - b);
const at = (p: number) =>
  Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] * 100) / 100;
console.log(JSON.stringify({ rps: Math.round((total * 1000) / ms), p50: at(0.5), p99: at(0.99), errors }));
await pool.close();
