// The targets of issue 7 (PostgreSQL, c=10, same-run ratios), checked against each entry.
import type { Figures } from './load.ts';
import type { FanoutResult } from './fanout.ts';

export interface Entry {
  scenario: string;
  store: string;
  connections: number;
  tolem: Figures;
  baseline: Figures;
  ratio: number;
  peak_rss_mb?: number;
  /** webhook_fanout: tolem.rps is the drain rate, p50/p99 the commit-to-receipt lag at the offered rate */
  fanout?: FanoutResult;
  target: string | null;
  target_met: boolean | null;
}

type Check = (store: string, c: number) => { text: string; met: (e: Partial<Entry> & { ratio: number; tolem: Figures }) => boolean } | undefined;

export const TARGETS: Record<string, Check> = {
  create_qr: (store, c) =>
    c !== 10 ? undefined
      : store === 'pg'
        ? { text: '>= 0.7x baseline, p99 <= 15 ms, RSS <= 300 MB', met: (e) => e.ratio >= 0.7 && e.tolem.p99 <= 15 && (e.peak_rss_mb ?? 0) <= 300 }
        : { text: '>= 0.7x baseline on PGlite', met: (e) => e.ratio >= 0.7 },
  read_status: (store, c) => (store === 'pg' && c === 10 ? { text: '>= 0.7x baseline', met: (e) => e.ratio >= 0.7 } : undefined),
  list_page: (store, c) => (store === 'pg' && c === 10 ? { text: '>= 0.8x baseline, p99 <= 5 ms', met: (e) => e.ratio >= 0.8 && e.tolem.p99 <= 5 } : undefined),
  checkout: (store, c) => (store === 'pg' && c === 10 ? { text: '>= 0.7x baseline', met: (e) => e.ratio >= 0.7 } : undefined),
  webhook_fanout: (store) => (store === 'pg'
    ? { text: '>= 1000 deliveries/s, lag p99 <= 1000 ms at 1000/s offered, none lost', met: (e) => e.tolem.rps >= 1000 && e.tolem.p99 <= 1000 && e.tolem.errors === 0 }
    : undefined),
  // Issue 22: the partner API's payments list, over all of a 10,000-client partner's payments, keeps pace
  // with the same keyset SELECT served bare, as the client's own list does.
  partner_list_page: (_store, c) => (c === 10 ? { text: '>= 0.75x baseline (the same SQL bare)', met: (e) => e.ratio >= 0.75 } : undefined),
  // Issue 20: a 10,000-client partner's analytics stay interactive, and the domain adds little to its SQL.
  partner_analytics_summary: (store) => (store === 'pg' ? { text: 'p99 <= 250 ms, >= 0.8x the bare SQL', met: (e) => e.tolem.p99 <= 250 && e.ratio >= 0.8 } : undefined),
  partner_analytics_funnel: (store) => (store === 'pg' ? { text: 'p99 <= 250 ms, >= 0.8x the bare SQL', met: (e) => e.tolem.p99 <= 250 && e.ratio >= 0.8 } : undefined),
  startup_ms: () => ({ text: '<= 3000 ms to ready /readyz', met: (e) => e.tolem.p50 <= 3000 }),
};
