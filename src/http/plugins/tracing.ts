// A server span per HTTP request (decisions 29), added by buildApp only when tracing is on. It continues a
// caller's W3C traceparent, is named by the route pattern (`POST /v2/qr`, never the raw URL), and is the
// active span for everything the request does, so the store's statements and the provider's calls become
// its children.
//
// The span starts where Fastify makes the request's logger, the first thing it does with a request: the
// "incoming request" line is written before any hook runs, and the log mixin finds the span on that
// logger (telemetry/tracing.ts REQUEST_SPAN). The onRequest hook then makes it active for the hooks and
// the handler, and binds the request and response streams to it: the body is read in the stream's own
// callbacks, which would otherwise run outside it (and so would every hook after body parsing).
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { REQUEST_SPAN, failSpan, tracingApi, type Span } from '../../telemetry/tracing.ts';

const SERVER = 1; // SpanKind.SERVER

export function traceRequests(app: FastifyInstance): void {
  if (!tracingApi()) return;
  const spans = new WeakMap<IncomingMessage, Span>();
  const errors = new WeakMap<IncomingMessage, Error>();

  app.setChildLoggerFactory(function childLogger(logger, bindings, opts, raw) {
    // Read per request: the SDK may have been restarted since the app was built (tests do).
    const t = tracingApi();
    if (!t) return logger.child(bindings, opts);
    const { api, tracer } = t;
    const parent = api.propagation.extract(api.ROOT_CONTEXT, raw.headers);
    const method = raw.method ?? 'HTTP';
    const span = tracer.startSpan(
      method,
      // The route pattern only (set below), never the URL: paths carry checkout and link tokens.
      { kind: SERVER, attributes: { 'http.request.method': method } },
      parent,
    );
    spans.set(raw, span);
    const child = logger.child(bindings, opts);
    // Without a logger (tests) the child is the shared null logger itself: nothing to mark.
    if (child !== logger) (child as { [REQUEST_SPAN]?: Span })[REQUEST_SPAN] = span;
    return child;
  });

  app.addHook('onRequest', (req, reply, done) => {
    const span = spans.get(req.raw);
    const api = tracingApi()?.api;
    if (!span || !api) return done();
    const route = req.routeOptions.url;
    if (route) {
      span.updateName(`${req.method} ${route}`);
      span.setAttribute('http.route', route);
    }
    span.setAttribute('tolem.request_id', req.id);
    const ctx = api.trace.setSpan(api.context.active(), span);
    api.context.bind(ctx, req.raw);
    api.context.bind(ctx, reply.raw);
    api.context.with(ctx, done);
  });
  app.addHook('onError', (req, _reply, err, done) => {
    errors.set(req.raw, err);
    done();
  });
  app.addHook('onResponse', (req, reply, done) => {
    const span = spans.get(req.raw);
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      // A 4xx is the caller's mistake, not the server's failure (the conventions for server spans).
      if (reply.statusCode >= 500) failSpan(span, errors.get(req.raw) ?? `HTTP ${reply.statusCode}`);
      span.end();
    }
    done();
  });
  app.addHook('onRequestAbort', (req, done) => {
    const span = spans.get(req.raw);
    if (span) {
      span.setAttribute('tolem.aborted', true);
      span.end();
    }
    done();
  });
}
