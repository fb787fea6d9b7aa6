// Refunds on the provider's r2 scheme go through the payer's return QR (decisions 26, the document's
// p.22-25): the refund is reserved as any other, then a return QR is made and the refund answers 201
// pending with it; the cashier shows it (the payer page of the refund, or the dashboard) and the payer
// scans it in the provider's app, which tells the provider who they are. The return watcher polls the
// return at the interval the provider announced: identified -> the payer's purchases are checked for this
// payment and payment/return is sent naming the return (then the refund is settled as any other, lost
// answers included); expired or refused -> the refund fails and its amount is given back. Nothing has
// moved money until payment/return, so failing a return before it is always safe.
import type { Queryable } from '../../db/db.ts';
import type { Deps, DbDeps, ProviderDeps } from '../../deps.ts';
import type { Mode } from '../tenant.ts';
import type { ProviderReturns } from '../../providers/types.ts';
import { findOperation, type Operation } from './operations.ts';
import { providerCall } from './provider-call.ts';
import { providerFor } from './provider-accounts.ts';
import { returnPageUrl } from './payer-url.ts';
import { sendRefund, settleRefund, type RefundResult } from './refund-settle.ts';
import { alsoWriting, type Receipt } from '../receipt.ts';

/** A return the provider still says is waiting this long after its expiry is given up (nothing was sent). */
const EXPIRY_GRACE_S = 60;
const LEASE_S = 30;
/** return/operations lists at most this many of the payer's purchases, newest first (the document). */
const MAX_PURCHASES = 10;

interface ReturnRow {
  id: string;
  operation_id: string;
  client_id: number;
  mode: Mode;
  amount: number;
  return_qr_id: string;
  return_qr_token: string | null;
  return_expires_at: Date | null;
  return_status: string | null;
}

/** After the refund is reserved: the return QR, and the pending refund that shows it. */
export async function startReturn(
  deps: Pick<Deps, 'config' | 'db' | 'caches'>,
  op: Operation,
  refundId: string,
  returns: ProviderReturns,
  receipt?: Receipt<RefundResult>,
): Promise<RefundResult> {
  let ret;
  try {
    ret = await providerCall(deps, op.mode, op.provider_account_id, () => returns.createReturn({ refundId }));
  } catch (err) {
    // No return QR, no refund: nothing moved, so the amount goes back and the key is free for a retry.
    await settleRefund(deps, refundId, { ref: null, status: 'failed' }, undefined, true);
    throw err;
  }
  await deps.db.query(
    `UPDATE refunds
        SET return_qr_id = $2, return_qr_token = $3, return_expires_at = $4, return_status = 'QrTokenCreated',
            return_poll_interval_s = $5::int, return_next_poll_at = now() + make_interval(secs => $5::int),
            next_attempt_at = NULL
      WHERE id = $1`,
    [refundId, ret.ref, ret.qrToken, ret.expiresAt, Math.max(1, Math.round(ret.pollIntervalS))],
  );
  return refundAsItStands(deps, refundId, receipt);
}

/** The refund as it stands, with its return QR while it waits for the payer; settles nothing. */
export async function refundAsItStands(
  deps: Pick<Deps, 'config' | 'db'>,
  refundId: string,
  receipt?: Receipt<RefundResult>,
): Promise<RefundResult> {
  // The answer carries the return QR: it is added to the result before the receipt saves it.
  const withReturn = alsoWriting(receipt, (tx, r) => addReturn(deps, tx, r));
  return settleRefund(deps, refundId, { ref: null, status: 'pending' }, withReturn);
}

async function addReturn(deps: Pick<Deps, 'config'>, tx: Queryable, r: RefundResult): Promise<void> {
  if (r.status !== 'pending') return;
  const q = await tx.query<{ token: string | null; expires: Date | null; waiting: boolean }>(
    `SELECT return_qr_token AS token, return_expires_at AS expires, (return_next_poll_at IS NOT NULL) AS waiting
      FROM refunds WHERE id = $1`,
    [r.refund_id],
  );
  const row = q.rows[0];
  if (!row?.token || !row.waiting) return;
  r.return_qr_token = row.token;
  r.return_deep_link = returnPageUrl(deps.config.publicBaseUrl, r.operation_id, r.refund_id);
  if (row.expires) r.expires_at = row.expires;
}

/** One pass of the return watcher: polls the due returns it can claim; returns how many. */
export async function pollReturns(
  deps: ProviderDeps,
  opts: { batch: number; onError?: (err: unknown, refundId: string) => void; accounts?: number[] },
): Promise<number> {
  const due = await deps.db.query<ReturnRow>(
    `UPDATE refunds r SET return_lease_until = now() + make_interval(secs => ${LEASE_S})
      WHERE r.id IN (SELECT f.id FROM refunds f JOIN operations o ON o.id = f.operation_id
                      WHERE f.status = 'pending' AND f.return_next_poll_at <= now()
                        AND (f.return_lease_until IS NULL OR f.return_lease_until < now())
                        AND ($2::bigint[] IS NULL OR o.provider_account_id = ANY($2::bigint[]))
                      ORDER BY f.return_next_poll_at LIMIT $1 FOR UPDATE OF f SKIP LOCKED)
      RETURNING r.id, r.operation_id, r.client_id, r.mode, r.amount, r.return_qr_id, r.return_qr_token,
                r.return_expires_at, r.return_status`,
    [opts.batch, opts.accounts ?? null],
  );
  for (const row of due.rows) {
    try {
      await followReturn(deps, row);
    } catch (err) {
      opts.onError?.(err, row.id);
    } finally {
      await deps.db.query(
        `UPDATE refunds SET return_lease_until = NULL,
                return_next_poll_at = CASE WHEN status = 'pending' AND return_next_poll_at IS NOT NULL
                                           THEN now() + make_interval(secs => return_poll_interval_s) END
          WHERE id = $1`,
        [row.id],
      );
    }
  }
  return due.rows.length;
}

async function followReturn(deps: ProviderDeps, row: ReturnRow): Promise<void> {
  const op = await findOperation(deps.db, { clientId: row.client_id, mode: row.mode }, row.operation_id);
  const provider = await providerFor(deps, op.mode, op.provider_account_id);
  const returns = provider.returns;
  // The account was reconnected on a scheme without returns: this return cannot be followed; nothing was sent.
  if (!returns) return failReturn(deps, row, row.return_status ?? 'unknown');
  const st = await providerCall(deps, op.mode, op.provider_account_id, () => returns.returnStatus(row.return_qr_id));
  if (st.status === 'waiting') {
    const expires = row.return_expires_at?.getTime() ?? Infinity;
    if (deps.clock.now().getTime() > expires + EXPIRY_GRACE_S * 1000) return failReturn(deps, row, 'Expired');
    if (st.raw !== row.return_status)
      await deps.db.query('UPDATE refunds SET return_status = $2 WHERE id = $1', [row.id, st.raw]);
    return;
  }
  if (st.status === 'failed') return failReturn(deps, row, st.raw);
  // Identified. Whoever scanned must be the payer: the provider lists their last purchases at this trade
  // point. A full list may have pushed this one out, so then the provider's own check on payment/return decides.
  const purchases = await providerCall(deps, op.mode, op.provider_account_id, () =>
    returns.returnPurchases(row.return_qr_id),
  );
  if (!purchases.includes(op.provider_ref) && purchases.length < MAX_PURCHASES)
    return failReturn(deps, row, 'NotThePayer');
  // From here money may move: the retry job owns the refund if this process dies before it is settled.
  await deps.db.query(
    `UPDATE refunds SET return_status = $2, return_next_poll_at = NULL, next_attempt_at = now() + interval '60 seconds'
      WHERE id = $1 AND status = 'pending'`,
    [row.id, st.raw],
  );
  await sendRefund(deps, op, row.id, Number(row.amount), { first: true, returnRef: row.return_qr_id });
}

/** Nothing was sent: the refund fails and its amount goes back. */
async function failReturn(deps: DbDeps, row: ReturnRow, status: string): Promise<void> {
  await deps.db.query(
    "UPDATE refunds SET return_status = $2, return_next_poll_at = NULL WHERE id = $1 AND status = 'pending'",
    [row.id, status],
  );
  await settleRefund(deps, row.id, { ref: null, status: 'failed' });
}
