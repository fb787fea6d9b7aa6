// The partner cabinet's analytics (decisions 21): UTC days, periods 7d, 30d (default), 90d, 365d, all.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import {
  funnel,
  incomeGraph,
  INTERVALS,
  PERIODS,
  summary,
  type Interval,
  type Period,
} from '../../domain/partners/analytics.ts';
import { IgnoredModeQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { PartnerSummary } from '../shapes/partner-analytics.ts';
import { partnerOf, tags } from './shared.ts';

export function partnerAnalyticsRoutes(app: App, deps: Deps): void {
  const partner = partnerOf(deps);
  const PeriodQuery = {
    ...IgnoredModeQuery,
    period: Type.Optional(Type.String({ enum: [...PERIODS], description: 'default 30d' })),
  };
  const period = (q: { period?: string }) => (q.period ?? '30d') as Period;
  route(app, {
    method: 'GET',
    url: '/partner/analytics/summary',
    auth: ['jwt'],
    permission: 'partner.read',
    schema: {
      tags,
      summary: 'Clients, revenue and commissions of a period',
      querystring: Type.Object(PeriodQuery),
      response: {
        200: PartnerSummary,
      },
    },
    handler: async (req) => summary(deps, await partner(req), period(req.query)),
  });
  route(app, {
    method: 'GET',
    url: '/partner/analytics/funnel',
    auth: ['jwt'],
    permission: 'partner.read',
    schema: {
      tags,
      summary: 'Clicks, then the clients registered in the period step by step (never rising after the clicks)',
      querystring: Type.Object(PeriodQuery),
      response: {
        200: Type.Array(
          Type.Object({
            step: Type.String({
              enum: ['link_clicks', 'registered', 'provider_connected', 'first_live_payment', 'paid_subscription'],
            }),
            value: Type.Integer(),
          }),
        ),
      },
    },
    handler: async (req) => funnel(deps, await partner(req), period(req.query)),
  });
  route(app, {
    method: 'GET',
    url: '/partner/analytics/income-graph',
    auth: ['jwt'],
    permission: 'partner.read',
    schema: {
      tags,
      summary: 'Commissions and plan revenue per day, week or month, zero-filled',
      querystring: Type.Object({
        ...PeriodQuery,
        interval: Type.Optional(Type.String({ enum: [...INTERVALS], description: 'default day' })),
      }),
      response: {
        200: Type.Object({
          data: Type.Array(
            Type.Object({
              date: Type.String({ description: "YYYY-MM-DD, the bucket's first UTC day" }),
              commissions_kzt: Type.Integer(),
              revenue_kzt: Type.Integer(),
            }),
          ),
        }),
      },
    },
    handler: async (req) =>
      incomeGraph(deps, await partner(req), period(req.query), (req.query.interval ?? 'day') as Interval),
  });
}
