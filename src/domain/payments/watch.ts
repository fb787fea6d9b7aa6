// The watcher (decisions 24): the provider has no callbacks, so a live QR is noticed paid by asking. Each
// live QR of a driver that announces its timing is polled at the provider's interval until it is final,
// through the same path as a merchant's read (syncOperation: transitions, journal, webhooks). Invoices
// are never polled (the provider forbids it): they are read when a merchant reads them and once at their
// deadline by the expiry sweeper. Due QRs are claimed under a lease with SKIP LOCKED, so any number of
// workers share them, and at most `perAccount` of one provider account's QRs are polled per pass.
import type { DbDeps, ProviderDeps } from '../../deps.ts';
import type { PaymentProvider, ProviderTiming } from '../../providers/types.ts';
import { OP_COLUMNS_O, type Operation } from './operations.ts';
import { syncOperation } from './sync.ts';
import { liveProvidersFor } from './provider-accounts.ts';
import { inSpan } from '../../telemetry/tracing.ts';

const LEASE_S = 30;
/**
 * Status calls in flight at once per pass, across accounts. A pass has one second for up to every
 * account's allowance (200 accounts x 5 = 1,000 calls): at 16 in flight each call had 16 ms, which a
 * busy machine missed (bench: 0.68-0.82x of the allowance in a full run); 64 leaves 64 ms.
 */
const CONCURRENCY = 64;

/** Puts a new live QR under watch: first poll one interval from now. */
export async function watchQr(deps: DbDeps, opId: string, t: ProviderTiming): Promise<void> {
  await deps.db.query(
    `UPDATE operations
      SET poll_interval_s = $2::int, confirm_timeout_s = $3::int, next_poll_at = now() + make_interval(secs => $2::int)
      WHERE id = $1`,
    [opId, Math.max(1, Math.round(t.pollIntervalS)), Math.max(1, Math.round(t.confirmTimeoutS))],
  );
}

/**
 * The watcher's lag, for /metrics: seconds since the most overdue live QR should have been polled (0 when
 * none is overdue). A pass starts every second, so a healthy watcher stays within a second or two; more
 * means the passes cannot keep up (too many QRs for the accounts' calls per second, or a slow provider).
 */
export async function watcherLagSeconds(deps: DbDeps): Promise<number> {
  const r = await deps.db.query<{ lag: number | null }>(
    `SELECT EXTRACT(EPOCH FROM now() - min(next_poll_at))::float8 AS lag FROM operations
      WHERE status = 'created' AND next_poll_at IS NOT NULL AND next_poll_at <= now()`,
  );
  return Math.max(0, r.rows[0].lag ?? 0);
}

/** One pass: polls the due QRs it can claim; returns how many. */
export async function pollWatchedQrs(
  deps: ProviderDeps,
  opts: {
    batch: number;
    perAccount: number;
    onError?: (err: unknown, op: Operation) => void;
    /** only these provider accounts' QRs (tests sharing one database with others) */
    accounts?: number[];
  },
): Promise<number> {
  // Each account with due QRs gives its oldest `perAccount` (the provider's calls per second for it), so
  // every account is served each pass: taking the oldest due QRs of all accounts first and capping per
  // account after starved the accounts beyond that window (bench: 10,000 QRs of 200 accounts, 268 calls/s
  // of the 1,000 allowed, a payment noticed after 10 s at the median).
  const due = await deps.db.query<Operation>(
    `WITH accounts AS (
       SELECT DISTINCT provider_account_id FROM operations WHERE status = 'created' AND next_poll_at <= now()
          AND ($3::bigint[] IS NULL OR provider_account_id = ANY($3::bigint[]))),
     picked AS (
       SELECT q.id FROM accounts a CROSS JOIN LATERAL (
         SELECT id FROM operations
          WHERE provider_account_id = a.provider_account_id AND status = 'created' AND next_poll_at <= now()
            AND (poll_lease_until IS NULL OR poll_lease_until < now())
          ORDER BY next_poll_at LIMIT $2 FOR UPDATE SKIP LOCKED) q
        LIMIT $1)
     UPDATE operations o SET poll_lease_until = now() + make_interval(secs => ${LEASE_S})
       FROM picked WHERE o.id = picked.id
     RETURNING ${OP_COLUMNS_O}`,
    [opts.batch, opts.perAccount, opts.accounts ?? null],
  );
  const queue = [...due.rows];
  const polled: string[] = [];
  let providers: Map<number, PaymentProvider> | undefined;
  const worker = async () => {
    for (let op = queue.shift(); op; op = queue.shift()) {
      try {
        // A span per poll (tracing on): the status call and, when it changed, the transition and the
        // webhooks it queues, whose attempts then continue this trace.
        await inSpan('qr-watcher poll', { attributes: { 'tolem.operation.id': op.id } }, () =>
          syncOperation(deps, op, op.mode === 'live' ? providers?.get(op.provider_account_id) : undefined),
        );
      } catch (err) {
        opts.onError?.(err, op);
      }
      polled.push(op.id);
    }
  };
  try {
    const live = due.rows.filter((op) => op.mode === 'live');
    if (live.length)
      providers = await liveProvidersFor(
        deps,
        live.map((op) => op.provider_account_id),
      );
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
  } finally {
    // The pass's QRs are released in one statement, not one each (a pass polls up to a thousand): next
    // poll one interval on, if still waiting (a final one leaves the queue: next_poll_at NULL). Those a
    // crash leaves leased are claimed again when their lease runs out.
    await releaseLeases(deps, polled);
  }
  return due.rows.length;
}

async function releaseLeases(deps: DbDeps, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await deps.db.query(
    `UPDATE operations SET poll_lease_until = NULL,
            next_poll_at = CASE WHEN status = 'created' THEN now() + make_interval(secs => poll_interval_s) END
      WHERE id = ANY($1::text[])`,
    [ids],
  );
}
