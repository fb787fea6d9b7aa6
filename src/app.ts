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
import { requestLogPlugin, RequestLogWriter } from './http/plugins/request-log.ts';
import { llmsRoutes } from './http/system/llms.ts';
import { systemRoutes } from './http/system/routes.ts';
import { authRoutes } from './http/auth/routes.ts';
import { meRoutes } from './http/cabinet/me.ts';
import { webhookRoutes } from './http/cabinet/webhooks.ts';
import { notificationRoutes } from './http/cabinet/notifications.ts';
import { operationIdOf, type App, type DeclaredRoute, type RouteConfig } from './http/route.ts';
import { idempotencyPlugin } from './http/plugins/idempotency.ts';
import { v2PaymentRoutes } from './http/v2/payments.ts';
import { v2EventRoutes } from './http/v2/events.ts';
import { v2TestHelperRoutes } from './http/v2/test-helpers.ts';
import { cabinetPaymentRoutes } from './http/cabinet/payments.ts';
import { v2LinkRoutes } from './http/v2/links.ts';
import { checkoutApiRoutes } from './http/checkout/api.ts';
import { checkoutPageRoutes } from './http/checkout/page.ts';
import { checkoutAssetRoutes } from './http/checkout/assets.ts';
import { sandboxPayerRoutes } from './http/checkout/sandbox-payer.ts';
import { payerRoutes } from './http/checkout/payer.ts';
import { brandingRoutes } from './http/cabinet/branding.ts';
import { organizationRoutes } from './http/cabinet/organization.ts';
import { teamRoutes } from './http/cabinet/team.ts';
import { ticketRoutes } from './http/cabinet/tickets.ts';
import { integrationRoutes } from './http/cabinet/integrations.ts';
import { messengerWebhookRoutes } from './http/messenger/webhook.ts';
import { adminRoutes } from './http/admin/routes.ts';
import { onboardingRoutes } from './http/onboarding/routes.ts';
import { providerAccountRoutes } from './http/cabinet/provider-accounts.ts';
import { subscriptionRoutes } from './http/subscription/routes.ts';
import { partnerApiRoutes } from './http/partner/api.ts';
import { dashboardRoutes } from './http/dashboard/routes.ts';
import { partnerProfileRoutes } from './http/partner/profile.ts';
import { partnerClientRoutes } from './http/partner/clients.ts';
import { partnerLinkRoutes, referralRedirectRoutes } from './http/partner/links.ts';
import { partnerKeyRoutes } from './http/partner/keys.ts';
import { partnerBalanceRoutes } from './http/partner/balance.ts';
import { partnerAnalyticsRoutes } from './http/partner/analytics.ts';
import { partnerPayoutRoutes } from './http/partner/payouts.ts';
import { adminAuditPlugin } from './http/plugins/admin-audit.ts';
import { v1Routes } from './http/v1/plugin.ts';
import { docsPage, openapiFrame } from './http/openapi.ts';
import { finishDocument, type OpenApiDocument } from './http/openapi-document.ts';

const nextUlid = ulidSource();

export interface BuiltApp {
  app: FastifyInstance;
  requestLog: RequestLogWriter;
  /** every route declared with route(), as declared: the OpenAPI extensions and the route sweep read it */
  routes: DeclaredRoute[];
}

export async function buildApp(deps: Deps, opts: { logger?: boolean } = {}): Promise<BuiltApp> {
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: deps.config.logLevel,
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

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  systemRoutes(app, deps, registry);
  llmsRoutes(app, deps);
  authRoutes(app, deps);
  meRoutes(app, deps, requestLog);
  webhookRoutes(app, deps);
  notificationRoutes(app, deps);
  v2PaymentRoutes(app, deps);
  v2EventRoutes(app, deps);
  v2TestHelperRoutes(app, deps);
  cabinetPaymentRoutes(app, deps);
  v2LinkRoutes(app, deps);
  checkoutApiRoutes(app, deps);
  checkoutPageRoutes(app, deps);
  checkoutAssetRoutes(app, deps);
  sandboxPayerRoutes(app, deps);
  payerRoutes(app, deps);
  brandingRoutes(app, deps);
  organizationRoutes(app, deps);
  teamRoutes(app, deps);
  ticketRoutes(app, deps);
  integrationRoutes(app, deps);
  messengerWebhookRoutes(app, deps);
  adminRoutes(app, deps);
  onboardingRoutes(app, deps);
  providerAccountRoutes(app, deps);
  subscriptionRoutes(app, deps);
  partnerProfileRoutes(app, deps);
  partnerClientRoutes(app, deps);
  partnerLinkRoutes(app, deps);
  referralRedirectRoutes(app, deps);
  partnerKeyRoutes(app, deps);
  partnerBalanceRoutes(app, deps);
  partnerAnalyticsRoutes(app, deps);
  partnerPayoutRoutes(app, deps);
  partnerApiRoutes(app, deps);
  dashboardRoutes(app, deps);
  // v1 (deprecated) in its own encapsulated context: own error envelope, headers and sunset.
  v1Routes(app, deps);

  app.addHook('onClose', async () => requestLog.close());
  await app.ready();
  return { app: app as unknown as FastifyInstance, requestLog, routes };
}
