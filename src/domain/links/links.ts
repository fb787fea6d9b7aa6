// The payment-link record (decisions 9) and its reads. Merchant reads take the tenant (client and mode):
// another tenant's token is simply not found. The public checkout reads by token alone.
import type { Queryable } from '../../db/db.ts';
import type { Mode, Tenant } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import type { Line } from '../payments/line-items.ts';

export type LinkStatus = 'active' | 'paid' | 'expired' | 'cancelled';
export const LINK_STATUSES: LinkStatus[] = ['active', 'paid', 'expired', 'cancelled'];

export interface Link {
  token: string;
  client_id: number;
  mode: Mode;
  amount: number;
  description: string;
  status: LinkStatus;
  success_url: string | null;
  cancel_url: string | null;
  expires_at: Date;
  allow_repeat: boolean;
  email_required: boolean;
  metadata: Record<string, unknown> | null;
  /** line items (decisions 27), resolved when the link was made; every QR of the link carries them */
  items: Line[] | null;
  paid_count: number;
  qr_cycle_at: Date;
  created_at: Date;
  updated_at: Date;
}

export const LINK_COLUMNS = `token, client_id, mode, amount, description, status, success_url, cancel_url, expires_at,
  allow_repeat, email_required, metadata, items, paid_count, qr_cycle_at, created_at, updated_at`;

/** 24 base62 characters from a CSPRNG: about 143 bits, above the 128 of decisions 1. */
export const TOKEN_LENGTH = 24;
const TOKEN_RE = /^[0-9A-Za-z]{22,64}$/;

/** Events and the merchant API may name a link `pl_<token>`; both spellings address the same link. */
export function normalizeToken(raw: string): string | null {
  const t = raw.startsWith('pl_') ? raw.slice(3) : raw;
  return TOKEN_RE.test(t) ? t : null;
}

export const linkUrl = (publicBaseUrl: string, token: string) => `${publicBaseUrl}/checkout/${token}`;

/** How far the database clock may be ahead of this host's without an expiry on read being missed. */
const CLOCK_SKEW_MARGIN_MS = 5_000;

export const isToken = (t: string) => TOKEN_RE.test(t);

export const notFound = (raw: string) => new AppError('payment_link_not_found', `no payment link ${raw}`);

/**
 * Flips an active link whose expiry has passed to `expired` (on read, like the sweeper). No journal
 * event: the journal catalog has no payment_link.expired. Returns the link as it now is.
 */
export async function expireIfDue(db: Queryable, link: Link): Promise<Link> {
  // The database clock decides; the margin only spares the write for links far from their expiry
  // (every checkout read goes through here) while tolerating skew between this host and the database.
  if (link.status !== 'active' || link.expires_at.getTime() > Date.now() + CLOCK_SKEW_MARGIN_MS) return link;
  const r = await db.query<Link>(
    `UPDATE payment_links SET status = 'expired', updated_at = now()
      WHERE token = $1 AND status = 'active' AND expires_at <= now() RETURNING ${LINK_COLUMNS}`,
    [link.token],
  );
  return r.rows[0] ?? link;
}

/** A link of this tenant, flipped to expired when due. `lock` takes a row lock (use inside a tx). */
export async function findLink(db: Queryable, tenant: Tenant, rawToken: string, lock = false): Promise<Link> {
  const { clientId, mode } = tenant;
  const token = normalizeToken(rawToken);
  if (!token) throw notFound(rawToken);
  const r = await db.query<Link>(
    `SELECT ${LINK_COLUMNS} FROM payment_links
      WHERE token = $1 AND client_id = $2 AND mode = $3${lock ? ' FOR NO KEY UPDATE' : ''}`,
    [token, clientId, mode],
  );
  if (!r.rows[0]) throw notFound(rawToken);
  return expireIfDue(db, r.rows[0]);
}

/** The public checkout's read: by token only (the checkout address carries no `pl_` prefix). */
export async function findPublicLink(db: Queryable, token: string): Promise<Link> {
  if (!TOKEN_RE.test(token)) throw notFound(token);
  const r = await db.query<Link>(`SELECT ${LINK_COLUMNS} FROM payment_links WHERE token = $1`, [token]);
  if (!r.rows[0]) throw notFound(token);
  return expireIfDue(db, r.rows[0]);
}
