// A client's team (decisions 16, 17): members are the client's users. An invite creates an `invited`
// user holding the SHA-256 of a one-time token (7 days) and e-mails the link through the outbox; the
// invitee registers with the token and becomes `active`. Revoking ends the member's sessions at once: its
// refresh tokens are revoked and every access token is checked against the user's status on each call.
import type { Tenant } from '../tenant.ts';
import type { Deps, DbDeps } from '../../deps.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../errors.ts';
import { randomToken, sha256Hex } from '../../crypto.ts';
import type { Role } from '../access/principal.ts';
import { enqueueMessage } from '../channels/outbox.ts';
import { hashPassword } from './passwords.ts';
import { issueTokenPair, type TokenPair } from './tokens.ts';
import { endSessionsOpenedBy, mayOpenSessions } from './impersonation.ts';

export const TEAM_MAX = 50;
export const TEAM_INVITE_DAYS = 7;
/** Revoked members stay listed; the list is bounded all the same. */
const LIST_MAX = 200;

export interface Member {
  id: number;
  email: string;
  name: string;
  role: Role;
  status: 'invited' | 'active' | 'revoked';
  created_at: Date;
}

const MEMBER = 'id, email, name, role, status, created_at';

export async function listTeam(deps: DbDeps, tenant: Tenant): Promise<Member[]> {
  const { clientId } = tenant;
  const r = await deps.db.query<Member>(
    `SELECT ${MEMBER} FROM users WHERE client_id = $1 ORDER BY (status = 'revoked'), id LIMIT ${LIST_MAX}`,
    [clientId],
  );
  return r.rows;
}

export const inviteUrl = (dashboardUrl: string, token: string) =>
  `${dashboardUrl}/register?invite_token=${encodeURIComponent(token)}`;

export async function inviteMember(
  deps: Pick<Deps, 'config' | 'db' | 'secrets'>,
  tenant: Tenant,
  input: { email: string; role: Exclude<Role, 'owner'>; name?: string },
): Promise<Member & { invite_token: string; invite_url: string; invite_expires_at: Date }> {
  const { clientId } = tenant;
  const email = input.email.trim().toLowerCase();
  const token = `inv_${randomToken(32)}`;
  return deps.db.tx(async (tx) => {
    // Serialize invites of one client, so two at once cannot pass the size check together.
    const client = await tx.query<{ name: string }>('SELECT name FROM clients WHERE id = $1 FOR UPDATE', [clientId]);
    const size = await tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM users WHERE client_id = $1 AND status <> 'revoked'`,
      [clientId],
    );
    if (size.rows[0].n >= TEAM_MAX) throw new AppError('team_limit_reached', `a team has at most ${TEAM_MAX} members`);
    const taken = await tx.query('SELECT 1 FROM users WHERE lower(email) = $1', [email]);
    if (taken.rows.length) throw new AppError('email_taken', 'a user with this e-mail exists', { param: 'email' });
    const r = await tx
      .query<Member & { invite_expires_at: Date }>(
        `INSERT INTO users (client_id, email, name, role, status, invite_token_hash, invite_expires_at)
         VALUES ($1, $2, $3, $4, 'invited', $5, now() + make_interval(days => ${TEAM_INVITE_DAYS}))
         RETURNING ${MEMBER}, invite_expires_at`,
        [clientId, email, input.name?.trim() || email.split('@')[0], input.role, sha256Hex(token)],
      )
      .catch((err: { code?: string }) => {
        if (err.code === '23505')
          throw new AppError('email_taken', 'a user with this e-mail exists', { param: 'email' });
        throw err;
      });
    const url = inviteUrl(deps.config.dashboardUrl, token);
    await enqueueMessage(
      tx,
      {
        channel: 'email',
        recipient: email,
        clientId,
        purpose: 'team_invite',
        subject: `Invitation to ${client.rows[0].name} on Tolem`,
        body:
          `You are invited to join ${client.rows[0].name} on Tolem as ${input.role}.\n\n` +
          `Accept the invitation (valid ${TEAM_INVITE_DAYS} days):\n${url}\n`,
        secrets: [token],
      },
      deps.secrets.sealer,
    );
    return { ...r.rows[0], invite_token: token, invite_url: url };
  });
}

async function memberOf(tx: Queryable, clientId: number, memberId: number): Promise<Member> {
  const r = await tx.query<Member>(`SELECT ${MEMBER} FROM users WHERE id = $1 AND client_id = $2 FOR UPDATE`, [
    memberId,
    clientId,
  ]);
  if (!r.rows[0]) throw new AppError('member_not_found', 'no such team member');
  return r.rows[0];
}

export async function changeRole(
  deps: DbDeps,
  tenant: Tenant,
  memberId: number,
  role: Exclude<Role, 'owner'>,
): Promise<Member> {
  const { clientId } = tenant;
  return deps.db.tx(async (tx) => {
    const m = await memberOf(tx, clientId, memberId);
    if (m.role === 'owner') throw new AppError('owner_immutable', "the owner's role cannot be changed");
    if (m.status === 'revoked') throw new AppError('member_not_found', 'this member was revoked; invite again');
    const r = await tx.query<Member>(`UPDATE users SET role = $2 WHERE id = $1 RETURNING ${MEMBER}`, [memberId, role]);
    // A partner's team member whose new role may not open sessions in clients' accounts: the ones it
    // opened end (each call checks the role already; this keeps them from coming back with the role).
    if (!mayOpenSessions(role)) await endSessionsOpenedBy(tx, memberId);
    return r.rows[0];
  });
}

export async function revokeMember(deps: DbDeps, tenant: Tenant, memberId: number): Promise<void> {
  const { clientId } = tenant;
  await deps.db.tx(async (tx) => {
    const m = await memberOf(tx, clientId, memberId);
    if (m.role === 'owner') throw new AppError('owner_immutable', 'the owner cannot be revoked');
    if (m.status === 'revoked') return;
    await tx.query(
      `UPDATE users SET status = 'revoked', disabled_at = now(), invite_token_hash = NULL, messenger_chat_id = NULL
        WHERE id = $1`,
      [memberId],
    );
    await tx.query('UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [
      memberId,
    ]);
    // A partner's team member: the sessions it opened in clients' accounts end with it.
    await endSessionsOpenedBy(tx, memberId);
  });
}

/**
 * What a team invitation's page shows before the invitee registers (issue 41): the shop it joins, the role,
 * the invited address. Undefined for a token that would not register (unknown, used, revoked, expired).
 */
export async function teamInviteDetails(
  db: Queryable,
  token: string,
): Promise<{ shop_name: string; role: Role; email: string; expires_at: Date } | undefined> {
  const r = await db.query<{ shop_name: string; role: Role; email: string; expires_at: Date }>(
    `SELECT c.name AS shop_name, u.role, u.email, u.invite_expires_at AS expires_at
       FROM users u JOIN clients c ON c.id = u.client_id
      WHERE u.invite_token_hash = $1 AND u.status = 'invited' AND u.invite_expires_at > now()`,
    [sha256Hex(token)],
  );
  return r.rows[0];
}

/** POST /auth/register with invite_token: the invited user sets its name and password and is signed in. */
export async function acceptInvite(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock'>,
  input: { token: string; name: string; password?: string; email?: string },
): Promise<TokenPair> {
  if (input.password === undefined)
    throw new AppError('invalid_parameter', 'password is required', { param: 'password' });
  const passwordHash = await hashPassword(input.password);
  return deps.db.tx(async (tx) => {
    const r = await tx.query<{ id: number; client_id: number; role: Role; email: string }>(
      `UPDATE users
        SET status = 'active', name = $2, password_hash = $3, invite_token_hash = NULL, invite_expires_at = NULL
        WHERE invite_token_hash = $1 AND status = 'invited' AND invite_expires_at > now()
        RETURNING id, client_id, role, email`,
      [sha256Hex(input.token), input.name, passwordHash],
    );
    const user = r.rows[0];
    if (!user)
      throw new AppError('invite_invalid', 'this invitation is not valid, was used, revoked or has expired', {
        param: 'invite_token',
      });
    if (input.email !== undefined && input.email.toLowerCase() !== user.email) {
      throw new AppError('invalid_parameter', 'email differs from the invited address', { param: 'email' });
    }
    return issueTokenPair(deps, tx, user);
  });
}
