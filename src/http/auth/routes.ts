// /auth/*: register, login (password or OpenID Connect id_token), refresh, magic-link exchange, password
// reset. Rate-limited per IP (bucket `auth`), refresh per token family (`refresh`); password logins and
// reset requests also per e-mail.
import type { FastifyReply } from 'fastify';
import ipaddr from 'ipaddr.js';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import type { RateDecision } from '../../infra/rate-limit-store.ts';
import { AppError } from '../../errors.ts';
import { register } from '../../domain/accounts/register.ts';
import { login } from '../../domain/accounts/login.ts';
import { exchangeMagicToken, refreshFamilyOf, refreshTokens } from '../../domain/accounts/tokens.ts';
import { requestPasswordReset, resetPassword } from '../../domain/accounts/password-reset.ts';
import { teamInviteDetails } from '../../domain/accounts/team.ts';
import { partnerInviteDetails } from '../../domain/partners/referrals.ts';
import { route, type App } from '../route.ts';
import { Body, Nullable, Timestamp } from '../schemas.ts';
import { TokenPair as TokenResponse } from '../shapes/token-pair.ts';
import { consumeRate, setRateHeaders } from '../plugins/auth.ts';

const Registered = Type.Object({
  ...TokenResponse.properties,
  api_keys: Type.Optional(
    Type.Object(
      { live: Type.String(), test: Type.String() },
      {
        description:
          'the new client keys, shown once; GET /me shows only their prefixes. ' +
          'Absent when joining a team by invite_token',
      },
    ),
  ),
});

const Email = Type.String({ format: 'email', maxLength: 254 });
const Password = Type.String({ minLength: 10, maxLength: 128 });
const Provider = Type.String({ minLength: 1, maxLength: 64, description: 'a configured OpenID Connect issuer name' });
const IdToken = Type.String({ minLength: 1, maxLength: 8192 });

const RegisterBody = Body({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  email: Type.Optional(Email),
  password: Type.Optional(Password),
  provider: Type.Optional(Provider),
  id_token: Type.Optional(IdToken),
  invite_token: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 128,
      description: "a team invitation (POST /me/team/invite), or a partner's invitation (POST /partner/clients/invite)",
    }),
  ),
  referral_code: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: "a partner's referral link code (/r/{code})" }),
  ),
});

const InviteDetails = Type.Object(
  {
    kind: Type.String({
      enum: ['team', 'partner'],
      description: 'inv_: joining a team; pinv_: a partner invites a shop',
    }),
    shop_name: Nullable(Type.String({ description: 'team: the shop the invitee joins' })),
    role: Nullable(
      Type.String({ enum: ['admin', 'accountant', 'support', 'viewer', 'cashier'], description: 'team: its role' }),
    ),
    partner_name: Nullable(Type.String({ description: 'partner: the company that invites' })),
    email: Type.String({ description: 'the invited address: registration must use it' }),
    expires_at: Timestamp,
  },
  { title: 'InviteDetails' },
);

const LoginBody = Body({
  email: Type.Optional(Email),
  password: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  provider: Type.Optional(Provider),
  id_token: Type.Optional(IdToken),
});

/** How long an address that signed in to an e-mail keeps its own login budget for it. */
export const KNOWN_ADDRESS_SECONDS = 14 * 86400;
const KNOWN = 'login_known';

/**
 * The address a login comes from, as its limits count it: an IPv6 /64 is one address (one subscriber's
 * network, whose hosts pick addresses in it freely); IPv4-mapped IPv6 is the IPv4 address.
 */
export function loginAddress(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const a = ipaddr.process(ip);
  if (a.kind() === 'ipv4') return a.toString();
  return `${(a as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}

function limited(reply: FastifyReply, d: RateDecision, message: string): AppError {
  setRateHeaders(reply, d);
  return new AppError('rate_limit_exceeded', message, { headers: { 'Retry-After': d.reset } });
}

/**
 * The password-login limits (issue 38), beside the per-IP `auth` bucket of every /auth call:
 * - per e-mail and address, `login_email` attempts a minute (10): one address tries no faster than before;
 * - per e-mail, `login_email_hourly` attempts an hour (60) from all addresses that have not signed in to it
 *   in the last 14 days, together: many addresses cannot try faster than that;
 * - an address that has signed in to the e-mail (or registered it) lately is not counted in the hourly
 *   budget, so others' failures elsewhere never lock its owner out; it keeps its per-address limit.
 * Both are checked before the password is, so a refused attempt learns nothing; unknown e-mails are
 * counted alike.
 */
async function limitLogin(deps: Deps, reply: FastifyReply, email: string, ip: string): Promise<void> {
  const limits = deps.config.rateLimits;
  const e = email.toLowerCase();
  const pair = `${e}|${loginAddress(ip)}`;
  const d = await deps.limiter.consume('login_email_ip', limits.login_email, pair);
  if (!d.allowed) throw limited(reply, d, 'too many login attempts for this e-mail from this address; wait a minute');
  if (!(await deps.limiter.remembers(KNOWN, pair, KNOWN_ADDRESS_SECONDS))) {
    const h = await deps.limiter.consume('login_email_hourly', limits.login_email_hourly, e, 3600);
    if (!h.allowed) throw limited(reply, h, 'too many login attempts for this e-mail; try again later');
  }
}

/** After a sign-in (or a registration) from this address: its own budget for the e-mail from now on. */
async function rememberAddress(deps: Deps, email: string, ip: string): Promise<void> {
  // Not remembering only costs the address its exemption; the sign-in itself stands.
  await deps.limiter
    .remember(KNOWN, `${email.toLowerCase()}|${loginAddress(ip)}`, KNOWN_ADDRESS_SECONDS)
    .catch(() => {});
}

export function authRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'POST',
    url: '/auth/register',
    auth: [],
    rateBucket: 'auth',
    errors: [409],
    schema: {
      tags: ['auth'],
      summary: 'Register a merchant (password or OpenID Connect id_token)',
      body: RegisterBody,
      response: { 201: Registered },
    },
    handler: async (req, reply) => {
      const registered = await register(deps, req.body);
      if (req.body.email && req.body.password) await rememberAddress(deps, req.body.email, req.ip);
      return reply.status(201).send(registered);
    },
  });
  route(app, {
    method: 'POST',
    url: '/auth/invite-details',
    auth: [],
    rateBucket: 'auth',
    schema: {
      tags: ['auth'],
      summary: 'What an invitation is for, before registering with it: the shop and role, or the partner',
      description:
        'The token travels in the body, as with registration, so it stays out of access logs. A token that ' +
        'would not register (unknown, used, revoked, expired, or its partner no longer active) is 400 ' +
        '`invite_invalid`.',
      body: Body({ invite_token: Type.String({ minLength: 1, maxLength: 128 }) }),
      response: { 200: InviteDetails },
    },
    handler: async (req) => {
      const token = req.body.invite_token;
      if (token.startsWith('pinv_')) {
        const p = await partnerInviteDetails(deps.db, token);
        if (p) return { kind: 'partner', shop_name: null, role: null, ...p };
      } else {
        const m = await teamInviteDetails(deps.db, token);
        if (m) return { kind: 'team', partner_name: null, ...m };
      }
      throw new AppError('invite_invalid', 'this invitation is not valid, was used, revoked or has expired', {
        param: 'invite_token',
      });
    },
  });
  route(app, {
    method: 'POST',
    url: '/auth/login',
    auth: [],
    rateBucket: 'auth',
    schema: { tags: ['auth'], summary: 'Log in', body: LoginBody, response: { 200: TokenResponse } },
    handler: async (req, reply) => {
      if (!req.body.email) return login(deps, req.body);
      await limitLogin(deps, reply, req.body.email, req.ip);
      const tokens = await login(deps, req.body);
      await rememberAddress(deps, req.body.email, req.ip);
      return tokens;
    },
  });
  route(app, {
    method: 'POST',
    url: '/auth/refresh',
    auth: [],
    rateBucket: 'refresh',
    errors: [401, 403],
    schema: {
      tags: ['auth'],
      summary: 'Trade a refresh token for a new pair (single use; reuse revokes the family)',
      body: Body({ refresh_token: Type.String({ minLength: 1, maxLength: 512 }) }),
      response: { 200: TokenResponse },
    },
    handler: async (req, reply) => {
      // Rate-limited per token family (decisions 30): the tabs and page loads of one shop's address never
      // share the per-address sign-in allowance, and one family cannot starve another.
      const family = await refreshFamilyOf(deps.db, req.body.refresh_token);
      await consumeRate(deps, reply, family ? 'refresh' : 'auth', family ?? req.ip);
      return refreshTokens(deps, req.body.refresh_token);
    },
  });
  route(app, {
    method: 'POST',
    url: '/auth/magic-exchange',
    auth: [],
    rateBucket: 'auth',
    schema: {
      tags: ['auth'],
      summary: 'Trade a one-time magic token (login link, 10 min) for a token pair',
      body: Body({ token: Type.String({ minLength: 1, maxLength: 512 }) }),
      response: { 200: TokenResponse },
    },
    handler: async (req) => exchangeMagicToken(deps, req.body.token),
  });
  route(app, {
    method: 'POST',
    url: '/auth/password/forgot',
    auth: [],
    rateBucket: 'auth',
    schema: {
      tags: ['auth'],
      summary: 'Ask for a password-reset link by e-mail (single use, 30 min)',
      description:
        'Always 202, whether the e-mail has an account or not. An active user with a password is e-mailed ' +
        "a link to the dashboard's /reset-password page. Limited per address and per e-mail like POST /auth/login " +
        '(the same counters).',
      body: Body({ email: Email }),
      response: { 202: Type.Object({ status: Type.Literal('accepted') }) },
    },
    handler: async (req, reply) => {
      await limitLogin(deps, reply, req.body.email, req.ip);
      await requestPasswordReset(deps, req.body);
      return reply.status(202).send({ status: 'accepted' });
    },
  });
  route(app, {
    method: 'POST',
    url: '/auth/password/reset',
    auth: [],
    rateBucket: 'auth',
    schema: {
      tags: ['auth'],
      summary: 'Set a new password with a reset link token; every session of the user ends',
      description:
        'The token is spent; every refresh token of the user is revoked. An unknown or used token is 400 ' +
        '`reset_token_invalid`, an expired one 400 `reset_token_expired`.',
      body: Body({ token: Type.String({ minLength: 1, maxLength: 512 }), password: Password }),
      response: { 200: Type.Object({ password_changed_at: Timestamp }) },
    },
    handler: async (req) => resetPassword(deps, req.body),
  });
}
