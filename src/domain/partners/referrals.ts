// How clients come to a partner (decisions 21): referral links (a click on /r/{code} is counted and sent
// to registration with the code) and e-mail invites (a one-time token, 7 days). Registering with either
// attributes the new client to the partner, in the registration's transaction.
import { emailTaken } from '../accounts/users-store.ts';
import type { ClientRegistered } from '../accounts/register.ts';
import { attributeClientToPartner } from '../accounts/clients-store.ts';
import type { Deps, DbDeps } from '../../deps.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../errors.ts';
import { randomToken, sha256Hex } from '../../crypto.ts';
import { enqueueMessage } from '../channels/outbox.ts';
import { page, type PageResult, type Position, type Paging } from '../pagination.ts';

export const PARTNER_INVITE_DAYS = 7;

export interface ReferralLink {
  id: number;
  code: string;
  url: string;
  name: string | null;
  is_active: boolean;
  clicks: number;
  registrations: number;
  created_at: Date;
}

const LINK = 'id, code, name, is_active, clicks, registrations, created_at';
export const referralUrl = (publicBaseUrl: string, code: string) => `${publicBaseUrl}/r/${code}`;
const withUrl =
  (deps: Pick<Deps, 'config'>) =>
  (l: Omit<ReferralLink, 'url'>): ReferralLink =>
    Object.assign(l, { url: referralUrl(deps.config.publicBaseUrl, l.code) });

export async function createLink(
  deps: Pick<Deps, 'config' | 'db'>,
  partnerId: number,
  name?: string,
): Promise<ReferralLink> {
  // Short enough to type, long enough not to guess: 10 characters of base64url.
  const r = await deps.db.query<Omit<ReferralLink, 'url'>>(
    `INSERT INTO referral_links (partner_id, code, name) VALUES ($1, $2, $3) RETURNING ${LINK}`,
    [partnerId, randomToken(8).slice(0, 10), name ?? null],
  );
  return withUrl(deps)(r.rows[0]);
}

export async function listLinks(
  deps: Pick<Deps, 'config' | 'db' | 'secrets'>,
  partnerId: number,
  paging: Paging,
): Promise<PageResult<ReferralLink>> {
  const p = await page(
    {
      secret: deps.secrets.appSecret,
      endpoint: '/partner/links',
      filters: {},
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after: Position | undefined, take: number) => {
      const params: unknown[] = [partnerId];
      const more = after
        ? ` AND (created_at, id) < ($${params.push(after.createdAt)}, $${params.push(Number(after.id))})`
        : '';
      return (
        await deps.db.query<Omit<ReferralLink, 'url'>>(
          `SELECT ${LINK} FROM referral_links WHERE partner_id = $1 AND deleted_at IS NULL${more}
            ORDER BY created_at DESC, id DESC LIMIT ${take}`,
          params,
        )
      ).rows;
    },
    (l) => String(l.id),
  );
  return { ...p, data: p.data.map(withUrl(deps)) };
}

export async function getLink(deps: Pick<Deps, 'config' | 'db'>, partnerId: number, id: number): Promise<ReferralLink> {
  const r = await deps.db.query<Omit<ReferralLink, 'url'>>(
    `SELECT ${LINK} FROM referral_links WHERE id = $1 AND partner_id = $2 AND deleted_at IS NULL`,
    [id, partnerId],
  );
  if (!r.rows[0]) throw new AppError('referral_link_not_found', `link ${id} not found`);
  return withUrl(deps)(r.rows[0]);
}

export async function patchLink(
  deps: Pick<Deps, 'config' | 'db'>,
  partnerId: number,
  id: number,
  p: { name?: string | null; is_active?: boolean },
): Promise<ReferralLink> {
  await getLink(deps, partnerId, id);
  await deps.db.query(
    `UPDATE referral_links SET name = CASE WHEN $3::boolean THEN $4 ELSE name END, is_active = COALESCE($5, is_active)
      WHERE id = $1 AND partner_id = $2`,
    [id, partnerId, p.name !== undefined, p.name ?? null, p.is_active ?? null],
  );
  return getLink(deps, partnerId, id);
}

export async function deleteLink(deps: DbDeps, partnerId: number, id: number): Promise<void> {
  const r = await deps.db.query(
    `UPDATE referral_links SET deleted_at = now(), is_active = false
      WHERE id = $1 AND partner_id = $2 AND deleted_at IS NULL`,
    [id, partnerId],
  );
  if (!r.rowCount) throw new AppError('referral_link_not_found', `link ${id} not found`);
}

/** GET /r/{code}: counts the click of an active link; null when there is none (the page says so). */
export async function clickLink(deps: DbDeps, code: string): Promise<string | null> {
  return deps.db.tx(async (tx) => {
    const r = await tx.query<{ code: string; id: number; partner_id: number }>(
      `UPDATE referral_links l SET clicks = clicks + 1 FROM partners p
        WHERE l.code = $1 AND l.is_active AND l.deleted_at IS NULL AND p.id = l.partner_id AND p.status = 'active'
        RETURNING l.code, l.id, l.partner_id`,
      [code],
    );
    const link = r.rows[0];
    if (!link) return null;
    // The click's time, for the analytics funnel of a period (the counter is the link's total).
    await tx.query('INSERT INTO referral_clicks (link_id, partner_id) VALUES ($1, $2)', [link.id, link.partner_id]);
    return link.code;
  });
}

export async function invitePartnerClient(
  deps: Pick<Deps, 'config' | 'db' | 'secrets'>,
  partnerId: number,
  input: { email: string; name?: string },
) {
  const token = `pinv_${randomToken(32)}`;
  const email = input.email.trim().toLowerCase();
  return deps.db.tx(async (tx) => {
    if (await emailTaken(tx, email))
      throw new AppError('email_taken', 'a user with this e-mail exists', { param: 'email' });
    const r = await tx.query<{ id: number; expires_at: Date; company: string }>(
      `INSERT INTO partner_invites (partner_id, email, name, token_hash, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(days => ${PARTNER_INVITE_DAYS}))
       RETURNING id, expires_at, (SELECT company_name FROM partners WHERE id = $1) AS company`,
      [partnerId, email, input.name ?? null, sha256Hex(token)],
    );
    const url = `${deps.config.dashboardUrl}/register?invite_token=${encodeURIComponent(token)}`;
    await enqueueMessage(
      tx,
      {
        channel: 'email',
        recipient: email,
        purpose: 'partner_invite',
        subject: `${r.rows[0].company} invites you to Tolem`,
        body:
          `${r.rows[0].company} invites you to accept payments with Tolem.\n\n` +
          `Register (valid ${PARTNER_INVITE_DAYS} days):\n${url}\n`,
        secrets: [token],
      },
      deps.secrets.sealer,
    );
    return {
      id: r.rows[0].id,
      email,
      status: 'invited' as const,
      invite_token: token,
      invite_url: url,
      expires_at: r.rows[0].expires_at,
    };
  });
}

/**
 * What a partner's invitation page shows before the client registers (issue 41): the partner that invites
 * and the invited address. Undefined for a token that would not register, as attributeNewClient reads it.
 */
export async function partnerInviteDetails(
  db: Queryable,
  token: string,
): Promise<{ partner_name: string; email: string; expires_at: Date } | undefined> {
  const r = await db.query<{ partner_name: string; email: string; expires_at: Date }>(
    `SELECT p.company_name AS partner_name, i.email, i.expires_at
       FROM partner_invites i JOIN partners p ON p.id = i.partner_id
      WHERE i.token_hash = $1 AND i.client_id IS NULL AND i.expires_at > now() AND p.status = 'active'`,
    [sha256Hex(token)],
  );
  return r.rows[0];
}

/**
 * In the registration's transaction: the partner a new client belongs to, from a referral code or a
 * partner's invite token. An unknown or inactive code refuses the registration (400), so a client never
 * believes it came through a partner it did not.
 */
export async function attributeNewClient(tx: Queryable, by: ClientRegistered): Promise<void> {
  const { clientId, email } = by;
  if (by.partnerInviteToken) {
    const r = await tx.query<{ partner_id: number }>(
      `UPDATE partner_invites i SET client_id = $2 FROM partners p
        WHERE i.token_hash = $1 AND i.client_id IS NULL AND i.expires_at > now() AND lower(i.email) = $3
          AND p.id = i.partner_id AND p.status = 'active'
        RETURNING i.partner_id`,
      [sha256Hex(by.partnerInviteToken), clientId, email.toLowerCase()],
    );
    if (!r.rows[0])
      throw new AppError(
        'invite_invalid',
        'this invitation is not valid, was used, is for another e-mail, or has expired',
        { param: 'invite_token' },
      );
    await attributeClientToPartner(tx, clientId, r.rows[0].partner_id, { origin: 'invite' });
    return;
  }
  if (by.referralCode) {
    const r = await tx.query<{ id: number; partner_id: number }>(
      `UPDATE referral_links l SET registrations = registrations + 1 FROM partners p
        WHERE l.code = $1 AND l.is_active AND l.deleted_at IS NULL AND p.id = l.partner_id AND p.status = 'active'
        RETURNING l.id, l.partner_id`,
      [by.referralCode],
    );
    if (!r.rows[0])
      throw new AppError('invalid_parameter', 'this referral code is not valid', { param: 'referral_code' });
    await attributeClientToPartner(tx, clientId, r.rows[0].partner_id, {
      origin: 'referral',
      referralLinkId: r.rows[0].id,
    });
  }
}
