// The public checkout of a link (no authentication). A visitor is one browser, known by an httpOnly
// cookie: each opening reuses that visitor's newest QR while it has at least a minute to live, else
// issues a fresh one. With email_required no QR is issued before the visitor's e-mail is stored.
import type { Deps, ProviderDeps, DbDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { OP_COLUMNS, OP_COLUMNS_O, type Operation } from '../payments/operations.ts';
import { syncOperation } from '../payments/sync.ts';
import { simulate } from '../payments/test-actions.ts';
import { publicMerchant, type PublicMerchant } from '../branding/branding.ts';
import { checkEmail } from '../addresses.ts';
import { expireIfDue, findPublicLink, isToken, LINK_COLUMNS, notFound, type Link } from './links.ts';
import { alsoWriting } from '../receipt.ts';
import { issueLinkQr, SHOWN_QR_COLUMNS, type ShownQr } from './qr.ts';
import { lockActive } from './update.ts';
import { paidMeanwhile } from './paid-meanwhile.ts';
import { issuedCheckUrl } from '../fiscal/receipts.ts';
import { isPaid } from '../payments/state.ts';

const prefixed = (cols: string, table: string, prefix: string) =>
  cols
    .split(',')
    .map((c) => `${table}.${c.trim()} AS ${prefix}${c.trim()}`)
    .join(', ');

/**
 * What an opening of the checkout reads, in one round trip (the page is the busiest public read): the
 * link, this visitor's e-mail and newest QR of the current cycle. The merchant's branding is cached.
 * The cycle is compared with checkout_operations.created_at (written in the QR's own transaction, to the
 * microsecond like qr_cycle_at), not the operation's, which is cut to the millisecond (migration 0005).
 */
const LOAD_SQL = `
SELECT ${prefixed(LINK_COLUMNS, 'l', 'l_')}, v.email AS v_email, ${prefixed(SHOWN_QR_COLUMNS, 'o', 'o_')}
  FROM payment_links l
  LEFT JOIN checkout_visitors v ON v.link_token = l.token AND v.visitor_id = $2
  LEFT JOIN LATERAL (
    SELECT ${prefixed(SHOWN_QR_COLUMNS, 'op', '')}
      FROM checkout_operations co JOIN operations op ON op.id = co.operation_id
     WHERE co.link_token = l.token AND co.visitor_id = $2 AND co.created_at >= l.qr_cycle_at
     ORDER BY co.created_at DESC LIMIT 1) o ON true
 WHERE l.token = $1`;

/** Reads one record back out of a row of prefixed columns (the pairs computed once, not per row). */
const columnPairs = (cols: string, prefix: string) =>
  cols.split(',').map((c) => [c.trim(), prefix + c.trim()] as const);
const LINK_PAIRS = columnPairs(LINK_COLUMNS, 'l_');
const QR_PAIRS = columnPairs(SHOWN_QR_COLUMNS, 'o_');
function unprefix<T>(row: Record<string, unknown>, pairs: readonly (readonly [string, string])[]): T {
  const out: Record<string, unknown> = {};
  for (const [k, from] of pairs) out[k] = row[from];
  return out as T;
}

async function loadCheckout(
  deps: Pick<Deps, 'db' | 'caches'>,
  token: string,
  visitorId: string,
): Promise<CheckoutState> {
  if (!isToken(token)) throw notFound(token);
  const r = await deps.db.query<Record<string, unknown>>(LOAD_SQL, [token, visitorId]);
  const row = r.rows[0];
  if (!row) throw notFound(token);
  const op = row.o_id === null ? null : unprefix<ShownQr>(row, QR_PAIRS);
  const link = await expireIfDue(deps.db, unprefix<Link>(row, LINK_PAIRS));
  return {
    link,
    op,
    email: (row.v_email as string | null) ?? null,
    merchant: await publicMerchant(deps, link.client_id),
  };
}

/** A QR with less life left than this is not shown again: the payer needs time to scan and confirm. */
export const REUSE_MIN_LEFT_S = 60;

export interface CheckoutState {
  link: Link;
  /** the QR to show; null while the e-mail step is pending */
  op: ShownQr | null;
  email: string | null;
  merchant: PublicMerchant;
}

/** A public refresh of any link that is not active, a paid one included, is 409 payment_link_not_active (decisions). */
function refreshRefusal(link: Link): AppError | null {
  return link.status === 'active'
    ? null
    : new AppError('payment_link_not_active', `this payment link is ${link.status}`);
}

/** Why a payer cannot pay this link now, or null when it is payable. */
export function refusal(link: Link): AppError | null {
  if (link.status === 'paid')
    return new AppError('payment_link_already_paid', 'this payment link has already been paid');
  if (link.status !== 'active') return new AppError('payment_link_not_active', `this payment link is ${link.status}`);
  return null;
}

/**
 * Failures of creating or reading a payment that are the merchant's business (plan over, provider not
 * connected or its session expired, provider down) reach the payer as one neutral 503.
 */
export function publicError(err: unknown): unknown {
  if (!(err instanceof AppError)) return err;
  if (err.code.startsWith('payment_link_') || err.code === 'payment_not_found' || err.code === 'payment_not_pending')
    return err;
  if (err.code === 'test_mode_only' || err.status === 400) return err;
  return new AppError('payment_unavailable', 'payments to this merchant are temporarily unavailable; try again later', {
    cause: err,
  });
}

/** The visitor's newest QR of the link's current QR cycle, whatever its status. */
export async function visitorOperation(deps: DbDeps, link: Link, visitorId: string): Promise<Operation | null> {
  const r = await deps.db.query<Operation>(
    `SELECT ${OP_COLUMNS_O} FROM checkout_operations c JOIN operations o ON o.id = c.operation_id
      WHERE c.link_token = $1 AND c.visitor_id = $2 AND c.created_at >= $3
      ORDER BY c.created_at DESC LIMIT 1`,
    [link.token, visitorId, link.qr_cycle_at],
  );
  return r.rows[0] ?? null;
}

/** One of this visitor's own operations of the link, or null (any other id, someone else's included). */
export async function ownOperation(
  deps: DbDeps,
  link: Link,
  visitorId: string,
  opId: string,
): Promise<Operation | null> {
  const r = await deps.db.query<Operation>(
    `SELECT ${OP_COLUMNS_O} FROM checkout_operations c JOIN operations o ON o.id = c.operation_id
      WHERE c.operation_id = $1 AND c.link_token = $2 AND c.visitor_id = $3`,
    [opId, link.token, visitorId],
  );
  return r.rows[0] ?? null;
}

/** An operation of this link (404 payment_not_found for any other id). */
export async function linkOperation(deps: DbDeps, link: Link, opId: string): Promise<Operation> {
  const r = await deps.db.query<Operation>(
    `SELECT ${OP_COLUMNS} FROM operations WHERE id = $1 AND link_token = $2 AND client_id = $3 AND mode = $4`,
    [opId, link.token, link.client_id, link.mode],
  );
  if (!r.rows[0]) throw new AppError('payment_not_found', 'no such payment on this link');
  return r.rows[0];
}

async function issueFor(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock' | 'providers' | 'caches'>,
  link: Link,
  visitorId: string,
  email: string | null,
): Promise<Operation> {
  try {
    // The link may have been paid, cancelled or expired while the provider was asked.
    const stillActive = alsoWriting<Operation>(undefined, async (tx) => {
      await lockActive(
        tx,
        link.token,
        (status) => refusal({ ...link, status: status as Link['status'] }) ?? new AppError('payment_link_not_active'),
      );
    });
    return await issueLinkQr(deps, link, { visitorId, email }, stillActive);
  } catch (err) {
    throw publicError(err);
  }
}

/**
 * Opening the checkout (GET, and POST refresh-qr with `fresh`): the link's data and the QR to show.
 * Paid links are 409 payment_link_already_paid; expired or cancelled ones 409 payment_link_not_active.
 */
export async function openCheckout(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock' | 'providers' | 'caches'>,
  token: string,
  visitorId: string,
  opts: { fresh?: boolean } = {},
): Promise<CheckoutState> {
  const state = await loadCheckout(deps, token, visitorId);
  const { link, op, email } = state;
  const refused = opts.fresh ? refreshRefusal(link) : refusal(link);
  if (refused) throw refused;
  if (link.email_required && !email) return { ...state, op: null };
  if (!opts.fresh) {
    const left = op ? op.expires_at.getTime() - deps.clock.now().getTime() : 0;
    if (op && op.status === 'created' && left >= REUSE_MIN_LEFT_S * 1000) return state;
  }
  // Before a new QR: a QR already shown may have been paid, and nobody has told Tolem yet (a payer who
  // closed the tab or has no JavaScript: only the page's poll and the expiry sweeper ask the provider).
  // Learn it first, so a one-time link is not paid twice (a link allowing repeats takes another payment).
  if ((await paidMeanwhile(deps, link, visitorId)) && !link.allow_repeat) {
    const now = await findPublicLink(deps.db, token);
    throw (
      (opts.fresh ? refreshRefusal(now) : refusal(now)) ??
      new AppError('payment_link_already_paid', 'this payment link has already been paid')
    );
  }
  return { ...state, op: await issueFor(deps, link, visitorId, email) };
}

/** Stores the payer's e-mail for this visitor (400 bad_email, param email), then opens the checkout. */
export async function setVisitorEmail(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock' | 'providers' | 'caches'>,
  token: string,
  visitorId: string,
  raw: unknown,
): Promise<CheckoutState> {
  const link = await findPublicLink(deps.db, token);
  const refused = refusal(link);
  if (refused) throw refused;
  const email = checkEmail(raw, 'email');
  await deps.db.tx(async (tx) => {
    await tx.query(
      `INSERT INTO checkout_visitors (link_token, visitor_id, email) VALUES ($1, $2, $3)
       ON CONFLICT (link_token, visitor_id) DO UPDATE SET email = EXCLUDED.email, updated_at = now()`,
      [token, visitorId, email],
    );
    // QRs this visitor may still pay carry the new e-mail into payment_link.paid.
    await tx.query(
      `UPDATE checkout_operations SET email = $3
        WHERE link_token = $1 AND visitor_id = $2
          AND operation_id IN (SELECT id FROM operations WHERE link_token = $1 AND status = 'created')`,
      [token, visitorId, email],
    );
  });
  return openCheckout(deps, token, visitorId);
}

export interface CheckoutStatus {
  /** the payment's status; `waiting` while no QR was issued on a one-time link yet */
  status: Operation['status'] | 'waiting';
  operation_id: string | null;
  paid_at: Date | null;
  /** the check page of the payment's sale receipt once issued (decisions 27); only when `op` names the QR */
  check_url: string | null;
}

/**
 * A one-time link's current payment: the one that paid it, else its newest QR of the current cycle,
 * whichever visitor it was issued to.
 */
async function currentOperation(deps: DbDeps, link: Link): Promise<Operation | null> {
  const r = await deps.db.query<Operation>(
    `SELECT ${OP_COLUMNS_O} FROM checkout_operations c JOIN operations o ON o.id = c.operation_id
      WHERE c.link_token = $1 AND (o.paid_at IS NOT NULL OR c.created_at >= $2)
      ORDER BY (o.paid_at IS NOT NULL) DESC, c.created_at DESC LIMIT 1`,
    [link.token, link.qr_cycle_at],
  );
  return r.rows[0] ?? null;
}

/**
 * Payment status for polling. `op` names the QR (mandatory for allow_repeat links, where "the" payment
 * is ambiguous); without it a one-time link answers its current payment to whoever holds the link (the
 * specification makes `op` optional there): the status of a payment, never its receipt, which stays
 * the payer's (the page's ?op= and the redirect to success_url are for the visitor who paid). No QR
 * yet: `waiting`. A waiting operation is synchronized with the provider, so polling is how a payment
 * is learned.
 */
export async function checkoutStatus(
  deps: ProviderDeps,
  token: string,
  opId: string | undefined,
): Promise<CheckoutStatus> {
  const link = await findPublicLink(deps.db, token);
  let op: Operation | null;
  if (opId) op = await linkOperation(deps, link, opId);
  else if (link.allow_repeat)
    throw new AppError('invalid_parameter', 'op is required for links that allow repeated payments', { param: 'op' });
  else op = await currentOperation(deps, link);
  if (!op) return { status: 'waiting', operation_id: null, paid_at: null, check_url: null };
  if (op.status === 'created') {
    try {
      op = await syncOperation(deps, op);
    } catch (err) {
      throw publicError(err);
    }
  }
  // The receipt is the payer's: shown to the page that names its QR, not to whoever holds a one-time link.
  const checkUrl = opId && isPaid(op.status) ? await issuedCheckUrl(deps.db, op.id) : null;
  return { status: op.status, operation_id: op.id, paid_at: op.paid_at, check_url: checkUrl };
}

/**
 * Test-mode demo: the payer "pays" the visitor's QR (or `op`) through the same simulate() path as the
 * test helpers, so the link, journal and webhooks behave exactly as with a real payment.
 */
export async function simulateCheckoutPayment(
  deps: Pick<Deps, 'db' | 'clock' | 'providers'>,
  token: string,
  visitorId: string,
  opId: string | undefined,
): Promise<CheckoutStatus & { operation_id: string }> {
  const link = await findPublicLink(deps.db, token);
  if (link.mode !== 'test') throw new AppError('test_mode_only', 'simulated payments exist only for test-mode links');
  const refused = refusal(link);
  if (refused) throw refused;
  const op = opId ? await linkOperation(deps, link, opId) : await visitorOperation(deps, link, visitorId);
  if (!op) throw new AppError('payment_not_found', 'open the checkout first: there is no QR to pay');
  const paid = await simulate(deps, { clientId: link.client_id, mode: link.mode }, op.id, 'pay', {
    sender_name: 'Test Customer',
  });
  // Paid this instant: its receipt is not issued yet (the status poll brings it).
  return { status: paid.status, operation_id: paid.id, paid_at: paid.paid_at, check_url: null };
}
