// Prometheus metrics at /metrics: request counts and latencies by route pattern, plus process metrics.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { Registry, Counter, Histogram, collectDefaultMetrics } from 'prom-client';

export const metricsPlugin = fp(async (app: FastifyInstance, opts: { registry: Registry }) => {
  const { registry } = opts;
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'tolem_http_requests_total',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'tolem_http_request_duration_seconds',
    help: 'HTTP request duration by route pattern',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  app.addHook('onResponse', async (req, reply) => {
    // The route pattern, never the raw URL: ids in URLs would explode the label set.
    const route = req.routeOptions.url ?? 'unmatched';
    requests.inc({ method: req.method, route, status: reply.statusCode });
    duration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });
});
