// Login with a password or an OpenID Connect id_token. Unknown e-mail and wrong password answer alike.
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { dummyHash, verifyPassword } from './passwords.ts';
import { issueTokenPair, type TokenPair, type TokenUser } from './tokens.ts';
import { verifyIdToken } from './oidc.ts';

export interface LoginInput {
  email?: string;
  password?: string;
  provider?: string;
  id_token?: string;
}

type UserRow = TokenUser & { password_hash: string | null; email: string; is_admin: boolean };

const USER_COLUMNS = 'id, client_id, role, password_hash, email, is_admin';

export async function login(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock'>,
  input: LoginInput,
): Promise<TokenPair> {
  let user: UserRow | undefined;
  if (input.id_token !== undefined || input.provider !== undefined) {
    if (!input.provider || !input.id_token) {
      throw new AppError('invalid_parameter', 'provider and id_token go together', {
        param: input.provider ? 'id_token' : 'provider',
      });
    }
    const identity = await verifyIdToken(deps.config, input.provider, input.id_token);
    const r = await deps.db.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM users WHERE oidc_issuer = $1 AND oidc_subject = $2 AND disabled_at IS NULL`,
      [identity.issuer, identity.subject],
    );
    user = r.rows[0];
    if (!user) throw new AppError('invalid_credentials', 'no account is linked to this identity');
  } else {
    if (!input.email) throw new AppError('invalid_parameter', 'email is required', { param: 'email' });
    if (input.password === undefined)
      throw new AppError('invalid_parameter', 'password is required', { param: 'password' });
    const r = await deps.db.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM users WHERE lower(email) = $1 AND disabled_at IS NULL`,
      [input.email.toLowerCase()],
    );
    user = r.rows[0];
    // An account without a password (registered through OpenID Connect) never logs in with one. The
    // dummy hash is checked all the same, so the time taken does not tell which e-mails exist.
    const stored = user?.password_hash;
    let ok = false;
    if (stored) ok = await verifyPassword(stored, input.password);
    else await verifyPassword(await dummyHash(), input.password);
    if (!user || !ok) throw new AppError('invalid_credentials', 'e-mail or password is wrong');
  }
  const found = user;
  const client = await deps.db.query('SELECT 1 FROM clients WHERE id = $1 AND disabled_at IS NOT NULL', [
    found.client_id,
  ]);
  if (client.rows.length) throw new AppError('account_disabled', 'this account is disabled; contact support');
  // ADMIN_EMAILS may change between starts: keep is_admin in step at login.
  const admin = deps.config.adminEmails.includes(found.email.toLowerCase());
  return deps.db.tx(async (tx) => {
    if (admin && !found.is_admin) await tx.query('UPDATE users SET is_admin = true WHERE id = $1', [found.id]);
    return issueTokenPair(deps, tx, found);
  });
}
