// The payer page of one operation, GET /pay/{op_id} (the `deep_link` of live operations, decisions 26),
// the return-QR page of an r2 refund, GET /pay/{op_id}/refunds/{refund_id}, their status endpoints for
// the page's polling, and the page's two static files. Public like the checkout (no credential, its rate
// buckets, its security headers and CSP): the address is the payer's link, so any client's operation is
// found by its id, and the page shows only what a payer needs (payer-view.ts selects nothing else).
// The pages live in their own encapsulated context, where errors render as pages; the status endpoints
// answer the JSON error envelope.
import { Type } from 'typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { publicMerchant } from '../../domain/branding/branding.ts';
import {
  findPayerPayment,
  findPayerRefund,
  payerPaymentStatus,
  payerRefundStatus,
  type PayerPayment,
  type PayerRefund,
} from '../../domain/payments/payer-view.ts';
import { isPaid, STATUSES, type OperationStatus } from '../../domain/payments/state.ts';
import { issuedCheckUrl } from '../../domain/fiscal/receipts.ts';
import { pickLang, type Lang } from '../../web/i18n.ts';
import { PAYER_CSS, PAYER_JS } from '../../web/payer-assets.ts';
import { payerMessageTexts, renderPayerMessage, renderPayerPage } from '../../web/payer-page.ts';
import { qrSvg } from '../../web/qr-svg.ts';
import { toAppError } from '../plugins/errors.ts';
import { route, type App } from '../route.ts';
import { staticFileRoutes } from './assets.ts';
import { NullableTimestamp, Nullable, Timestamp } from '../schemas.ts';
import { merchantView, sendHtml } from './html.ts';

// Ids stay plain text here: a malformed one is simply not found (404), like an unknown one.
const OpParams = Type.Object({ op_id: Type.String({ description: 'op_<ULID>: the operation of the page' }) });
const RefundParams = Type.Object({
  op_id: Type.String({ description: 'op_<ULID>: the refunded operation' }),
  refund_id: Type.String({ description: 'rf_<ULID>: a refund of that operation with a return QR (r2)' }),
});
const LangQuery = Type.Object({
  lang: Type.Optional(Type.String({ description: 'ru (default), kk or en; else Accept-Language' })),
});

export const PayerStatus = Type.Object(
  {
    status: Type.String({
      enum: [...STATUSES],
      description: "the operation's status; `created` while it waits for the payer",
    }),
    paid_at: NullableTimestamp,
    expires_at: Timestamp,
    check_url: Nullable(
      Type.String({ description: "the check page of the payment's fiscal receipt once issued (decisions 27)" }),
    ),
  },
  { title: 'PayerStatus' },
);

export const PayerRefundStatus = Type.Object(
  {
    status: Type.String({
      enum: ['pending', 'completed', 'failed'],
      description: "`pending` while the return QR waits for the payer's scan",
    }),
    return_status: Nullable(Type.String({ description: "the provider's step of the return, as last seen" })),
    expires_at: NullableTimestamp,
  },
  { title: 'PayerRefundStatus' },
);

export function payerRoutes(app: App, deps: Deps): void {
  payerAssetRoutes(app);
  payerStatusRoutes(app, deps);
  app.register(async (sub: FastifyInstance) => {
    sub.setErrorHandler((err, req, reply) => {
      const appErr = toAppError(err as Error) ?? new AppError('internal_error');
      if (appErr.code === 'internal_error') req.log.error({ err }, 'unhandled payer page error');
      if (appErr.headers) reply.headers(appErr.headers);
      const lang = pickLang((req.query as { lang?: unknown } | undefined)?.lang, req.headers['accept-language']);
      const what = (req.params as { refund_id?: string } | undefined)?.refund_id !== undefined ? 'refund' : 'payment';
      return sendHtml(
        reply,
        appErr.status,
        renderPayerMessage({ lang, ...payerMessageTexts(lang, what, appErr.code) }),
      );
    });
    payerPageRoutes(sub as unknown as App, deps);
  });
}

function payerPageRoutes(app: App, deps: Deps): void {
  const hide = { hide: true, tags: ['checkout (public)'] };
  const langOf = (req: FastifyRequest<{ Querystring: { lang?: string } }>): Lang =>
    pickLang(req.query.lang, req.headers['accept-language']);
  const merchantOf = async (clientId: number) => merchantView(await publicMerchant(deps, clientId));

  const checkUrlOf = (opId: string, status: string) => receiptCheckUrl(deps, opId, status);

  async function paymentPage(reply: FastifyReply, lang: Lang, op: PayerPayment) {
    const html = renderPayerPage({
      lang,
      now: deps.clock.now(),
      merchant: await merchantOf(op.client_id),
      subject: {
        kind: 'payment',
        opId: op.id,
        test: op.mode === 'test',
        amount: op.amount,
        comment: op.comment,
        status: op.status,
        // A settled payment's QR is not shown: nothing could be paid with it any more.
        qrToken: op.qr_token,
        svg: op.status === 'created' ? await qrSvg(op.qr_token) : null,
        expiresAt: op.expires_at,
        checkUrl: await checkUrlOf(op.id, op.status),
      },
    });
    return sendHtml(reply, 200, html);
  }

  async function refundPage(reply: FastifyReply, lang: Lang, rf: PayerRefund) {
    const html = renderPayerPage({
      lang,
      now: deps.clock.now(),
      merchant: await merchantOf(rf.client_id),
      subject: {
        kind: 'refund',
        opId: rf.operation_id,
        refundId: rf.id,
        test: rf.mode === 'test',
        amount: rf.amount,
        paymentAmount: rf.payment_amount,
        status: rf.status,
        qrToken: rf.return_qr_token,
        svg: rf.status === 'pending' ? await qrSvg(rf.return_qr_token) : null,
        expiresAt: rf.return_expires_at,
      },
    });
    return sendHtml(reply, 200, html);
  }

  route(app, {
    method: 'GET',
    url: '/pay/:op_id',
    auth: [],
    rateBucket: 'checkout_get',
    errors: [404],
    schema: {
      ...hide,
      summary: 'The payer page of a payment with a QR (HTML): branding, amount, the QR, live status',
      params: OpParams,
      querystring: LangQuery,
    },
    handler: async (req, reply) => paymentPage(reply, langOf(req), await findPayerPayment(deps.db, req.params.op_id)),
  });

  route(app, {
    method: 'GET',
    url: '/pay/:op_id/refunds/:refund_id',
    auth: [],
    rateBucket: 'checkout_get',
    errors: [404],
    schema: {
      ...hide,
      summary: 'The return QR of a refund (r2, HTML): the payer scans it to receive the money',
      params: RefundParams,
      querystring: LangQuery,
    },
    handler: async (req, reply) =>
      refundPage(reply, langOf(req), await findPayerRefund(deps.db, req.params.op_id, req.params.refund_id)),
  });
}

/**
 * The payment's fiscal receipt check page once issued, read here because payments never import fiscal
 * (its folder sits above them): a payment not paid has none to look for.
 */
function receiptCheckUrl(deps: Deps, opId: string, status: string): Promise<string | null> {
  return isPaid(status as OperationStatus) ? issuedCheckUrl(deps.db, opId) : Promise.resolve(null);
}

function payerStatusRoutes(app: App, deps: Deps): void {
  const tags = ['checkout (public)'];

  route(app, {
    method: 'GET',
    url: '/pay/:op_id/status',
    auth: [],
    rateBucket: 'checkout_status',
    errors: [404],
    schema: {
      tags,
      summary: "Status of a payment with a QR, for its payer page's polling (every 3 s); never cached",
      params: OpParams,
      response: { 200: PayerStatus },
    },
    handler: async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const s = await payerPaymentStatus(deps.db, req.params.op_id);
      return Object.assign(s, { check_url: await receiptCheckUrl(deps, req.params.op_id, s.status) });
    },
  });

  route(app, {
    method: 'GET',
    url: '/pay/:op_id/refunds/:refund_id/status',
    auth: [],
    rateBucket: 'checkout_status',
    errors: [404],
    schema: {
      tags,
      summary: "Status of a refund's return QR (r2), for its page's polling (every 3 s); never cached",
      params: RefundParams,
      response: { 200: PayerRefundStatus },
    },
    handler: async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return payerRefundStatus(deps.db, req.params.op_id, req.params.refund_id);
    },
  });
}

/** The page's script and styles, from our own origin (CSP 'self'); versioned URLs, cached for a day. */
function payerAssetRoutes(app: App): void {
  staticFileRoutes(app, [
    ['/pay/assets/payer.js', 'application/javascript; charset=utf-8', PAYER_JS],
    ['/pay/assets/payer.css', 'text/css; charset=utf-8', PAYER_CSS],
  ]);
}
