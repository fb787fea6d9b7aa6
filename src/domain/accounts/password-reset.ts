// Password reset and change (decisions 30). A reset link is a magic token of its own purpose: single use,
// 30 minutes, kept as SHA-256, e-mailed through the outbox with the link sealed at rest. Asking for one
// answers the same whether the e-mail has an account or not (the route says 202 either way). Setting a
// password, by a reset link or by the current password, revokes every refresh token of the user: sessions
// opened before (by someone who knew the old password, say) end at their next refresh.
import type { DbDeps, Deps } from '../../deps.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../errors.ts';
import { randomToken, sha256Hex } from '../../crypto.ts';
import { enqueueMessage } from '../channels/outbox.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { issueTokenPair, type TokenPair, type TokenUser } from './tokens.ts';

export const RESET_TTL_S = 30 * 60;
/** The magic_tokens purpose of a reset link: never a sign-in link (exchangeMagicToken asks for its own). */
export const PASSWORD_RESET_PURPOSE = 'password_reset';

export const resetUrl = (dashboardUrl: string, token: string) =>
  `${dashboardUrl}/reset-password?token=${encodeURIComponent(token)}`;

/**
 * POST /auth/password/forgot: an active user with a password (not one of OpenID Connect only, not of a
 * disabled client) is e-mailed a reset link; anyone else, nothing. Earlier links stay valid until they
 * expire or a reset spends them all. The token and the text are made either way; the two cases differ by
 * the two inserts and the sealing (a millisecond or two, beside the request's own time and jitter).
 */
export async function requestPasswordReset(
  deps: Pick<Deps, 'db' | 'config' | 'secrets'>,
  input: { email: string },
): Promise<void> {
  const email = input.email.trim().toLowerCase();
  const token = `pwr_${randomToken(32)}`;
  const url = resetUrl(deps.config.dashboardUrl, token);
  const body =
    'Someone (we hope you) asked to reset the password of your Tolem account.\n\n' +
    `Set a new password (the link works once, for ${RESET_TTL_S / 60} minutes):\n${url}\n\n` +
    'If it was not you, ignore this message: your password stays as it is.\n';
  await deps.db.tx(async (tx) => {
    const r = await tx.query<{ id: number; client_id: number; email: string }>(
      `SELECT u.id, u.client_id, u.email FROM users u JOIN clients c ON c.id = u.client_id
        WHERE lower(u.email) = $1 AND u.status = 'active' AND u.disabled_at IS NULL
          AND u.password_hash IS NOT NULL AND c.disabled_at IS NULL`,
      [email],
    );
    const user = r.rows[0];
    if (!user) return;
    await tx.query(
      `INSERT INTO magic_tokens (user_id, token_hash, purpose, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
      [user.id, sha256Hex(token), PASSWORD_RESET_PURPOSE, RESET_TTL_S],
    );
    await enqueueMessage(
      tx,
      {
        channel: 'email',
        recipient: user.email,
        clientId: user.client_id,
        purpose: PASSWORD_RESET_PURPOSE,
        subject: 'Reset your Tolem password',
        body,
        secrets: [token],
      },
      deps.secrets.sealer,
    );
  });
}

const invalidToken = () =>
  new AppError('reset_token_invalid', 'this reset link is not valid or was already used; ask for a new one', {
    param: 'token',
  });
const expiredToken = () =>
  new AppError('reset_token_expired', 'this reset link has expired; ask for a new one', { param: 'token' });

/** The new password in force: the reset links of the user are spent, and so are its sessions. */
async function setPassword(tx: Queryable, userId: number, passwordHash: string): Promise<Date> {
  const r = await tx.query<{ at: Date }>('UPDATE users SET password_hash = $2 WHERE id = $1 RETURNING now() AS at', [
    userId,
    passwordHash,
  ]);
  await tx.query('UPDATE magic_tokens SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL', [
    userId,
    PASSWORD_RESET_PURPOSE,
  ]);
  await tx.query('UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [userId]);
  return r.rows[0].at;
}

/**
 * POST /auth/password/reset: the token is checked before the password is hashed (a junk token costs no
 * argon2), then spent in the transaction that sets the password, guarded so two uses cannot both pass.
 */
export async function resetPassword(
  deps: DbDeps,
  input: { token: string; password: string },
): Promise<{ password_changed_at: Date }> {
  const hash = sha256Hex(input.token);
  const found = await deps.db.query<{ expired: boolean }>(
    `SELECT m.expires_at <= now() AS expired FROM magic_tokens m JOIN users u ON u.id = m.user_id
      WHERE m.token_hash = $1 AND m.purpose = $2 AND m.used_at IS NULL
        AND u.disabled_at IS NULL AND u.status = 'active'`,
    [hash, PASSWORD_RESET_PURPOSE],
  );
  if (!found.rows[0]) throw invalidToken();
  if (found.rows[0].expired) throw expiredToken();
  const passwordHash = await hashPassword(input.password);
  return deps.db.tx(async (tx) => {
    const spent = await tx.query<{ user_id: number }>(
      `UPDATE magic_tokens SET used_at = now()
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
        RETURNING user_id`,
      [hash, PASSWORD_RESET_PURPOSE],
    );
    if (!spent.rows[0]) throw invalidToken();
    return { password_changed_at: await setPassword(tx, spent.rows[0].user_id, passwordHash) };
  });
}

/**
 * POST /me/password: the signed-in user's current password, then the new one. Every refresh token of the
 * user is revoked and a new pair is issued for the caller, so the session that changed the password goes
 * on (with the new pair) and every other one ends at its next refresh. A user without a password (OpenID
 * Connect only) has no current password to give: current_password_wrong.
 */
export async function changePassword(
  deps: Pick<Deps, 'db' | 'config' | 'secrets' | 'clock'>,
  user: { userId: number },
  input: { current_password: string; new_password: string },
): Promise<TokenPair> {
  const r = await deps.db.query<TokenUser & { password_hash: string | null }>(
    'SELECT id, client_id, role, password_hash FROM users WHERE id = $1 AND disabled_at IS NULL',
    [user.userId],
  );
  const found = r.rows[0];
  const wrong = () =>
    new AppError('current_password_wrong', 'the current password is wrong', { param: 'current_password' });
  if (!found?.password_hash || !(await verifyPassword(found.password_hash, input.current_password))) throw wrong();
  const passwordHash = await hashPassword(input.new_password);
  return deps.db.tx(async (tx) => {
    // Guarded by the hash that was checked: a change made meanwhile (a reset) wins, this one is refused.
    const same = await tx.query('SELECT 1 FROM users WHERE id = $1 AND password_hash = $2 FOR UPDATE', [
      found.id,
      found.password_hash,
    ]);
    if (!same.rows.length) throw wrong();
    await setPassword(tx, found.id, passwordHash);
    return issueTokenPair(deps, tx, found);
  });
}
