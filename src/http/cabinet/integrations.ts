// The integrations board, the partner-impersonation switch and its session log, and the messenger link
// (decisions 17): the account's connections to the outside.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { integrationsOf } from '../../domain/accounts/integrations.ts';
import { listImpersonationSessions, setImpersonationAllowed } from '../../domain/accounts/impersonation.ts';
import { issueMessengerLink } from '../../domain/accounts/messenger.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { cabinetUser } from '../context.ts';
import { IgnoredModeQuery, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Nullable, NullableTimestamp, Page, Timestamp } from '../schemas.ts';

const Integration = Type.Object(
  {
    id: Type.String({ enum: ['provider', 'webhooks', 'messenger', 'api_keys', 'partner'] }),
    status: Type.String({ enum: ['connected', 'attention', 'off'] }),
    details: Type.Record(Type.String(), Type.Unknown()),
  },
  { title: 'Integration' },
);

const ImpersonationSession = Type.Object(
  {
    id: Type.Integer(),
    partner_id: Type.Integer(),
    partner_name: Type.String(),
    actor_email: Type.String(),
    started_at: Timestamp,
    expires_at: Timestamp,
    ended_at: NullableTimestamp,
    ip: Nullable(Type.String()),
    requests: Type.Integer({ description: 'calls made in the session' }),
  },
  { title: 'ImpersonationSession' },
);

export function integrationRoutes(app: App, deps: Deps): void {
  const tags = ['account'];
  const querystring = Type.Object(IgnoredModeQuery);
  route(app, {
    method: 'GET',
    url: '/me/integrations',
    auth: ['jwt'],
    permission: 'account.read',
    schema: {
      tags,
      summary: 'Status of the provider, webhooks, messenger, API keys and partner',
      querystring,
      response: { 200: Type.Object({ data: Type.Array(Integration) }) },
    },
    handler: async (req) => {
      const p = cabinetUser(req);
      return { data: await integrationsOf(deps, p, p.userId) };
    },
  });
  route(app, {
    method: 'PATCH',
    url: '/me/allow-partner-impersonation',
    auth: ['jwt'],
    permission: 'impersonation.manage',
    schema: {
      tags,
      summary: 'Allow or forbid a partner to act in the account; forbidding ends open sessions at once',
      querystring,
      body: Body({ allow: Type.Boolean() }, 'ImpersonationSettingRequest'),
      response: { 200: Type.Object({ allow: Type.Boolean(), ended_sessions: Type.Integer() }) },
    },
    handler: async (req) => setImpersonationAllowed(deps, cabinetUser(req), req.body.allow),
  });
  route(app, {
    method: 'GET',
    url: '/me/partner-impersonation/sessions',
    auth: ['jwt'],
    permission: 'account.read',
    schema: {
      tags,
      summary: 'Who entered the account as a partner, newest first',
      querystring: Type.Object({ ...IgnoredModeQuery, ...PageQuery }),
      response: { 200: Page(ImpersonationSession) },
    },
    handler: async (req) => {
      const p = await listImpersonationSessions(deps, cabinetUser(req), {
        cursor: req.query.cursor,
        limit: parseLimit(req.query.limit),
      });
      return { ...p, data: p.data.map(({ created_at: _c, ...s }) => s) };
    },
  });
  route(app, {
    method: 'POST',
    url: '/me/messenger-link',
    auth: ['jwt'],
    permission: 'messenger.link',
    schema: {
      tags,
      summary: "A one-time deep link (15 minutes) that binds this user's messenger chat",
      querystring,
      body: Type.Optional(Body({})),
      response: { 200: Type.Object({ url: Type.String(), expires_at: Timestamp }) },
    },
    handler: async (req) => issueMessengerLink(deps, cabinetUser(req).userId),
  });
}
