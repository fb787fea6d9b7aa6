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
  // The series of each (method, route, status), looked up once: prom-client hashes the label object on
  // every inc()/observe(), a visible share of a cheap request's CPU. Bounded by the routes and statuses.
  const counters = new Map<string, Counter.Internal>();
  const timers = new Map<string, Histogram.Internal<'method' | 'route'>>();
  app.addHook('onResponse', (req, reply, done) => {
    // The route pattern, never the raw URL: ids in URLs would explode the label set.
    const route = req.routeOptions.url ?? 'unmatched';
    const timerKey = `${req.method} ${route}`;
    const counterKey = `${timerKey} ${reply.statusCode}`;
    let counter = counters.get(counterKey);
    if (!counter)
      counters.set(counterKey, (counter = requests.labels({ method: req.method, route, status: reply.statusCode })));
    let timer = timers.get(timerKey);
    if (!timer) timers.set(timerKey, (timer = duration.labels({ method: req.method, route })));
    counter.inc();
    timer.observe(reply.elapsedTime / 1000);
    done();
  });
});
