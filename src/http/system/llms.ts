// /llms.txt and /llms-full.txt (the llmstxt.org convention): what an AI coding assistant needs to write an
// integration, in plain text. /llms.txt is the short index; /llms-full.txt adds every operation of
// /openapi.json (method, path, summary, credentials), read from the document itself so it never drifts,
// built once at the first request.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { route, type App } from '../route.ts';

const GUIDE = `# Tolem

> Tolem is a self-hostable payment acceptance API for merchants in Kazakhstan: QR payments scanned in the
> provider's app, invoices pushed to a customer's phone, refunds, payment links with a hosted checkout,
> an event journal and signed webhooks. Amounts are integer tenge. JSON over HTTP.

## Rules that hold everywhere
- Credentials: \`X-API-Key: kp_test_…\` (test mode: the built-in sandbox, no money moves) or \`kp_live_…\`;
  the cabinet (/me/…) takes \`Authorization: Bearer <access token>\` from /auth/login (15 minutes; refresh
  with /auth/refresh), with \`?mode=test\` for test mode. Partners use \`X-Partner-API-Key\`.
- Creating calls (POST /v2/qr, /v2/invoices, /v2/refunds, …) need an \`Idempotency-Key\` header (a UUID):
  the same key with the same body answers the first answer again; another body is 409 idempotency_conflict.
  After a 502, retry with the same key and body.
- Errors: \`{"error": {"type", "code", "message", "param", "request_id"}}\` with a 4xx or 5xx status; act on
  \`code\` (e.g. invalid_parameter, payment_not_refundable, provider_error, session_expired).
- Lists: \`?limit=\` (at most 100) and \`?cursor=\` from \`next_cursor\`; \`has_more\` says whether to go on.
  A cursor belongs to the list and filters that made it.
- Statuses of a payment: created, paid, declined, expired, cancelled, partially_refunded, refunded.
- Times are ISO 8601 UTC with milliseconds.

## A first payment (test mode)
1. POST /auth/register {"name", "email", "password"} → access_token and api_keys.test (kp_test_…).
2. POST /v2/qr {"amount": 5000, "comment": "Order 42"} with X-API-Key and Idempotency-Key → operation_id,
   qr_token (what the QR image encodes), deep_link (a page that shows the payment), expires_at.
3. POST /v2/test/payments/{op_id}/pay (test keys only) → the sandbox customer pays it.
4. GET /v2/qr/{op_id} → status "paid"; GET /v2/payments lists payments, newest first.
5. POST /v2/refunds {"operation_id", "amount": 2000} → refund_id, status "completed" (or "pending": the
   provider has not settled it yet; on the provider's r2 scheme the payer scans return_qr_token first).
6. GET /v2/events → the journal: payment.completed, payment.refunded, …
7. POST /v2/payment-links {"amount", "description"} → url of a hosted checkout page.

## Webhooks
- Subscribe: POST /me/webhooks {"url": "https://…", "events": ["payment.completed", …]} (Bearer token;
  ?mode=test for test mode). The answer shows the secret (whsec_…) once.
- Events: payment.completed, payment.cancelled, payment.expired, payment.refunded, webhook.test. Body:
  {"id", "type", "created_at", "data"}.
- Each delivery is signed twice: Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature:
  verify with any Standard Webhooks library and the secret as is) and X-Webhook-Signature:
  sha256=<hex HMAC-SHA256 of "<X-Webhook-Timestamp>.<raw body>" keyed with the whole secret text>.
- Answer 2xx fast; anything else is retried with back-off (at least once: the same webhook-id may come
  again, handle it once). Refuse timestamps older than five minutes.
- Local development: \`tolem listen --forward-to http://localhost:3000/webhooks\` (the CLI) forwards test-mode
  events, signed the same way, to a URL on your machine; or run the server with WEBHOOKS_ALLOW_PRIVATE=true.

## More
- The whole API: /openapi.json (OpenAPI 3.1) and /docs.
- Every operation, with its credentials: /llms-full.txt.
- SDK: @tolem/sdk (typed client: createTolem({baseUrl, apiKey}); idempotent creates, retries, paginate,
  verifyWebhook). CLI: tolem.
`;

interface DocOperation {
  summary?: string;
  security?: Record<string, unknown>[];
  deprecated?: boolean;
}

/** The operations of the document: one line each, v2 and the cabinet first, v1 (deprecated) last. */
function operationIndex(doc: { paths?: Record<string, Record<string, DocOperation>> }): string {
  const lines: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(ops)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const creds = (op.security ?? []).flatMap((s) => Object.keys(s)).join(' or ') || 'public';
      lines.push(
        `- ${method.toUpperCase()} ${path}: ${op.summary ?? ''} [${creds}]${op.deprecated ? ' (deprecated)' : ''}`,
      );
    }
  }
  return lines.sort((a, b) => Number(a.includes('(deprecated)')) - Number(b.includes('(deprecated)'))).join('\n');
}

export function llmsRoutes(app: App, _deps: Deps): void {
  const text = {
    200: { description: 'plain text (llmstxt.org)', content: { 'text/plain': { schema: Type.String() } } },
  };
  let full: string | undefined;
  route(app, {
    method: 'GET',
    url: '/llms.txt',
    auth: [],
    schema: {
      tags: ['system'],
      summary: 'The API in plain text for AI coding assistants (llmstxt.org)',
      response: text,
    },
    handler: async (_req, reply) =>
      reply.type('text/plain; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(GUIDE),
  });
  route(app, {
    method: 'GET',
    url: '/llms-full.txt',
    auth: [],
    schema: { tags: ['system'], summary: '/llms.txt with every operation of /openapi.json', response: text },
    handler: async (_req, reply) => {
      full ??=
        `${GUIDE}\n## Every operation\n` +
        `${operationIndex((app as unknown as { swagger(): object }).swagger() as never)}\n`;
      return reply.type('text/plain; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(full);
    },
  });
}
