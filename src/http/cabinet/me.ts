// The account: profile, terms, API key regeneration, request log.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { acceptTerms, getProfile, listRequestLogs, regenerateApiKey } from '../../domain/accounts/profile.ts';
import { parseLimit } from '../../domain/pagination.ts';
import type { RequestLogWriter } from '../plugins/request-log.ts';
import { ACTIONS, allowedActions } from '../../domain/access/policy.ts';
import { cabinetUser } from '../context.ts';
import { IgnoredModeQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Nullable, NullableTimestamp, Timestamp } from '../schemas.ts';

const Profile = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  plan: Type.String({ enum: ['trial', 'starter', 'professional', 'enterprise'] }),
  plan_active: Type.Boolean(),
  session_alive: Type.Boolean({ description: 'live provider session; false means reconnect is required' }),
  api_key_prefix: Nullable(Type.String()),
  test_api_key_prefix: Nullable(Type.String()),
  is_admin: Type.Boolean(),
  role: Type.String(),
  terms_accepted_at: NullableTimestamp,
  trial_ends_at: Timestamp,
  plan_expires_at: NullableTimestamp,
  messenger_linked: Type.Boolean({ description: "this user's messenger chat is bound" }),
  permissions: Type.Array(Type.String({ enum: Object.keys(ACTIONS) }), {
    description:
      'the actions of the permission table (decisions 16) this caller may do, as `x-permission` names them ' +
      "on each operation: the caller's role, less what is blocked while a partner acts in the account",
  }),
});

const LogItem = Type.Object({
  id: Type.Integer(),
  request_id: Type.String(),
  method: Type.String(),
  path: Type.String(),
  status: Type.Integer(),
  duration_ms: Type.Integer(),
  api_key_prefix: Nullable(Type.String()),
  actor: Nullable(
    Type.Object(
      {
        kind: Type.Literal('partner'),
        partner_id: Nullable(Type.Integer()),
        session: Nullable(Type.String()),
      },
      { description: 'set when a partner acting in the account made the call' },
    ),
  ),
  created_at: Timestamp,
});

export function meRoutes(app: App, deps: Deps, logs: RequestLogWriter): void {
  route(app, {
    method: 'GET',
    url: '/me',
    auth: ['jwt'],
    permission: 'account.me',
    schema: { tags: ['account'], summary: 'Client profile', response: { 200: Profile } },
    handler: async (req) => {
      const p = cabinetUser(req);
      return Object.assign(await getProfile(deps, p, p.userId), { permissions: allowedActions(p) });
    },
  });
  route(app, {
    method: 'POST',
    url: '/me/accept-terms',
    auth: ['jwt'],
    permission: 'account.accept_terms',
    schema: {
      tags: ['account'],
      summary: 'Accept the offer',
      body: Body({}),
      response: { 200: Type.Object({ accepted_at: Timestamp }) },
    },
    handler: async (req) => acceptTerms(deps, cabinetUser(req)),
  });
  route(app, {
    method: 'POST',
    url: '/me/api-key/regenerate',
    auth: ['jwt'],
    permission: 'api_keys.manage',
    schema: {
      tags: ['account'],
      summary: 'New API key of a mode, shown once; the old key stops at once',
      body: Type.Optional(Body({ mode: Type.Optional(Type.String({ enum: ['live', 'test'] })) })),
      response: {
        200: Type.Object({
          api_key: Type.String(),
          mode: Type.String({ enum: ['live', 'test'] }),
          api_key_prefix: Type.String(),
          created_at: Timestamp,
        }),
      },
    },
    handler: async (req) =>
      regenerateApiKey(deps, {
        clientId: cabinetUser(req).clientId,
        mode: (req.body?.mode ?? 'live') as 'live' | 'test',
      }),
  });
  route(app, {
    method: 'GET',
    url: '/me/logs',
    auth: ['jwt'],
    permission: 'logs.read',
    schema: {
      tags: ['account'],
      summary: 'Request log, newest first',
      querystring: Type.Object({
        limit: Type.Optional(Type.Integer({ description: '1 to 200, default 50' })),
        ...IgnoredModeQuery,
      }),
      response: { 200: Type.Object({ data: Type.Array(LogItem) }) },
    },
    handler: async (req) => {
      const limit = parseLimit(req.query.limit, 50, 200);
      await logs.flush(); // this process's buffered rows first, so a request just made is listed
      return { data: await listRequestLogs(deps, cabinetUser(req), limit) };
    },
  });
}
