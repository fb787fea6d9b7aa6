// Markdown tables of a bench result (bench/results/latest.json by default), one per store: each figure with
// its ratio, its target and the command that measures it again. `npx tsx bench/report.ts [file]`.
import { readFileSync } from 'node:fs';
import type { Entry } from './targets.ts';

const file = process.argv[2] ?? 'bench/results/latest.json';
const run = JSON.parse(readFileSync(file, 'utf8')) as {
  generated_at: string;
  floor: Record<string, { select_1?: { rps: number; p99: number }; list_query?: { rps: number; p99: number } }>;
  entries: Entry[];
};
const NAMES: Record<string, string> = { pg: 'PostgreSQL', pglite: 'Embedded store (PGlite)' };

function figure(e: Entry): [string, string, string] {
  switch (e.scenario) {
    case 'webhook_fanout':
      return [
        `${e.tolem.rps} deliveries/s drained; lag p50 ${e.tolem.p50} ms, p99 ${e.tolem.p99} ms ` +
          `(median of windows ${e.fanout?.lag_p99_windows_ms?.join('/') ?? '?'}; ` +
          `all ${e.fanout?.lag_p99_all_ms ?? '?'}) ` +
          `at ${e.fanout?.offered_per_s}/s offered`,
        `${e.baseline.rps} POSTs/s (bare undici)` +
          (e.durable_floor ? `; durable floor ${e.durable_floor.rps} deliveries/s` : ''),
        `${e.ratio}${e.durable_floor_ratio ? ` (${e.durable_floor_ratio} of the durable floor)` : ''}`,
      ];
    case 'qr_watcher':
      return [
        `${e.tolem.rps} status calls/s; payment noticed p50 ${e.tolem.p50} ms, p99 ${e.tolem.p99} ms`,
        `${e.baseline.rps} calls/s allowed`,
        String(e.ratio),
      ];
    case 'fiscal_receipts':
      return [
        `${e.tolem.rps} receipts/s on one register (${e.fiscal?.calls_per_receipt ?? '?'} calls a receipt)`,
        `${e.baseline.rps} receipts/s (bare undici, ${e.baseline.p50} ms a call)`,
        String(e.ratio),
      ];
    case 'fiscal_delay':
      return [
        `paid -> issued p50 ${e.tolem.p50} ms, p99 ${e.tolem.p99} ms (max ${e.fiscal?.delay.max_ms ?? '?'}) ` +
          `at ${e.tolem.rps}/s over ${e.connections} registers; ${e.fiscal?.delay.issued ?? '?'} of ` +
          `${e.fiscal?.delay.operations ?? '?'} issued, ${e.fiscal?.delay.duplicates ?? '?'} twice`,
        `floor ${e.baseline.p50} ms (one payment at a time)`,
        '—',
      ];
    case 'startup_ms':
      return [`${e.tolem.p50} ms to ready`, '—', '—'];
    case 'peak_rss_mb':
      return [`${e.tolem.p50} MB`, '—', '—'];
    case 'checkout':
      return [
        `${e.tolem.rps} req/s, p99 ${e.tolem.p99} ms`,
        `${e.baseline.rps} req/s${e.public_floor ? `; public floor ${e.public_floor.rps} req/s` : ''}`,
        `${e.ratio}${e.public_floor_ratio ? ` (${e.public_floor_ratio} of the public floor)` : ''}`,
      ];
    case 'list_page':
      return [
        `${e.tolem.rps} req/s, p99 ${e.tolem.p99} ms`,
        `${e.baseline.rps} req/s${e.floor ? `; floor ${e.floor.rps} req/s` : ''}`,
        `${e.ratio} (${e.floor_ratio ?? '?'} of the floor)`,
      ];
    default:
      return [
        `${e.tolem.rps} ${e.connections === 1 ? 'calls' : 'req'}/s, p99 ${e.tolem.p99} ms`,
        `${e.baseline.rps}/s`,
        String(e.ratio),
      ];
  }
}

console.log(`Full run of ${run.generated_at.slice(0, 10)} (\`${file}\`).\n`);
for (const store of [...new Set(run.entries.map((e) => e.store))]) {
  const f = run.floor[store];
  console.log(`### ${NAMES[store] ?? store}`);
  if (f?.select_1 && f.list_query)
    console.log(
      `Floors (baseline server, c=10): HTTP + \`SELECT 1\` ${f.select_1.rps} req/s; ` +
        `HTTP + the list's keyset SELECT prepared, rows unmapped ${f.list_query.rps} req/s.\n`,
    );
  console.log('| scenario | c | Tolem | baseline (same run) | ratio | target | met | reproduce |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const e of run.entries.filter((x) => x.store === store)) {
    const [t, b, r] = figure(e);
    const met = e.target_met === null ? '' : e.target_met ? 'yes' : '**no**';
    const only =
      e.scenario === 'startup_ms' || e.scenario === 'peak_rss_mb'
        ? 'create_qr'
        : e.scenario.replace(/^partner_analytics_.*/, 'partner_analytics').replace(/^fiscal_.*/, 'fiscal');
    const reproduce = `\`BENCH_STORES=${store} BENCH_ONLY=${only} npm run bench\``;
    console.log(
      `| ${e.scenario} | ${e.connections || ''} | ${t} | ${b} | ${r} | ${e.target ?? ''} | ${met} | ${reproduce} |`,
    );
  }
  console.log('');
}
