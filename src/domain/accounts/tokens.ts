// Access tokens (RS256, 15 min, kid, typ at+jwt), refresh tokens (opaque, 7 days, single use, kept as
// SHA-256, reuse revokes the whole family) and magic tokens (single use, 10 min).
import { SignJWT, jwtVerify, importJWK, errors as joseErrors, type JWTPayload } from 'jose';
import { ulid } from 'ulidx';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../errors.ts';
import { randomToken, sha256Hex } from '../../crypto.ts';

export const ACCESS_TTL_S = 900;
export const REFRESH_TTL_S = 7 * 24 * 3600;
export const MAGIC_TTL_S = 600;
const ACCESS_TYP = 'at+jwt';

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

export interface AccessClaims {
  sub: string;
  cid: number;
  role: string;
  act?: Record<string, unknown>;
}

export async function signAccessToken(
  deps: Pick<Deps, 'config' | 'secrets' | 'clock'>,
  claims: AccessClaims,
  ttlS = ACCESS_TTL_S,
): Promise<string> {
  const { privateKey, kid } = deps.secrets.jwt;
  const now = Math.floor(deps.clock.now().getTime() / 1000);
  return new SignJWT({ cid: claims.cid, role: claims.role, ...(claims.act ? { act: claims.act } : {}) })
    .setProtectedHeader({ alg: 'RS256', kid, typ: ACCESS_TYP })
    .setSubject(claims.sub)
    .setIssuer(deps.config.jwtIssuer)
    .setAudience(deps.config.jwtAudience)
    .setIssuedAt(now)
    .setExpirationTime(now + ttlS)
    .setJti(ulid())
    .sign(privateKey);
}

let verifyKey: { kid: string; key: Awaited<ReturnType<typeof importJWK>> } | undefined;

/** How far a token's iat may be ahead of this clock: the clocks of several instances differ a little. */
export const IAT_SKEW_S = 60;

/**
 * What the signature does not prove: this server issues tokens of ACCESS_TTL_S, dated now, for a user
 * id and a client id. A token issued "in the future" or living longer comes from a leaked key or a bug,
 * and a sub or cid of another type would be looked up as something it is not.
 */
function checkClaims(p: JWTPayload, nowS: number): void {
  const bad = (why: string) => new AppError('invalid_token', `access token is not valid (${why})`);
  if (typeof p.iat !== 'number' || p.iat > nowS + IAT_SKEW_S) throw bad('issued in the future');
  if (typeof p.exp !== 'number' || p.exp - p.iat > ACCESS_TTL_S) throw bad('lifetime over the allowed one');
  if (typeof p.sub !== 'string' || !/^[1-9]\d{0,15}$/.test(p.sub) || !Number.isSafeInteger(Number(p.sub)))
    throw bad('subject');
  const cid = (p as { cid?: unknown }).cid;
  if (typeof cid !== 'number' || !Number.isSafeInteger(cid) || cid < 1) throw bad('client');
}

export async function verifyAccessToken(
  deps: Pick<Deps, 'config' | 'secrets' | 'clock'>,
  token: string,
): Promise<JWTPayload & AccessClaims> {
  const { publicJwk, kid } = deps.secrets.jwt;
  if (verifyKey?.kid !== kid) verifyKey = { kid, key: await importJWK(publicJwk, 'RS256') };
  try {
    const { payload, protectedHeader } = await jwtVerify(token, verifyKey.key, {
      algorithms: ['RS256'], // pinned: no `none`, no HS256 with the public key
      issuer: deps.config.jwtIssuer,
      audience: deps.config.jwtAudience,
      typ: ACCESS_TYP,
      currentDate: deps.clock.now(),
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    if (protectedHeader.kid !== kid) throw new AppError('invalid_token', 'unknown signing key');
    checkClaims(payload, Math.floor(deps.clock.now().getTime() / 1000));
    return payload as JWTPayload & AccessClaims;
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof joseErrors.JWTExpired)
      throw new AppError('token_expired', 'access token expired; use POST /auth/refresh');
    throw new AppError('invalid_token', 'access token is not valid');
  }
}

async function storeRefresh(tx: Queryable, userId: number, familyId: string): Promise<string> {
  const token = `rt_${randomToken(32)}`;
  await tx.query(
    `INSERT INTO refresh_tokens (user_id, family_id, token_hash, expires_at)
      VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [userId, familyId, sha256Hex(token), REFRESH_TTL_S],
  );
  return token;
}

export interface TokenUser {
  id: number;
  client_id: number;
  role: string;
}

export async function issueTokenPair(
  deps: Pick<Deps, 'config' | 'secrets' | 'clock'>,
  tx: Queryable,
  user: TokenUser,
  familyId = ulid(),
): Promise<TokenPair> {
  const refresh = await storeRefresh(tx, user.id, familyId);
  const access = await signAccessToken(deps, { sub: String(user.id), cid: user.client_id, role: user.role });
  return { access_token: access, refresh_token: refresh, token_type: 'Bearer', expires_in: ACCESS_TTL_S };
}

const revokeFamily = (tx: Queryable, familyId: string) =>
  tx.query('UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL', [familyId]);

/** A disabled client's chain stops here: the family is revoked, so enabling the client again needs a login. */
const accountDisabled = async (tx: Queryable, familyId: string) => {
  await revokeFamily(tx, familyId);
  return { error: new AppError('account_disabled', 'this account is disabled; contact support') };
};

/**
 * Single use: the token is spent atomically; a second use revokes every token of its family. A token of
 * a disabled client answers account_disabled, fresh, spent or revoked alike (disabling revokes them all),
 * since that is what its holder must be told.
 */
export async function refreshTokens(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock'>,
  token: string,
): Promise<TokenPair> {
  const hash = sha256Hex(token);
  const outcome = await deps.db.tx(async (tx) => {
    const spent = await tx.query<{ user_id: number; family_id: string; expired: boolean }>(
      `UPDATE refresh_tokens SET used_at = now()
        WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL
        RETURNING user_id, family_id, expires_at <= now() AS expired`,
      [hash],
    );
    const row = spent.rows[0];
    if (!row) {
      const known = await tx.query<{ family_id: string; client_disabled: boolean }>(
        `SELECT r.family_id, c.disabled_at IS NOT NULL AS client_disabled
           FROM refresh_tokens r JOIN users u ON u.id = r.user_id JOIN clients c ON c.id = u.client_id
          WHERE r.token_hash = $1`,
        [hash],
      );
      if (!known.rows[0]) return { error: new AppError('invalid_token', 'refresh token is not valid') };
      if (known.rows[0].client_disabled) return accountDisabled(tx, known.rows[0].family_id);
      // Reuse of a spent token: someone else holds a copy. Revoke the family so neither copy works.
      await revokeFamily(tx, known.rows[0].family_id);
      return { error: new AppError('token_revoked', 'refresh token was already used; its session is revoked') };
    }
    if (row.expired) return { error: new AppError('token_expired', 'refresh token expired; log in again') };
    const user = await tx.query<TokenUser & { client_disabled: boolean }>(
      `SELECT u.id, u.client_id, u.role, c.disabled_at IS NOT NULL AS client_disabled
         FROM users u JOIN clients c ON c.id = u.client_id WHERE u.id = $1 AND u.disabled_at IS NULL`,
      [row.user_id],
    );
    const found = user.rows[0];
    if (!found) return { error: new AppError('token_revoked', 'user is no longer active') };
    if (found.client_disabled) return accountDisabled(tx, row.family_id);
    return { pair: await issueTokenPair(deps, tx, found, row.family_id) };
  });
  // Errors are returned, not thrown, so that the family revocation above commits.
  if ('error' in outcome && outcome.error) throw outcome.error;
  return (outcome as { pair: TokenPair }).pair;
}

/**
 * The operator disabled a client: every refresh token of its users is revoked, so no session outlives
 * the switch, and enabling the client again needs a new login (its access tokens stop on their own: each
 * call checks the client).
 */
export async function revokeClientRefreshTokens(tx: Queryable, clientId: number): Promise<void> {
  await tx.query(
    `UPDATE refresh_tokens SET revoked_at = now()
      WHERE revoked_at IS NULL AND expires_at > now() AND user_id IN (SELECT id FROM users WHERE client_id = $1)`,
    [clientId],
  );
}

/** The purpose of a sign-in magic token; other magic tokens (the messenger binding's) never sign in. */
export const LOGIN_LINK_PURPOSE = 'login_link';

export async function issueMagicToken(
  tx: Queryable,
  userId: number,
  purpose: string,
): Promise<{ token: string; expires_at: Date }> {
  const token = `mt_${randomToken(32)}`;
  const r = await tx.query<{ expires_at: Date }>(
    `INSERT INTO magic_tokens (user_id, token_hash, purpose, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING expires_at`,
    [userId, sha256Hex(token), purpose, MAGIC_TTL_S],
  );
  return { token, expires_at: r.rows[0].expires_at };
}

export async function exchangeMagicToken(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock'>,
  token: string,
): Promise<TokenPair> {
  const hash = sha256Hex(token);
  return deps.db.tx(async (tx) => {
    const r = await tx.query<TokenUser & { expired: boolean }>(
      `UPDATE magic_tokens m SET used_at = now()
         FROM users u
        WHERE m.token_hash = $1 AND m.purpose = $2 AND m.used_at IS NULL
          AND u.id = m.user_id AND u.disabled_at IS NULL AND u.status = 'active'
        RETURNING u.id, u.client_id, u.role, m.expires_at <= now() AS expired`,
      [hash, LOGIN_LINK_PURPOSE],
    );
    const user = r.rows[0];
    if (!user) throw new AppError('invalid_token', 'magic token is not valid or was already used');
    if (user.expired) throw new AppError('token_expired', 'magic token expired');
    return issueTokenPair(deps, tx, user);
  });
}

/** The family of a refresh token this server issued (spent or not), or null for one it never issued. */
export async function refreshFamilyOf(db: Queryable, token: string): Promise<string | null> {
  const r = await db.query<{ family_id: string }>('SELECT family_id FROM refresh_tokens WHERE token_hash = $1', [
    sha256Hex(token),
  ]);
  return r.rows[0]?.family_id ?? null;
}
