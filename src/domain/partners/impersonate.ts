// A partner entering a client's account (decisions 12, 21): only its own client, only when that client
// allows it; a 15-minute access token with the role admin and an `act` claim naming the partner, its
// user and the session, with no refresh token. Every call with it checks the session (auth plugin).
import { randomUUID } from 'node:crypto';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { openImpersonationSession } from '../accounts/impersonation.ts';
import { signAccessToken, ACCESS_TTL_S } from '../accounts/tokens.ts';
import type { Partner } from './profile.ts';

export async function impersonate(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock'>,
  partner: Partner,
  actor: { userId: number; ip: string },
  targetClientId: number,
) {
  const target = await deps.db.query<{ owner_id: number; allow: boolean; email: string }>(
    `SELECT u.id AS owner_id, c.allow_partner_impersonation AS allow, a.email
       FROM clients c JOIN users u ON u.client_id = c.id AND u.role = 'owner' AND u.status = 'active'
       JOIN users a ON a.id = $3
      WHERE c.id = $1 AND c.partner_id = $2 AND c.disabled_at IS NULL`,
    [targetClientId, partner.id, actor.userId],
  );
  const t = target.rows[0];
  if (!t) throw new AppError('client_not_found', `client ${targetClientId} not found`);
  if (!t.allow)
    throw new AppError('impersonation_blocked_action', 'this client does not allow its partner to enter its account');
  const sid = `ims_${randomUUID()}`;
  const session = await openImpersonationSession(deps.db, {
    sid,
    clientId: targetClientId,
    partnerId: partner.id,
    partnerName: partner.company_name,
    actorEmail: t.email,
    ip: actor.ip,
  }).catch((err: unknown) => {
    if (err instanceof AppError && err.code === 'forbidden_role')
      throw new AppError('impersonation_blocked_action', 'this client does not allow its partner to enter its account');
    throw err;
  });
  const access = await signAccessToken(deps, {
    sub: String(t.owner_id),
    cid: targetClientId,
    role: 'admin',
    act: { partner_id: partner.id, sub: String(actor.userId), sid },
  });
  return { access_token: access, token_type: 'Bearer' as const, expires_in: ACCESS_TTL_S, session_id: session.id };
}
