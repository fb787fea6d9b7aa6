// Liveness, readiness (checks the store), Prometheus metrics and the JWKS of access tokens.
import { Type } from 'typebox';
import type { Registry } from 'prom-client';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { route, type App } from '../route.ts';

export function systemRoutes(app: App, deps: Deps, registry: Registry): void {
  const Status = Type.Object({ status: Type.String() });
  route(app, {
    method: 'GET',
    url: '/healthz',
    auth: [],
    schema: { tags: ['system'], summary: 'Liveness', response: { 200: Status } },
    handler: async () => ({ status: 'ok' }),
  });
  route(app, {
    method: 'GET',
    url: '/readyz',
    auth: [],
    errors: [503],
    schema: { tags: ['system'], summary: 'Readiness: the store answers', response: { 200: Status } },
    handler: async () => {
      try {
        await deps.db.query('SELECT 1');
      } catch (err) {
        throw new AppError('payment_unavailable', 'store is not reachable', { cause: err });
      }
      return { status: 'ready' };
    },
  });
  // Open unless METRICS_TOKEN is set; then only a scraper holding it reads them (decisions 25).
  const metricsAccess = deps.config.metricsToken
    ? { auth: ['metrics_token'] as const, permission: 'metrics.read' as const }
    : { auth: [] };
  route(app, {
    method: 'GET',
    url: '/metrics',
    ...metricsAccess,
    schema: {
      tags: ['system'],
      summary: 'Prometheus metrics (text exposition format); Bearer METRICS_TOKEN when that is set',
      response: {
        200: { description: 'Prometheus text exposition format', content: { 'text/plain': { schema: Type.String() } } },
      },
    },
    handler: async (_req, reply) => {
      reply.type(registry.contentType);
      return registry.metrics();
    },
  });
  route(app, {
    method: 'GET',
    url: '/.well-known/jwks.json',
    auth: [],
    schema: {
      tags: ['auth'],
      summary: 'Public keys of access tokens (RS256)',
      response: { 200: Type.Object({ keys: Type.Array(Type.Record(Type.String(), Type.Unknown())) }) },
    },
    handler: async () => ({ keys: [deps.secrets.jwt.publicJwk] }),
  });
}
