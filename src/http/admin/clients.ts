// The admin API's clients (decisions 23): search, and a client's plan, its expiry, or disabling it.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { searchClients, updateClient } from '../../domain/admin/clients.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { IdParams, numericId, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Nullable, Page } from '../schemas.ts';
import { AdminClient } from '../shapes/admin-client.ts';
import { adminOf, auth, tags } from './shared.ts';

export function adminClientRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'GET',
    url: '/admin/clients',
    auth,
    permission: 'admin.clients',
    schema: {
      tags,
      summary: 'Clients, newest first; q: an id, or part of a name or e-mail',
      querystring: Type.Object({ ...PageQuery, q: Type.Optional(Type.String({ maxLength: 200 })) }),
      response: { 200: Page(AdminClient) },
    },
    handler: async (req) =>
      searchClients(deps, { q: req.query.q }, { cursor: req.query.cursor, limit: parseLimit(req.query.limit) }),
  });
  route(app, {
    method: 'PATCH',
    url: '/admin/clients/:id',
    auth,
    permission: 'admin.clients',
    errors: [404, 409],
    schema: {
      tags,
      summary: "Change a client's plan, its expiry, or disable it (keys and tokens stop at once)",
      description:
        "Disabling the admin's own client is 409 `cannot_disable_self`; disabling the platform client (it " +
        'takes the plan payments) is 409 `cannot_disable_platform_client`.',
      params: IdParams,
      body: Body(
        {
          plan: Type.Optional(Type.String({ enum: ['trial', 'starter', 'professional', 'enterprise'] })),
          plan_expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
          disabled: Type.Optional(Type.Boolean()),
        },
        'AdminClientPatch',
      ),
      response: { 200: AdminClient },
    },
    handler: async (req) =>
      updateClient(
        deps,
        numericId(req.params.id, 'client_not_found', 'client'),
        {
          plan: req.body.plan,
          plan_expires_at:
            req.body.plan_expires_at === undefined
              ? undefined
              : req.body.plan_expires_at === null
                ? null
                : new Date(req.body.plan_expires_at),
          disabled: req.body.disabled,
        },
        adminOf(req),
      ),
  });
}
