// Changing a link: PATCH (description, URLs, expiry, repeat flag), cancel, and the merchant's refresh-qr.
// All of them need an active link (409 payment_link_immutable otherwise); the amount never changes.
import type { Queryable } from '../../db/db.ts';
import type { Deps, DbDeps } from '../../deps.ts';
import type { Tenant } from '../tenant.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { appendEvent } from '../events/append.ts';
import type { Operation } from '../payments/operations.ts';
import { checkDescription, checkExpiresIn, checkRedirectUrl } from './input.ts';
import { eventToken } from '../ids.ts';
import { findLink, LINK_COLUMNS, type Link } from './links.ts';
import { issueLinkQr } from './qr.ts';
import { alsoWriting, type Receipt } from '../receipt.ts';
import { paidMeanwhile } from './paid-meanwhile.ts';

export interface LinkPatch {
  description?: string;
  success_url?: string | null;
  cancel_url?: string | null;
  expires_in_minutes?: number;
  allow_repeat?: boolean;
  amount?: unknown;
}

const immutable = (link: Link) =>
  new AppError('payment_link_immutable', `payment link is ${link.status}; only active links can change`);

/**
 * Runs `change` on the locked link when it is active. A link found past its expiry is flipped to
 * expired and that flip is committed before the 409 is thrown (so it is not rolled back with it).
 */
async function whileActive<T>(
  deps: DbDeps,
  scope: Tenant,
  rawToken: string,
  change: (tx: Queryable, link: Link) => Promise<T>,
): Promise<T> {
  const out = await deps.db.tx(async (tx) => {
    const link = await findLink(tx, scope, rawToken, true);
    if (link.status !== 'active') return { refused: link };
    return { done: await change(tx, link) };
  });
  if ('refused' in out) throw immutable(out.refused!);
  return out.done as T;
}

export async function updateLink(deps: DbDeps, scope: Tenant, rawToken: string, patch: LinkPatch): Promise<Link> {
  if (patch.amount !== undefined)
    throw invalidParam('amount', 'the amount of a payment link cannot be changed; create a new link');
  // Column -> new value; expires_in_minutes counts from now and is stored as expires_at.
  const sets: Record<string, unknown> = {};
  if (patch.description !== undefined) sets.description = checkDescription(patch.description);
  if (patch.success_url !== undefined) sets.success_url = checkRedirectUrl(patch.success_url, 'success_url');
  if (patch.cancel_url !== undefined) sets.cancel_url = checkRedirectUrl(patch.cancel_url, 'cancel_url');
  if (patch.allow_repeat !== undefined) sets.allow_repeat = patch.allow_repeat;
  const minutes = patch.expires_in_minutes === undefined ? undefined : checkExpiresIn(patch.expires_in_minutes);
  return whileActive(deps, scope, rawToken, async (tx, link) => {
    // Only fields that differ are written and reported: `changes` lists what changed, not what was sent.
    const cols = Object.keys(sets).filter((c) => sets[c] !== link[c as keyof Link]);
    if (!cols.length && minutes === undefined) return link;
    const params: unknown[] = [link.token];
    const assigns = cols.map((c) => `${c} = $${params.push(sets[c])}`);
    if (minutes !== undefined)
      assigns.push(`expires_at = now() + make_interval(mins => $${params.push(minutes)}::int)`);
    // A link that already took payments and stops allowing repeats is done: it becomes paid.
    if (sets.allow_repeat === false && link.paid_count > 0) assigns.push(`status = 'paid'`);
    const r = await tx.query<Link>(
      `UPDATE payment_links SET ${assigns.join(', ')}, updated_at = now() WHERE token = $1 RETURNING ${LINK_COLUMNS}`,
      params,
    );
    const next = r.rows[0];
    const changes: Record<string, unknown> = {};
    for (const c of cols) changes[c] = next[c as keyof Link];
    if (minutes !== undefined) changes.expires_at = next.expires_at;
    if (next.status !== link.status) changes.status = next.status;
    await appendEvent(tx, {
      clientId: next.client_id,
      mode: next.mode,
      type: 'payment_link.updated',
      data: { token: eventToken(next.token), changes },
    });
    return next;
  });
}

export async function cancelLink(deps: DbDeps, scope: Tenant, rawToken: string): Promise<Link> {
  return whileActive(deps, scope, rawToken, async (tx, link) => {
    const r = await tx.query<Link>(
      `UPDATE payment_links SET status = 'cancelled', updated_at = now() WHERE token = $1 RETURNING ${LINK_COLUMNS}`,
      [link.token],
    );
    const next = r.rows[0];
    await appendEvent(tx, {
      clientId: next.client_id,
      mode: next.mode,
      type: 'payment_link.cancelled',
      data: {
        token: eventToken(next.token),
        amount: next.amount,
        paid_count: next.paid_count,
        cancelled_at: next.updated_at,
      },
    });
    return next;
  });
}

/** Locks the link in the operation's transaction and refuses when it stopped being active meanwhile. */
export async function lockActive(tx: Queryable, token: string, refuse: (status: string) => AppError): Promise<void> {
  const r = await tx.query<{ status: string; due: boolean }>(
    `SELECT status, expires_at <= now() AS due FROM payment_links WHERE token = $1 FOR NO KEY UPDATE`,
    [token],
  );
  const row = r.rows[0];
  if (!row || row.status !== 'active' || row.due)
    throw refuse(row?.status === 'active' ? 'expired' : (row?.status ?? 'missing'));
}

/**
 * The merchant's refresh-qr: a new QR cycle. QRs already shown to checkout visitors are no longer
 * reused (their next opening gets a fresh one), and a fresh QR is returned for the merchant to show.
 */
export async function refreshLinkQr(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock' | 'providers' | 'caches'>,
  scope: Tenant,
  rawToken: string,
  receipt?: Receipt<{ link: Link; op: Operation }>,
): Promise<{ link: Link; op: Operation }> {
  let link = await findLink(deps.db, scope, rawToken);
  if (link.status !== 'active') throw immutable(link);
  // A one-time link whose QR was paid unseen is paid: a new QR for the counter would take a second payment.
  if (!link.allow_repeat && (await paidMeanwhile(deps, link, null))) {
    link = await findLink(deps.db, scope, rawToken);
    if (link.status !== 'active') throw immutable(link);
  }
  let cycled = link;
  const op = await issueLinkQr(
    deps,
    link,
    { visitorId: null },
    alsoWriting<Operation>(undefined, async (tx, op) => {
      await lockActive(tx, link.token, (status) => new AppError('payment_link_immutable', `payment link is ${status}`));
      const r = await tx.query<Link>(
        `UPDATE payment_links SET qr_cycle_at = now() WHERE token = $1 RETURNING ${LINK_COLUMNS}`,
        [link.token],
      );
      cycled = r.rows[0];
      await receipt?.save(tx, { link: cycled, op });
    }),
  );
  return { link: cycled, op };
}
