// buildApp(deps): the plugins in order, the error model, and every HTTP surface. Tests build it too.
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Registry } from 'prom-client';
import type { Deps } from './deps.ts';
import { ulidSource } from './domain/ids.ts';
import { badTextAt, validatorCompiler } from './http/validation.ts';
import { lazySerializerFactory } from './http/lazy-schemas.ts';
import { errorsPlugin, sendError, toAppError } from './http/plugins/errors.ts';
import { clientErrorHandler } from './http/plugins/client-errors.ts';
import { AppError } from './errors.ts';
import { authPlugin } from './http/plugins/auth.ts';
import { metricsPlugin } from './http/plugins/metrics.ts';
import { registerJobMetrics } from './http/plugins/metrics-jobs.ts';
import { requestLogPlugin, RequestLogWriter } from './http/plugins/request-log.ts';
import { operationIdOf, type App, type DeclaredRoute, type RouteConfig } from './http/route.ts';
import { idempotencyPlugin } from './http/plugins/idempotency.ts';
import { adminAuditPlugin } from './http/plugins/admin-audit.ts';
import { traceRequests } from './http/plugins/tracing.ts';
import { traceLogFields, tracingOn } from './telemetry/tracing.ts';
import type { SurfaceOptions } from './http/surface.ts';
import { systemSurface } from './http/system/index.ts';
import { authSurface } from './http/auth/index.ts';
import { cabinetSurface } from './http/cabinet/index.ts';
import { v2Surface } from './http/v2/index.ts';
import { checkoutSurface } from './http/checkout/index.ts';
import { messengerSurface } from './http/messenger/index.ts';
import { adminSurface } from './http/admin/index.ts';
import { onboardingSurface } from './http/onboarding/index.ts';
import { subscriptionSurface } from './http/subscription/index.ts';
import { partnerSurface } from './http/partner/index.ts';
import { dashboardSurface } from './http/dashboard/index.ts';
import { v1Surface } from './http/v1/index.ts';
import { docsPage, openapiFrame } from './http/openapi.ts';
import { finishDocument, type OpenApiDocument } from './http/openapi-document.ts';

const nextUlid = ulidSource();

/**
 * The HTTP surfaces (http/surface.ts), in the order their routes are declared. Routing does not depend on it,
 * nor does /openapi.json, whose paths are in the document's own order (http/openapi-document.ts).
 */
const SURFACES = [
  systemSurface,
  authSurface,
  cabinetSurface,
  v2Surface,
  checkoutSurface,
  messengerSurface,
  adminSurface,
  onboardingSurface,
  subscriptionSurface,
  partnerSurface,
  dashboardSurface,
  // v1 (deprecated) in its own encapsulated context: own error envelope, headers and sunset.
  v1Surface,
];

export interface BuiltApp {
  app: FastifyInstance;
  requestLog: RequestLogWriter;
  /** every route declared with route(), as declared: the OpenAPI extensions and the route sweep read it */
  routes: DeclaredRoute[];
}

export interface BuildOptions {
  /** false: no log at all (tests) */
  logger?: boolean;
  /** where the log's lines go instead of stdout (a test reading them) */
  logStream?: { write(line: string): void };
}

export async function buildApp(deps: Deps, opts: BuildOptions = {}): Promise<BuiltApp> {
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: deps.config.logLevel,
            stream: opts.logStream,
            // trace_id and span_id on every line written under a span (decisions 29), only with tracing on.
            mixin: tracingOn() ? traceLogFields : undefined,
            // Secrets never reach the log: credentials in headers and anything that looks like one in bodies.
            redact: [
              'req.headers["x-api-key"]',
              'req.headers.authorization',
              'req.headers["x-partner-api-key"]',
              'req.headers.cookie',
            ],
          },
    genReqId: () => `req_${nextUlid()}`,
    bodyLimit: 1024 * 1024,
    trustProxy: deps.config.trustProxy as boolean | string,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    ajv: { customOptions: { removeAdditional: false } },
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory } },
    // Errors raised before routing (a URL with broken percent-encoding) get the envelope too.
    frameworkErrors: (err, req, reply) => {
      reply.header('X-Request-Id', req.id);
      const known =
        err.code === 'FST_ERR_BAD_URL'
          ? new AppError('invalid_parameter', 'the request URL is not valid')
          : toAppError(err);
      sendError(reply, req, known ?? new AppError('internal_error', 'internal error'));
    },
    // ... and so do failures of the exchange itself, before there is a request (431, malformed HTTP).
    clientErrorHandler: clientErrorHandler(() => `req_${nextUlid()}`),
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
  app.setValidatorCompiler(validatorCompiler as never);
  // First of the hooks, so that authentication's statements are already inside the request's span.
  traceRequests(app as unknown as FastifyInstance);

  // JSON only: other media types (text/plain included, which Fastify parses by default) are 415.
  app.removeContentTypeParser('text/plain');
  // Empty JSON bodies on action endpoints (POST .../cancel) are an empty object, not a parse error.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if ((body as string).trim() === '') return done(null, undefined);
    defaultJson(req, body as string, done);
  });
  // The cheap per-request hooks take Fastify's callback form: an async hook costs a promise per request.
  app.addHook('preValidation', (req, _reply, done) => {
    if (req.body === undefined && req.routeOptions.schema?.body && req.method !== 'GET') req.body = {};
    for (const part of [req.body, req.query, req.params]) {
      const bad = badTextAt(part);
      if (bad)
        return done(
          new AppError('invalid_parameter', `${bad.path || 'the body'} ${bad.why}`, { param: bad.path || undefined }),
        );
    }
    done();
  });
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('X-Request-Id', req.id);
    done();
  });

  // The route table: every route() declaration, in child contexts (v1) too, since this hook is added
  // before any of them is registered.
  const routes: DeclaredRoute[] = [];
  app.addHook('onRoute', (r) => {
    const config = r.config as RouteConfig | undefined;
    if (!config?.auth) return;
    // Here the full path is known (v1's prefix included): every documented operation gets its id.
    const schema = r.schema as { operationId?: string; hide?: boolean } | undefined;
    if (schema && !schema.hide && !schema.operationId && r.method !== 'HEAD')
      schema.operationId = operationIdOf([r.method].flat()[0], r.url);
    for (const method of [r.method].flat()) if (method !== 'HEAD') routes.push({ method, url: r.url, config });
  });

  const registry = new Registry();
  const requestLog = new RequestLogWriter(deps.db);
  await app.register(errorsPlugin);
  await app.register(metricsPlugin, { registry });
  registerJobMetrics(registry, deps);
  await app.register(swagger, {
    // The document's post-processing, step by step: http/openapi-document.ts.
    transformObject: (doc) =>
      finishDocument((doc as { openapiObject: OpenApiDocument }).openapiObject, routes) as never,
    openapi: openapiFrame(deps.config),
  });
  await app.register(swaggerUi, docsPage);
  await app.register(authPlugin, { deps });
  await app.register(requestLogPlugin, { writer: requestLog });
  await app.register(idempotencyPlugin, { deps });
  await app.register(adminAuditPlugin, { deps });

  // Every HTTP surface, each one plugin that declares its routes (http/surface.ts).
  const surfaceOpts: SurfaceOptions = { deps, requestLog, registry };
  for (const surface of SURFACES) await app.register(surface, surfaceOpts);

  app.addHook('onClose', async () => requestLog.close());
  await app.ready();
  return { app: app as unknown as FastifyInstance, requestLog, routes };
}
