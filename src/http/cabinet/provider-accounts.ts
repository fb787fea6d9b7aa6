// The client's provider accounts (decisions 19): the record without credentials, edits, the default, a
// health check, deletion (the owner's; blocked under partner impersonation).
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import {
  deleteAccount,
  getAccount,
  healthCheck,
  listAccounts,
  patchAccount,
  setDefault,
} from '../../domain/payments/provider-account-settings.ts';
import { ORG_TYPES } from '../../domain/organization/organization.ts';
import { cabinetUser } from '../context.ts';
import { IdParams, ModeQuery, numericId } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Nullable, NullableTimestamp, Timestamp } from '../schemas.ts';

const Account = Type.Object(
  {
    id: Type.Integer(),
    mode: Type.String({ enum: ['live', 'test'] }),
    driver: Type.String({ description: 'sandbox, qrapi or gateway' }),
    display_name: Type.String(),
    org_type: Nullable(Type.String()),
    org_bin: Nullable(Type.String()),
    is_default: Type.Boolean(),
    session_alive: Type.Boolean(),
    status: Type.String({ enum: ['connected', 'needs_reconnect'] }),
    scheme: Nullable(Type.String({ enum: ['r1', 'r2', 'r3'] })),
    trade_point: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
    certificate_expires_at: NullableTimestamp,
    last_health: Nullable(
      Type.Object({
        ok: Type.Boolean(),
        checked_at: Timestamp,
        latency_ms: Type.Integer(),
        error_code: Nullable(Type.String()),
      }),
    ),
    created_at: Timestamp,
  },
  { title: 'ProviderAccount' },
);

const Health = Type.Object(
  {
    ok: Type.Boolean(),
    session_alive: Type.Boolean(),
    checked_at: Timestamp,
    latency_ms: Type.Integer(),
    checks: Type.Array(
      Type.Object({
        name: Type.String({ enum: ['ping', 'credentials', 'certificate', 'trade_point', 'device'] }),
        ok: Type.Boolean(),
        detail: Type.String(),
      }),
    ),
  },
  { title: 'ProviderAccountHealth' },
);

const providerAccountId = (raw: string) => numericId(raw, 'provider_account_not_found', 'provider account');

export function providerAccountRoutes(app: App, deps: Deps): void {
  const tags = ['provider accounts'];
  const querystring = Type.Object(ModeQuery);
  route(app, {
    method: 'GET',
    url: '/me/provider/accounts',
    auth: ['jwt'],
    permission: 'account.read',
    schema: {
      tags,
      summary: 'Provider accounts of the mode (?mode=test), the default first',
      querystring,
      response: { 200: Type.Object({ data: Type.Array(Account) }) },
    },
    handler: async (req) => {
      const p = cabinetUser(req);
      return { data: await listAccounts(deps, p) };
    },
  });
  route(app, {
    method: 'GET',
    url: '/me/provider/accounts/:id',
    auth: ['jwt'],
    permission: 'account.read',
    errors: [404],
    schema: {
      tags,
      summary: 'One provider account (credentials are never shown)',
      params: IdParams,
      querystring,
      response: { 200: Account },
    },
    handler: async (req) => getAccount(deps, cabinetUser(req).clientId, providerAccountId(req.params.id)),
  });
  route(app, {
    method: 'PATCH',
    url: '/me/provider/accounts/:id',
    auth: ['jwt'],
    permission: 'provider_accounts.write',
    errors: [404],
    schema: {
      tags,
      summary: 'Edit display_name, org_type, org_bin',
      params: IdParams,
      querystring,
      body: Body(
        {
          display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          org_type: Type.Optional(Nullable(Type.String({ enum: [...ORG_TYPES] }))),
          org_bin: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
        },
        'ProviderAccountPatch',
      ),
      response: { 200: Account },
    },
    handler: async (req) => patchAccount(deps, cabinetUser(req), providerAccountId(req.params.id), req.body),
  });
  route(app, {
    method: 'POST',
    url: '/me/provider/accounts/:id/health-check',
    auth: ['jwt'],
    permission: 'provider_accounts.write',
    errors: [404],
    schema: {
      tags,
      summary: 'Check ping, credentials, certificate, trade point and device (6 a minute)',
      params: IdParams,
      querystring,
      body: Type.Optional(Body({})),
      response: { 200: Health },
    },
    handler: async (req) => healthCheck(deps, cabinetUser(req), providerAccountId(req.params.id)),
  });
  route(app, {
    method: 'POST',
    url: '/me/provider/accounts/:id/set-default',
    auth: ['jwt'],
    permission: 'provider_accounts.write',
    errors: [404],
    schema: {
      tags,
      summary: 'Make it the default of its mode',
      params: IdParams,
      querystring,
      body: Type.Optional(Body({})),
      response: { 200: Account },
    },
    handler: async (req) => setDefault(deps, cabinetUser(req).clientId, providerAccountId(req.params.id)),
  });
  route(app, {
    method: 'DELETE',
    url: '/me/provider/accounts/:id',
    auth: ['jwt'],
    permission: 'provider_accounts.delete',
    errors: [404, 409],
    schema: {
      tags,
      summary: 'Delete (the sandbox account and a default with others: 409)',
      params: IdParams,
      querystring,
      response: { 204: Type.Null({ description: 'deleted' }) },
    },
    handler: async (req, reply) => {
      await deleteAccount(deps, cabinetUser(req), providerAccountId(req.params.id));
      return reply.status(204).send(null);
    },
  });
}
