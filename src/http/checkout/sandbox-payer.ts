// The sandbox payer's page at the address a test QR carries (/sandbox/qr/{ref}, also its deep link): a
// person who scans a test QR with a phone lands here and pays, declines or lets it expire, through the
// same path as the test helpers. Public pages like the checkout's: plain forms answered 303 back to the
// page, the checkout's CSRF check and headers, errors as pages.
import { Type } from 'typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { publicMerchant } from '../../domain/branding/branding.ts';
import { actAsPayer, findSandboxPayment, type PayerAction } from '../../domain/payments/sandbox-payer.ts';
import { esc } from '../../web/format.ts';
import { renderSandboxPage } from '../../web/sandbox-page.ts';
import { toAppError } from '../plugins/errors.ts';
import { route, type App } from '../route.ts';
import { acceptForms, crossSiteOf } from './forms.ts';
import { sendHtml } from './html.ts';

const Params = Type.Object({
  ref: Type.String({ maxLength: 128, description: 'the sandbox reference a test QR carries' }),
});
const DONE: Record<PayerAction, string> = {
  pay: 'You paid. The shop learns it as from the provider (status, events, webhooks).',
  decline: 'You declined the payment.',
  expire: 'The payment was left to expire.',
};

function errorPage(reply: FastifyReply, err: AppError): FastifyReply {
  const title =
    err.status === 404
      ? 'No such test payment'
      : err.status === 409
        ? 'This payment is no longer waiting'
        : 'Something went wrong';
  return sendHtml(
    reply,
    err.status,
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
      '<meta name="viewport" content="width=device-width, initial-scale=1">' +
      `<title>${esc(title)}</title></head>` +
      `<body><main><h1>${esc(title)}</h1>` +
      `<p>${esc(err.status >= 500 ? 'Please try again.' : err.message)}</p></main></body></html>`,
  );
}

export function sandboxPayerRoutes(app: App, deps: Deps): void {
  const crossSite = crossSiteOf(deps.config.publicBaseUrl);
  app.register(async (sub: FastifyInstance) => {
    acceptForms(sub);
    sub.setErrorHandler((err, req, reply) => {
      const appErr = toAppError(err as Error) ?? new AppError('internal_error');
      if (appErr.code === 'internal_error') req.log.error({ err }, 'unhandled sandbox page error');
      return errorPage(reply, appErr);
    });
    const r = sub as unknown as App;
    const hide = { hide: true, tags: ['test mode'] };

    route(r, {
      method: 'GET',
      url: '/sandbox/qr/:ref',
      auth: [],
      rateBucket: 'checkout_get',
      errors: [404],
      schema: {
        ...hide,
        summary: "The sandbox payer's page of a test payment (HTML)",
        params: Params,
        querystring: Type.Object({ done: Type.Optional(Type.String()) }),
      },
      handler: async (req, reply) => {
        const op = await findSandboxPayment(deps, req.params.ref);
        const merchant = await publicMerchant(deps, op.client_id);
        const done = req.query.done as PayerAction | undefined;
        return sendHtml(
          reply,
          200,
          renderSandboxPage({
            ref: req.params.ref,
            merchant: merchant.display_name,
            amount: op.amount,
            comment: op.comment,
            type: op.type,
            status: op.status,
            notice: done && Object.hasOwn(DONE, done) ? DONE[done] : undefined,
          }),
        );
      },
    });

    for (const action of ['pay', 'decline', 'expire'] as const) {
      route(r, {
        method: 'POST',
        url: `/sandbox/qr/:ref/${action}`,
        auth: [],
        rateBucket: 'checkout_refresh',
        errors: [403, 404, 409],
        schema: { ...hide, summary: `Sandbox payer: ${action} (form post)`, params: Params },
        handler: async (req, reply) => {
          if (crossSite(req)) throw new AppError('cross_site_request', 'this form can only be sent from its own page');
          await actAsPayer(deps, req.params.ref, action);
          return reply
            .status(303)
            .header('Location', `/sandbox/qr/${encodeURIComponent(req.params.ref)}?done=${action}`)
            .send();
        },
      });
    }
  });
}
