// The admin API's partners (decisions 21, 23): applications, moving a partner between statuses, its rate.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import {
  listPartners,
  movePartner,
  setCommissionRate,
  PARTNER_STATUSES,
  type PartnerStatus,
} from '../../domain/partners/profile.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { IdParams, numericId, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Page } from '../schemas.ts';
import { AdminPartner as Partner } from '../shapes/partner-profile.ts';
import { auth, tags } from './shared.ts';

export function adminPartnerRoutes(app: App, deps: Deps): void {
  const partnerId = (raw: string) => numericId(raw, 'partner_not_found', 'partner');
  route(app, {
    method: 'GET',
    url: '/admin/partners',
    auth,
    permission: 'admin.partners',
    schema: {
      tags,
      summary: 'Partner applications and partners, newest first',
      querystring: Type.Object({ ...PageQuery, status: Type.Optional(Type.String({ enum: [...PARTNER_STATUSES] })) }),
      response: { 200: Page(Partner) },
    },
    handler: async (req) =>
      listPartners(
        deps,
        { status: req.query.status as PartnerStatus | undefined },
        { cursor: req.query.cursor, limit: parseLimit(req.query.limit) },
      ),
  });
  for (const action of ['approve', 'reject', 'suspend'] as const) {
    route(app, {
      method: 'POST',
      url: `/admin/partners/:id/${action}`,
      auth,
      permission: 'admin.partners',
      errors: [404, 409],
      schema: {
        tags,
        summary: `${action[0].toUpperCase()}${action.slice(1)} a partner`,
        params: IdParams,
        body: Type.Optional(Body({})),
        response: { 200: Partner },
      },
      handler: async (req) => movePartner(deps, partnerId(req.params.id), action),
    });
  }
  route(app, {
    method: 'PATCH',
    url: '/admin/partners/:id',
    auth,
    permission: 'admin.partners',
    errors: [404],
    schema: {
      tags,
      summary: "A partner's commission rate",
      params: IdParams,
      body: Body({ commission_rate_bps: Type.Integer({ minimum: 0, maximum: 10000 }) }, 'AdminPartnerPatch'),
      response: { 200: Partner },
    },
    handler: async (req) => setCommissionRate(deps, partnerId(req.params.id), req.body.commission_rate_bps),
  });
}
