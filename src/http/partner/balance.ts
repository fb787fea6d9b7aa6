// The partner cabinet's money, part one (decisions 21): commissions and the ledger-backed balance.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { listCommissions, COMMISSION_STATUSES, type CommissionStatus } from '../../domain/partners/commissions.ts';
import { balanceOf, listLedger } from '../../domain/partners/ledger.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { IgnoredModeQuery, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Page } from '../schemas.ts';
import { Commission } from '../shapes/commission.ts';
import { BalanceTransaction, PartnerBalance } from '../shapes/partner-balance.ts';
import { partnerOf, querystring, tags } from './shared.ts';

export function partnerBalanceRoutes(app: App, deps: Deps): void {
  const partner = partnerOf(deps);
  route(app, {
    method: 'GET',
    url: '/partner/commissions',
    auth: ['jwt'],
    permission: 'partner.read',
    schema: {
      tags,
      summary: 'Commissions, newest first',
      querystring: Type.Object({
        ...IgnoredModeQuery,
        ...PageQuery,
        status: Type.Optional(Type.String({ enum: [...COMMISSION_STATUSES] })),
      }),
      response: { 200: Page(Commission) },
    },
    handler: async (req) =>
      listCommissions(
        deps,
        (await partner(req)).id,
        { status: req.query.status as CommissionStatus | undefined },
        { cursor: req.query.cursor, limit: parseLimit(req.query.limit) },
      ),
  });
  route(app, {
    method: 'GET',
    url: '/partner/balance',
    auth: ['jwt'],
    permission: 'partner.read',
    schema: {
      tags,
      summary: 'Available and pending tenge',
      querystring,
      response: {
        200: PartnerBalance,
      },
    },
    handler: async (req) => balanceOf(deps, (await partner(req)).id),
  });
  route(app, {
    method: 'GET',
    url: '/partner/balance/transactions',
    auth: ['jwt'],
    permission: 'partner.read',
    schema: {
      tags,
      summary: 'The ledger behind the balance, newest first',
      querystring: Type.Object({ ...IgnoredModeQuery, ...PageQuery }),
      response: {
        200: Page(BalanceTransaction),
      },
    },
    handler: async (req) =>
      listLedger(deps, (await partner(req)).id, { cursor: req.query.cursor, limit: parseLimit(req.query.limit) }),
  });
}
