// /auth/*: register, login (password or OpenID Connect id_token), refresh, magic-link exchange.
// Rate-limited per IP (bucket `auth`); login also per e-mail against password guessing across IPs.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { register } from '../../domain/accounts/register.ts';
import { login } from '../../domain/accounts/login.ts';
import { exchangeMagicToken, refreshTokens } from '../../domain/accounts/tokens.ts';
import { route, type App } from '../route.ts';
import { Body } from '../schemas.ts';
import { setRateHeaders } from '../plugins/auth.ts';

const TokenResponse = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String({ description: 'single use, 7 days' }),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'seconds (900)' }),
});

const Registered = Type.Object({
  ...TokenResponse.properties,
  api_keys: Type.Optional(Type.Object(
    { live: Type.String(), test: Type.String() },
    { description: 'the new client keys, shown once; GET /me shows only their prefixes. Absent when joining a team by invite_token' },
  )),
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
  invite_token: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'a team invitation (POST /me/team/invite), or a partner\'s invitation (POST /partner/clients/invite)' })),
  referral_code: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'a partner\'s referral link code (/r/{code})' })),
});

const LoginBody = Body({
  email: Type.Optional(Email),
  password: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  provider: Type.Optional(Provider),
  id_token: Type.Optional(IdToken),
});

export function authRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'POST', url: '/auth/register', auth: [], rateBucket: 'auth', errors: [409],
    schema: {
      tags: ['auth'], summary: 'Register a merchant (password or OpenID Connect id_token)',
      body: RegisterBody, response: { 201: Registered },
    },
    handler: async (req, reply) => reply.status(201).send(await register(deps, req.body)),
  });
  route(app, {
    method: 'POST', url: '/auth/login', auth: [], rateBucket: 'auth',
    schema: { tags: ['auth'], summary: 'Log in', body: LoginBody, response: { 200: TokenResponse } },
    handler: async (req, reply) => {
      if (req.body.email) {
        const d = await deps.limiter.consume('login_email', deps.config.rateLimits.login_email, req.body.email.toLowerCase());
        if (!d.allowed) {
          setRateHeaders(reply, d);
          throw new AppError('rate_limit_exceeded', 'too many login attempts for this e-mail; wait a minute', {
            headers: { 'Retry-After': d.reset },
          });
        }
      }
      return login(deps, req.body);
    },
  });
  route(app, {
    method: 'POST', url: '/auth/refresh', auth: [], rateBucket: 'auth',
    schema: {
      tags: ['auth'], summary: 'Trade a refresh token for a new pair (single use; reuse revokes the family)',
      body: Body({ refresh_token: Type.String({ minLength: 1, maxLength: 512 }) }), response: { 200: TokenResponse },
    },
    handler: async (req) => refreshTokens(deps, req.body.refresh_token),
  });
  route(app, {
    method: 'POST', url: '/auth/magic-exchange', auth: [], rateBucket: 'auth',
    schema: {
      tags: ['auth'], summary: 'Trade a one-time magic token (login link, 10 min) for a token pair',
      body: Body({ token: Type.String({ minLength: 1, maxLength: 512 }) }), response: { 200: TokenResponse },
    },
    handler: async (req) => exchangeMagicToken(deps, req.body.token),
  });
}
