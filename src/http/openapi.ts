// The OpenAPI document's frame (info with a getting-started text, servers, security schemes) and the /docs
// page around it. The operations come from the route declarations (route.ts).
import type { SwaggerOptions } from '@fastify/swagger';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import type { Config } from '../config.ts';
import { webhookEventsDoc } from './shapes/webhook-events.ts';

const GETTING_STARTED = `Payment acceptance for merchants in Kazakhstan. Amounts are integer tenge.

**Getting started**
1. \`POST /auth/register {name, email, password}\` answers a token pair and your two API keys, shown once:
   \`kp_test_…\` (the built-in sandbox: no money moves) and \`kp_live_…\`.
2. Send the key as \`X-API-Key\` (use **Authorize** above). Creating calls take an \`Idempotency-Key\` header
   (a UUID): sending it again replays the first answer instead of paying twice.
3. \`POST /v2/qr {amount}\` with the test key, then \`POST /v2/test/payments/{op_id}/pay\` acts as the payer;
   \`GET /v2/qr/{op_id}\` shows it paid, and \`GET /v2/events\` the journal.
4. Cabinet routes (\`/me/…\`) take \`Authorization: Bearer <access token>\`, and \`?mode=test\` for test mode.

Errors are one envelope: \`{error: {type, code, message, request_id, param?, category}}\`. Each operation
names its permission (\`x-permission\`) and the team roles it is granted to (\`x-roles\`).`;

/** A small wordmark instead of the framework's logo on /docs. */
const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="32" viewBox="0 0 120 32" ' +
  'role="img" aria-label="Tolem">\n' +
  '<rect width="32" height="32" rx="8" fill="#0b7a5c"/><path d="M9 10h14v3h-5.5v12h-3V13H9z" fill="#fff"/>\n' +
  '<text x="40" y="23" font-family="system-ui, sans-serif" font-size="20" font-weight="700" fill="#fff">' +
  'Tolem</text></svg>';

type OpenApiFrame = NonNullable<Extract<SwaggerOptions, { openapi?: unknown }>['openapi']>;

export function openapiFrame(config: Config): OpenApiFrame {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tolem API',
      version: '2.0.0',
      description: GETTING_STARTED,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // Relative: "Try it out" calls the host the page was opened from (127.0.0.1, a proxy's name), not a
    // configured one; a PUBLIC_BASE_URL with a path (behind a prefixing proxy) keeps that path.
    servers: [{ url: new URL(config.publicBaseUrl).pathname.replace(/\/+$/, '') || '/', description: 'this server' }],
    // OpenAPI 3.1: what Tolem sends to a subscribed URL, one entry an event type.
    // (typed loosely by @fastify/swagger's options; the shapes are TypeBox schemas, pinned by a test)
    webhooks: webhookEventsDoc() as never,
    components: {
      securitySchemes: {
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'kp_live_… or kp_test_…; the prefix selects the mode',
        },
        BearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'access token from /auth/login (RS256, 15 min)',
        },
        PartnerKey: { type: 'apiKey', in: 'header', name: 'X-Partner-API-Key', description: 'pk_live_… or pk_test_…' },
        // Only where the deployment sets METRICS_TOKEN: /metrics is open otherwise.
        ...(config.metricsToken
          ? {
              MetricsToken: {
                type: 'http',
                scheme: 'bearer',
                description: 'METRICS_TOKEN of the deployment (/metrics only)',
              },
            }
          : {}),
      },
    },
  };
}

export const docsPage: FastifySwaggerUiOptions = {
  routePrefix: '/docs',
  logo: { type: 'image/svg+xml', content: Buffer.from(LOGO), href: '/docs', target: '_self' },
  theme: { title: 'Tolem API' },
};
