// The targets of issues 7, 20, 22 and 25, checked against each entry of a run.
import type { Figures } from './load.ts';
import type { FanoutResult } from './fanout.ts';

export interface Entry {
  scenario: string;
  store: string;
  connections: number;
  tolem: Figures;
  baseline: Figures;
  /**
   * Tolem's rate over the baseline's; where they ran in alternating rounds (load.ts), the median of the rounds'
   * ratios
   */
  ratio: number;
  peak_rss_mb?: number;
  /** webhook_fanout: tolem.rps is the drain rate, p50/p99 the commit-to-receipt lag at the offered rate */
  fanout?: FanoutResult;
  /** the rates of each round of a comparison run in alternating rounds: [Tolem, baseline, floor if any] */
  rounds?: number[][];
  /** list_page: the floor (the bare prepared SELECT) measured in the same rounds */
  floor?: Figures;
  /** list_page: Tolem's rate over the floor's, the median of the rounds' ratios */
  floor_ratio?: number;
  /** checkout: the baseline's checkout plus what every public response must do (baseline-server.ts) */
  public_floor?: Figures;
  /** checkout: Tolem's rate over the public floor's in the same run */
  public_floor_ratio?: number;
  /** webhook_fanout on PostgreSQL: a plain durable sender's drain of the same backlog (baseline-durable-sender.ts) */
  durable_floor?: Figures;
  /** webhook_fanout: Tolem's drain over the durable floor's in the same run */
  durable_floor_ratio?: number;
  /**
   * qr_watcher: tolem.rps is status calls/s, p50/p99 the time to notice a payment; baseline.rps what the provider
   * allows
   */
  watcher?: import('./watcher.ts').WatcherFigures;
  /**
   * fiscal_receipts: tolem.rps is one register's receipts/s, baseline.rps a bare client's at the emulator.
   * fiscal_delay: tolem.p50/p99 the paid -> issued delay, baseline.p50 its floor, errors the receipts not issued,
   * issued twice, or registers whose count differs from Tolem's
   */
  fiscal?: import('./fiscal.ts').FiscalFigures;
  target: string | null;
  target_met: boolean | null;
}

type Check = (
  store: string,
  c: number,
) => { text: string; met: (e: Partial<Entry> & { ratio: number; tolem: Figures }) => boolean } | undefined;

// Issue 25: every target is a ratio to something measured in the same run (the bare baseline doing the
// same work, or this machine's floor), except start-up and memory, which are the user's own experience.
export const TARGETS: Record<string, Check> = {
  create_qr: (_store, c) => (c === 10 ? { text: '>= 0.9x baseline', met: (e) => e.ratio >= 0.9 } : undefined),
  read_status: (_store, c) => (c === 10 ? { text: '>= 1.0x baseline', met: (e) => e.ratio >= 1.0 } : undefined),
  // The list query's floor: the same keyset SELECT prepared, its rows sent unmapped (run.ts `floor`).
  list_page: (_store, c) =>
    c === 10 ? { text: ">= 0.75x the list query's floor", met: (e) => (e.floor_ratio ?? 0) >= 0.75 } : undefined,
  checkout: (_store, c) => (c === 10 ? { text: '>= 1.0x baseline', met: (e) => e.ratio >= 1.0 } : undefined),
  webhook_fanout: (store) =>
    store === 'pg'
      ? {
          text: ">= 0.5x the bare sender's drain, lag p99 <= 250 ms at 1,000/s offered, none lost",
          met: (e) => e.ratio >= 0.5 && e.tolem.p99 <= 250 && e.tolem.errors === 0,
        }
      : {
          text: '>= 1,000 deliveries/s drained, lag p99 <= 2 s at 300/s offered, none lost',
          met: (e) => e.tolem.rps >= 1000 && e.tolem.p99 <= 2000 && e.tolem.errors === 0,
        },
  // Issue 22: the partner API's payments list, over all of a 10,000-client partner's payments, keeps pace
  // with the same keyset SELECT served bare, as the client's own list does.
  partner_list_page: (_store, c) =>
    c === 10 ? { text: '>= 0.75x baseline (the same SQL bare)', met: (e) => e.ratio >= 0.75 } : undefined,
  // Issue 20: a 10,000-client partner's analytics stay interactive, and the domain adds little to its SQL.
  partner_analytics_summary: (store) =>
    store === 'pg'
      ? { text: 'p99 <= 250 ms, >= 0.8x the bare SQL', met: (e) => e.tolem.p99 <= 250 && e.ratio >= 0.8 }
      : undefined,
  partner_analytics_funnel: (store) =>
    store === 'pg'
      ? { text: 'p99 <= 250 ms, >= 0.8x the bare SQL', met: (e) => e.tolem.p99 <= 250 && e.ratio >= 0.8 }
      : undefined,
  // Issue 25: the watcher uses what the provider allows it (each account's calls per second) when a
  // backlog asks for it, and a payment is noticed within a poll cycle of its account.
  qr_watcher: () => ({
    text: '>= 0.9x the calls/s the provider allows, every payment noticed',
    met: (e) => e.ratio >= 0.9 && e.tolem.errors === 0,
  }),
  // Issues 43 and 45 (target 3): a register's receipts go out as fast as the service answers them one at a
  // time, and a paid payment's receipt is issued within 2 s at 50 payments/s over 20 registers, none twice.
  fiscal_receipts: () => ({
    text: ">= 0.9x a bare client's receipts/s at the emulator (50 ms a call)",
    met: (e) => e.ratio >= 0.9,
  }),
  fiscal_delay: () => ({
    text: 'paid -> issued p99 <= 2 s at 50/s over 20 registers, every receipt issued once',
    met: (e) => e.tolem.p99 <= 2000 && e.tolem.errors === 0,
  }),
  startup_ms: () => ({ text: '<= 3000 ms to ready /readyz', met: (e) => e.tolem.p50 <= 3000 }),
  // The highest resident set of the Tolem server over the whole store's run (every scenario).
  peak_rss_mb: (store) => {
    const limit = store === 'pg' ? 300 : 600;
    return { text: `<= ${limit} MB`, met: (e) => e.tolem.p50 <= limit };
  },
};
