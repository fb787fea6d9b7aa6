// The partner cabinet's clients (decisions 21): the list, one client, invites and impersonation.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import {
  listPartnerClients,
  partnerClientDetail,
  CLIENT_STATUSES,
  type ClientStatus,
} from '../../domain/partners/clients.ts';
import { invitePartnerClient } from '../../domain/partners/referrals.ts';
import { impersonate } from '../../domain/partners/impersonate.ts';
import { listCommissions } from '../../domain/partners/commissions.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { cabinetUser } from '../context.ts';
import { IdParams, IgnoredModeQuery, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Page, Timestamp } from '../schemas.ts';
import { toPaymentItem } from '../shapes/payment.ts';
import { ClientDetail, ClientItem } from '../shapes/partner-client.ts';
import { clientId, partnerOf, querystring, tags } from './shared.ts';

export function partnerClientRoutes(app: App, deps: Deps): void {
  const partner = partnerOf(deps);
  route(app, {
    method: 'GET',
    url: '/partner/clients',
    auth: ['jwt'],
    permission: 'partner.read',
    schema: {
      tags,
      summary: "The partner's clients, newest first",
      querystring: Type.Object({
        ...IgnoredModeQuery,
        ...PageQuery,
        status: Type.Optional(Type.String({ enum: [...CLIENT_STATUSES] })),
      }),
      response: { 200: Page(ClientItem) },
    },
    handler: async (req) =>
      listPartnerClients(
        deps,
        { partnerId: (await partner(req)).id, endpoint: '/partner/clients' },
        { status: req.query.status as ClientStatus | undefined },
        { cursor: req.query.cursor, limit: parseLimit(req.query.limit) },
      ),
  });
  route(app, {
    method: 'GET',
    url: '/partner/clients/:id',
    auth: ['jwt'],
    permission: 'partner.read',
    errors: [404],
    schema: {
      tags,
      summary: 'One client with its recent live payments',
      params: IdParams,
      querystring,
      response: { 200: ClientDetail },
    },
    handler: async (req) => {
      const p = await partner(req);
      const d = await partnerClientDetail(deps, p.id, clientId(req.params.id));
      const commissions = await listCommissions(deps, p.id, { clientId: d.id }, { limit: 20 });
      return { ...d, payments: d.payments.map(toPaymentItem), commissions: commissions.data };
    },
  });
  route(app, {
    method: 'POST',
    url: '/partner/clients/invite',
    auth: ['jwt'],
    permission: 'partner.manage',
    errors: [409],
    schema: {
      tags,
      summary: 'Invite a new client by e-mail (the token and link shown once; 7 days)',
      querystring,
      body: Body(
        {
          email: Type.String({ format: 'email', maxLength: 254 }),
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        },
        'PartnerInviteRequest',
      ),
      response: {
        201: Type.Object({
          id: Type.Integer(),
          email: Type.String(),
          status: Type.Literal('invited'),
          invite_token: Type.String(),
          invite_url: Type.String(),
          expires_at: Timestamp,
        }),
      },
    },
    handler: async (req, reply) =>
      reply.status(201).send(await invitePartnerClient(deps, (await partner(req)).id, req.body)),
  });
  route(app, {
    method: 'POST',
    url: '/partner/clients/:id/impersonate',
    auth: ['jwt'],
    permission: 'partner.manage',
    errors: [404],
    schema: {
      tags,
      summary: "Enter the client's account for 15 minutes (when it allows it); no refresh token",
      params: IdParams,
      querystring,
      body: Type.Optional(Body({})),
      response: {
        201: Type.Object({
          access_token: Type.String(),
          token_type: Type.Literal('Bearer'),
          expires_in: Type.Integer(),
          session_id: Type.Integer(),
        }),
      },
    },
    handler: async (req, reply) => {
      const u = cabinetUser(req);
      return reply
        .status(201)
        .send(await impersonate(deps, await partner(req), { userId: u.userId, ip: req.ip }, clientId(req.params.id)));
    },
  });
}
