// The guards. One onRequest hook reads the route's declared audience (route config `auth`), resolves
// the matching credential, applies the rate limit of the caller's bucket (so even a refused request
// carries the X-RateLimit-* headers), then refuses a bad credential, and last asks the policy table
// whether this principal may do the route's declared `permission` (before the body is even parsed).
import type { RateLimits } from '../../config.ts';
import { activeUser } from '../../domain/accounts/users-store.ts';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, FastifyReply } from 'fastify';
import type { Deps } from '../../deps.ts';
import type { Mode } from '../../domain/tenant.ts';
import { isRole, type Principal } from '../../domain/access/principal.ts';
import { authorize } from '../../domain/access/policy.ts';
import { AppError } from '../../errors.ts';
import { safeEqual } from '../../crypto.ts';
import { findApiKey } from '../../domain/accounts/api-keys.ts';
import { verifyAccessToken } from '../../domain/accounts/tokens.ts';
import { touchImpersonation } from '../../domain/accounts/impersonation.ts';
import { findPartnerKey, PARTNER_KEY_RE } from '../../domain/partners/keys.ts';
import type { AuthKind, RouteConfig } from '../route.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

const MISSING: Record<AuthKind, AppError> = {
  api_key: new AppError('invalid_api_key', 'X-API-Key header is required'),
  jwt: new AppError('invalid_token', 'Authorization: Bearer <access token> is required'),
  admin_jwt: new AppError('invalid_token', 'Authorization: Bearer <access token of an admin> is required'),
  partner: new AppError('invalid_api_key', 'X-Partner-API-Key header is required'),
  metrics_token: new AppError('invalid_token', 'Authorization: Bearer <METRICS_TOKEN> is required'),
};

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' && v.length ? v : undefined;
}

export function jwtMode(req: FastifyRequest): Mode {
  return (req.query as Record<string, unknown> | undefined)?.mode === 'test' ? 'test' : 'live';
}

async function resolveApiKey(deps: Deps, key: string): Promise<Principal> {
  if (!/^kp_(live|test)_[0-9A-Za-z]{32,}$/.test(key)) throw new AppError('invalid_api_key', 'API key is malformed');
  const owner = await findApiKey(deps.db, deps.caches, key);
  if (!owner) throw new AppError('invalid_api_key', 'API key is not valid or was revoked');
  if (owner.disabled) throw new AppError('account_disabled', 'this account is disabled; contact support');
  return {
    kind: 'api_key',
    clientId: owner.client_id,
    mode: owner.mode,
    plan: owner.plan,
    apiKeyId: owner.key_id,
    keyPrefix: owner.prefix,
  };
}

async function resolveJwt(
  deps: Deps,
  req: FastifyRequest,
  authorization: string,
  audience: 'cabinet' | 'admin',
): Promise<Principal> {
  const m = /^Bearer\s+(\S+)$/i.exec(authorization);
  if (!m) throw new AppError('invalid_token', 'Authorization must be "Bearer <access token>"');
  const claims = await verifyAccessToken(deps, m[1]);
  // Read on every call, so that a revoked member, a disabled client or an ended impersonation stops at
  // once rather than when its 15-minute token expires.
  const user = await activeUser(deps.db, Number(claims.sub), claims.cid);
  if (!user || !isRole(user.role)) throw new AppError('token_revoked', 'the user of this token is no longer active');
  // The operator's admins work on the admin API whatever the state of their own client account.
  if (audience === 'admin' && user.is_admin && !claims.act)
    return { kind: 'operator_admin', userId: user.id, email: user.email, clientId: user.client_id };
  if (user.client_disabled) throw new AppError('account_disabled', 'this account is disabled; contact support');
  const tenant = { clientId: user.client_id, mode: jwtMode(req), plan: user.plan, userId: user.id };
  // A partner acting in the account has the rights of `admin`, whatever the role of the user it acts as
  // (decisions 21), less the actions blocked under impersonation; its session must still be open and the
  // authority behind it standing (the partner active, the member who opened it still on its team), all
  // read in the one statement that counts the call.
  if (claims.act) {
    await touchImpersonation(deps, user.client_id, claims.act);
    return { kind: 'impersonation', ...tenant, role: 'admin', actor: claims.act };
  }
  return { kind: 'user', ...tenant, role: user.role };
}

/** A partner's integration key: the partner API in the key's mode, while the partner is active. */
async function resolvePartnerKey(deps: Deps, key: string): Promise<Principal> {
  if (!PARTNER_KEY_RE.test(key)) throw new AppError('invalid_api_key', 'partner key is malformed');
  const owner = await findPartnerKey(deps, key);
  if (!owner) throw new AppError('invalid_api_key', 'partner key is not valid or was revoked');
  if (owner.client_disabled) throw new AppError('account_disabled', 'this account is disabled; contact support');
  if (owner.partner_status !== 'active')
    throw new AppError('partner_not_active', `the partner profile is ${owner.partner_status}`);
  return {
    kind: 'partner_key',
    partnerId: owner.partner_id,
    partnerClientId: owner.partner_client_id,
    mode: owner.mode,
    apiKeyId: owner.key_id,
    keyPrefix: owner.prefix,
  };
}

/** The operator's metrics token, compared in constant time. */
function resolveMetricsToken(deps: Deps, authorization: string): Principal {
  const m = /^Bearer\s+(\S+)$/i.exec(authorization);
  const expected = deps.config.metricsToken;
  if (!m || !expected || !safeEqual(m[1], expected))
    throw new AppError('invalid_token', 'the metrics token is not valid');
  return { kind: 'operator' };
}

export async function resolvePrincipal(
  deps: Deps,
  req: FastifyRequest,
  kinds: readonly AuthKind[],
): Promise<Principal | undefined> {
  if (!kinds.length) return undefined;
  const apiKey = header(req, 'x-api-key');
  const bearer = header(req, 'authorization');
  const partner = header(req, 'x-partner-api-key');
  if (apiKey && kinds.includes('api_key')) return resolveApiKey(deps, apiKey);
  if (bearer && kinds.includes('jwt')) return resolveJwt(deps, req, bearer, 'cabinet');
  if (bearer && kinds.includes('admin_jwt')) return resolveJwt(deps, req, bearer, 'admin');
  if (bearer && kinds.includes('metrics_token')) return resolveMetricsToken(deps, bearer);
  if (partner && kinds.includes('partner')) return resolvePartnerKey(deps, partner);
  // No accepted credential: name what this route takes, whatever else was sent (wrong kind).
  throw MISSING[kinds[0]];
}

function clientIp(req: FastifyRequest): string {
  return req.ip;
}

function bucketFor(
  req: FastifyRequest,
  cfg: RouteConfig | undefined,
  p: Principal | undefined,
): [string, string] | undefined {
  // Counted by the handler, which knows the token family from the body (decisions 30; auth/routes.ts).
  if (cfg?.rateBucket === 'refresh') return undefined;
  if (cfg?.rateBucket?.startsWith('checkout_')) {
    // Per page and address: a shop's customers behind one address each poll their own page (a link's
    // token, or a payer page's operation id), without sharing one allowance.
    const params = req.params as Record<string, string> | undefined;
    const page = params?.token ?? params?.op_id ?? '';
    return [cfg.rateBucket, `${page}:${clientIp(req)}`];
  }
  if (cfg?.rateBucket === 'auth') return ['auth', clientIp(req)];
  if (p?.kind === 'api_key') {
    const bucket = p.plan === 'enterprise' && p.mode === 'live' ? 'enterprise' : p.mode;
    return [bucket, String(p.apiKeyId)];
  }
  if (p?.kind === 'user' || p?.kind === 'impersonation' || p?.kind === 'operator_admin')
    return ['cabinet', String(p.userId)];
  if (p?.kind === 'partner_key') return ['partner', String(p.apiKeyId)];
  return ['anonymous', clientIp(req)];
}

export function setRateHeaders(reply: FastifyReply, d: { limit: number; remaining: number; reset: number }): void {
  reply.header('X-RateLimit-Limit', d.limit);
  reply.header('X-RateLimit-Remaining', d.remaining);
  reply.header('X-RateLimit-Reset', d.reset);
}

type RateBucket = keyof RateLimits;

/**
 * Counts one request against `bucket` for `key`: sets X-RateLimit-* and throws 429 rate_limit_exceeded with
 * Retry-After once the minute's allowance is spent.
 */
export async function consumeRate(deps: Deps, reply: FastifyReply, bucket: RateBucket, key: string): Promise<void> {
  const d = await deps.limiter.consume(bucket, deps.config.rateLimits[bucket], key);
  setRateHeaders(reply, d);
  if (!d.allowed) {
    throw new AppError('rate_limit_exceeded', `rate limit of ${d.limit} requests per minute exceeded`, {
      headers: { 'Retry-After': d.reset },
    });
  }
}

export const authPlugin = fp(async (app: FastifyInstance, opts: { deps: Deps }) => {
  const { deps } = opts;
  app.decorateRequest('principal', undefined);
  app.addHook('onRequest', async (req, reply) => {
    const cfg = req.routeOptions.config as unknown as RouteConfig | undefined;
    let authError: unknown;
    try {
      req.principal = await resolvePrincipal(deps, req, cfg?.auth ?? []);
    } catch (err) {
      authError = err;
    }
    const counted = bucketFor(req, cfg, req.principal);
    if (counted) await consumeRate(deps, reply, counted[0] as RateBucket, counted[1]);
    if (authError) throw authError;
    if (req.principal && cfg?.permission) authorize(req.principal, cfg.permission);
  });
});
