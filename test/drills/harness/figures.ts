// A drill's figures, counted after the fault: what the clients sent and what failed (by status and code,
// or network error), the payments they meant to make against the payments stored (by the tag in each
// comment), the webhooks expected against those received, and the seconds from the fault's end to the
// first success and to the backlog drained. Printed as one JSON line; the drill asserts on the counts,
// never on the timings.
import type { PaymentLoad } from './load.ts';
import type { DrillStack } from './stack.ts';
import { sleep } from './services.ts';

export interface Figures {
  drill: string;
  fault: string;
  fault_seconds: number;
  requests_sent: number;
  requests_failed: number;
  failed_by: Record<string, number>;
  payments_meant: number;
  payments_stored: number;
  payments_lost: number;
  payments_duplicated: number;
  /** payments owed a webhook when the fault ended (paid by then; live: paid by the customer by then) */
  backlog_at_fault_end: number;
  webhooks_expected: number;
  webhooks_delivered: number;
  webhook_requests_received: number;
  webhook_duplicates: number;
  recover_first_success_s: number | null;
  recover_first_delivery_s: number | null;
  recover_drained_s: number | null;
  processes_exited: string[];
  /** tags lost or duplicated, for the failure message (not printed when empty) */
  lost?: string[];
  duplicated?: string[];
}

interface Stored {
  comment: string;
  rows: number;
  paid: number;
  op: string;
  paid_at: Date | null;
}

const seconds = (ms: number | undefined) => (ms === undefined ? null : Math.round(ms / 100) / 10);

/** Every paid payment of the store: id and when it was paid. */
async function paidOperations(stack: DrillStack): Promise<{ id: string; paid_at: Date }[]> {
  return (await stack.db.query(`SELECT id, paid_at FROM operations WHERE status = 'paid'`)).rows;
}

/**
 * Waits (up to `boundMs`) until the payments meant are paid and every paid payment's payment.completed
 * has reached the receiver; then counts. `backlog`: the operations owed a webhook when the fault ended
 * (default: those paid by then).
 */
export async function collectFigures(opts: {
  drill: string;
  fault: string;
  stack: DrillStack;
  load: PaymentLoad;
  faultStart: number;
  faultEnd: number;
  boundMs: number;
  backlog?: string[];
}): Promise<Figures> {
  const { stack, load } = opts;
  const until = Date.now() + opts.boundMs;
  let paid = await paidOperations(stack);
  // Done when every payment meant is stored paid (a live one once the watcher noticed it) and every paid
  // payment's webhook has arrived; or at the bound, and the counts say what is missing.
  while (
    (paid.length < load.meant.length || paid.some((p) => !stack.receiver.completedAt.has(p.id))) &&
    Date.now() < until
  ) {
    await sleep(250);
    paid = await paidOperations(stack);
  }
  const stored = (
    await stack.db.query<Stored>(
      `SELECT comment, count(*)::int AS rows, count(*) FILTER (WHERE status = 'paid')::int AS paid,
              min(id) AS op, max(paid_at) AS paid_at
         FROM operations WHERE comment LIKE 'drill-%' GROUP BY comment`,
    )
  ).rows;
  const byTag = new Map(stored.map((s) => [s.comment, s]));
  const lost = load.meant.filter((t) => !(byTag.get(t)?.paid ?? 0));
  const duplicated = stored.filter((s) => s.rows > 1).map((s) => s.comment);
  const backlog = opts.backlog ?? paid.filter((p) => p.paid_at.getTime() <= opts.faultEnd).map((p) => p.id);
  const drainedAt = Math.max(opts.faultEnd, ...backlog.map((id) => stack.receiver.completedAt.get(id) ?? Infinity));
  const delivered = paid.filter((p) => stack.receiver.completedAt.has(p.id)).length;
  const figures: Figures = {
    drill: opts.drill,
    fault: opts.fault,
    fault_seconds: seconds(opts.faultEnd - opts.faultStart) ?? 0,
    requests_sent: load.log.sent,
    requests_failed: load.log.failedCount(),
    failed_by: Object.fromEntries([...load.log.failed.entries()].sort((a, b) => b[1] - a[1])),
    payments_meant: load.meant.length,
    payments_stored: load.meant.length - lost.length,
    payments_lost: lost.length,
    payments_duplicated: duplicated.length,
    backlog_at_fault_end: backlog.length,
    webhooks_expected: paid.length,
    webhooks_delivered: delivered,
    webhook_requests_received: stack.receiver.received(),
    webhook_duplicates: stack.receiver.duplicates(),
    recover_first_success_s: seconds(
      ((t) => (t === undefined ? undefined : t - opts.faultEnd))(load.log.firstSuccessAfter(opts.faultEnd)),
    ),
    recover_first_delivery_s: seconds(
      ((t) => (t === undefined ? undefined : t - opts.faultEnd))(
        stack.receiver.arrivals.find((a) => a >= opts.faultEnd),
      ),
    ),
    recover_drained_s: Number.isFinite(drainedAt) ? seconds(drainedAt - opts.faultEnd) : null,
    processes_exited: stack.unexpectedExits(),
  };
  console.log(`DRILL ${JSON.stringify(figures)}`);
  if (lost.length) figures.lost = lost.slice(0, 10);
  if (duplicated.length) figures.duplicated = duplicated.slice(0, 10);
  return figures;
}
