// Partner impersonation as the client controls it (decisions 12, 17, 21): the setting, the sessions the
// client sees, and the check each impersonated call passes. The partner cabinet opens the sessions.
import type { Tenant } from '../tenant.ts';
import type { Queryable } from '../../db/db.ts';
import type { DbSecretsDeps, DbDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { Actor, Role } from '../access/principal.ts';
import { rolesFor } from '../access/policy.ts';
import { page, type PageResult, type Position, type Paging } from '../pagination.ts';
import { unbindChatsBoundInSessions } from './messenger.ts';

export const IMPERSONATION_MINUTES = 15;

export interface ImpersonationSession {
  id: number;
  partner_id: number;
  partner_name: string;
  actor_email: string;
  started_at: Date;
  expires_at: Date;
  ended_at: Date | null;
  ip: string | null;
  requests: number;
}

/** Opens a session (the partner cabinet's impersonate call); refused when the client does not allow it. */
export async function openImpersonationSession(
  tx: Queryable,
  s: { sid: string; clientId: number; partnerId: number; partnerName: string; actorEmail: string; ip?: string },
): Promise<ImpersonationSession> {
  const r = await tx.query<ImpersonationSession>(
    `INSERT INTO impersonation_sessions (sid, client_id, partner_id, partner_name, actor_email, ip, expires_at)
     SELECT $1, c.id, $3, $4, $5, $6, now() + make_interval(mins => ${IMPERSONATION_MINUTES})
       FROM clients c WHERE c.id = $2 AND c.allow_partner_impersonation AND c.disabled_at IS NULL
     RETURNING id, partner_id, partner_name, actor_email, started_at, expires_at, ended_at, ip, requests`,
    [s.sid, s.clientId, s.partnerId, s.partnerName, s.actorEmail, s.ip ?? null],
  );
  if (!r.rows[0]) throw new AppError('forbidden_role', 'this client does not allow partner impersonation');
  return r.rows[0];
}

/** Who may open a session (the partner cabinet's impersonate call), and so who may go on in one. */
const OPENER_ROLES = rolesFor('partner.manage');
export const mayOpenSessions = (role: Role): boolean => OPENER_ROLES.includes(role);

/** The partner team member of the token's `act.sub`; 0 (nobody) when the claim is not a user id. */
const actorId = (act: Actor): number =>
  typeof act.sub === 'string' && /^[1-9]\d{0,15}$/.test(act.sub) ? Number(act.sub) : 0;

/**
 * Every call of an impersonation token: its session must be open, unexpired and still allowed by the
 * client, and the authority behind it must still stand: the partner active (not suspended, not
 * rejected) and the member who opened it still on the partner's team in a role that may open one. The
 * call is counted. One statement (the partner and the member are primary-key probes joined to the
 * session row), so the check costs no extra round trip, and a session whose authority ended a moment
 * ago refuses the next call rather than when its 15-minute token expires.
 */
export async function touchImpersonation(deps: DbDeps, clientId: number, act: Actor): Promise<void> {
  const sid = typeof act.sid === 'string' ? act.sid : '';
  const r = await deps.db.query(
    `UPDATE impersonation_sessions s SET requests = s.requests + 1
       FROM clients c, partners p, users a
      WHERE s.sid = $1 AND s.client_id = $2 AND c.id = s.client_id
        AND s.ended_at IS NULL AND s.expires_at > now() AND c.allow_partner_impersonation
        AND p.id = s.partner_id AND p.status = 'active'
        AND a.id = $3 AND a.client_id = p.client_id AND a.status = 'active' AND a.disabled_at IS NULL
        AND a.role = ANY($4::text[])`,
    [sid, clientId, actorId(act), OPENER_ROLES],
  );
  if (r.rowCount === 0) throw new AppError('impersonation_session_expired', 'this impersonation session has ended');
}

/**
 * A partner no longer active (suspended, rejected): its open sessions end now. The check on each call
 * already refuses them; ending them too keeps them from coming back if the partner is approved again,
 * and shows the client when they ended.
 */
export async function endPartnerSessions(tx: Queryable, partnerId: number): Promise<number> {
  const r = await tx.query(
    `UPDATE impersonation_sessions SET ended_at = now()
      WHERE partner_id = $1 AND ended_at IS NULL AND expires_at > now()`,
    [partnerId],
  );
  return r.rowCount;
}

/**
 * A partner team member revoked, or moved to a role that may not open sessions: the sessions it opened
 * end now (the check on each call refuses them already; ending them keeps them from coming back with the
 * role and shows the client when they ended). A session names its opener by e-mail, unique and fixed.
 */
export async function endSessionsOpenedBy(tx: Queryable, userId: number): Promise<number> {
  const r = await tx.query(
    `UPDATE impersonation_sessions s SET ended_at = now()
       FROM users u JOIN partners p ON p.client_id = u.client_id
      WHERE u.id = $1 AND s.partner_id = p.id AND s.actor_email = u.email
        AND s.ended_at IS NULL AND s.expires_at > now()`,
    [userId],
  );
  return r.rowCount;
}

/**
 * PATCH /me/allow-partner-impersonation: turning it off ends every open session at once, and unbinds
 * the messenger chats bound while a session was open (the partner may hold them).
 */
export async function setImpersonationAllowed(
  deps: DbDeps,
  tenant: Tenant,
  allow: boolean,
): Promise<{ allow: boolean; ended_sessions: number }> {
  const { clientId } = tenant;
  return deps.db.tx(async (tx) => {
    await tx.query('UPDATE clients SET allow_partner_impersonation = $2 WHERE id = $1', [clientId, allow]);
    if (allow) return { allow, ended_sessions: 0 };
    const ended = await tx.query(
      `UPDATE impersonation_sessions SET ended_at = now()
        WHERE client_id = $1 AND ended_at IS NULL AND expires_at > now()`,
      [clientId],
    );
    await unbindChatsBoundInSessions(tx, clientId);
    return { allow, ended_sessions: ended.rowCount };
  });
}

export async function listImpersonationSessions(
  deps: DbSecretsDeps,
  tenant: Tenant,
  paging: Paging,
): Promise<PageResult<ImpersonationSession & { created_at: Date }>> {
  const { clientId } = tenant;
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: '/me/partner-impersonation/sessions',
      filters: {},
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after: Position | undefined, take: number) => {
      const params: unknown[] = [clientId];
      let where = 'client_id = $1';
      if (after)
        where += ` AND (started_at, id) < ($${params.push(after.createdAt)}, $${params.push(Number(after.id))})`;
      const r = await deps.db.query<ImpersonationSession & { created_at: Date }>(
        `SELECT id, partner_id, partner_name, actor_email, started_at, started_at AS created_at, expires_at, ended_at,
                ip, requests
           FROM impersonation_sessions WHERE ${where} ORDER BY started_at DESC, id DESC LIMIT ${take}`,
        params,
      );
      return r.rows;
    },
    (s) => String(s.id),
  );
}
