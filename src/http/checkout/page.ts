// The hosted checkout page GET /checkout/{token} and its plain HTML forms (e-mail, new QR, simulated
// payment), which answer 303 back to the page (post/redirect/get), so everything works without
// JavaScript. Registered in their own encapsulated context: only here are url-encoded form bodies
// parsed, and errors render as pages instead of JSON envelopes.
import { Type } from 'typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { publicMerchant, type PublicMerchant } from '../../domain/branding/branding.ts';
import {
  openCheckout,
  ownOperation,
  refusal,
  setVisitorEmail,
  simulateCheckoutPayment,
  visitorOperation,
} from '../../domain/links/checkout.ts';
import { findPublicLink, type Link } from '../../domain/links/links.ts';
import type { ShownQr } from '../../domain/links/qr.ts';
import { qrSvg } from '../../web/qr-svg.ts';
import { isPaid } from '../../domain/payments/state.ts';
import type { Operation } from '../../domain/payments/operations.ts';
import { pickLang, type Lang } from '../../web/i18n.ts';
import { renderPage, type PageState } from '../../web/page.ts';
import { toAppError } from '../plugins/errors.ts';
import { issuedCheckUrl } from '../../domain/fiscal/receipts.ts';
import { route, type App } from '../route.ts';
import { asAppError, linkView, merchantView, sendErrorPage, sendHtml } from './html.ts';
import { visitorOf } from './visitor.ts';
import { acceptForms, crossSiteOf, formOf, type Form } from './forms.ts';

const Params = Type.Object({ token: Type.String() });
const PageQuery = Type.Object({
  lang: Type.Optional(Type.String()),
  op: Type.Optional(Type.String({ maxLength: 64 })),
});

export function checkoutPageRoutes(app: App, deps: Deps): void {
  app.register(async (sub: FastifyInstance) => {
    acceptForms(sub);
    sub.setErrorHandler((err, req, reply) => {
      const appErr = toAppError(err as Error) ?? new AppError('internal_error');
      if (appErr.status >= 500 && appErr.code === 'internal_error')
        req.log.error({ err }, 'unhandled checkout page error');
      return sendErrorPage(reply, appErr, { lang: langOf(req), token: tokenOf(req) });
    });
    pageRoutes(sub as unknown as App, deps);
  });
}

function langOf(req: FastifyRequest): Lang {
  const q = (req.query as Form | undefined)?.lang ?? formOf(req.body).lang;
  return pickLang(q, req.headers['accept-language']);
}

const tokenOf = (req: FastifyRequest) => {
  const t = (req.params as Form | undefined)?.token;
  return t && /^[0-9A-Za-z]{22,64}$/.test(t) ? t : undefined;
};

/** Link-preview fetchers of the messengers and social networks payers share links through. */
const PREVIEW_BOTS = new RegExp(
  [
    'TelegramBot',
    'WhatsApp',
    'facebookexternalhit',
    'Facebot',
    'Twitterbot',
    'Slackbot',
    'Discordbot',
    'vkShare',
    'SkypeUriPreview',
    'LinkedInBot',
    'Viber',
    'redditbot',
    'Applebot',
  ].join('|'),
  'i',
);
export const isPreviewBot = (ua: string | undefined) => Boolean(ua && PREVIEW_BOTS.test(ua));

const pagePath = (token: string, lang: Lang, op?: string) =>
  `/checkout/${token}?lang=${lang}${op ? `&op=${encodeURIComponent(op)}` : ''}`;

function pageRoutes(app: App, deps: Deps): void {
  const hide = { hide: true, tags: ['checkout (public)'] };
  const visitor = (req: FastifyRequest, reply: FastifyReply) => visitorOf(req, reply, deps.config.publicBaseUrl);
  const crossSite = crossSiteOf(deps.config.publicBaseUrl);

  async function render(
    reply: FastifyReply,
    status: number,
    lang: Lang,
    link: Link,
    state: PageState,
    known?: PublicMerchant,
  ) {
    const merchant = known ?? (await publicMerchant(deps, link.client_id));
    const html = renderPage({
      lang,
      now: deps.clock.now(),
      token: link.token,
      link: linkView(link),
      merchant: merchantView(merchant),
      state,
    });
    return sendHtml(reply, status, html);
  }

  /** Errors of a known link: its message page with the merchant's branding. */
  async function failPage(reply: FastifyReply, err: unknown, lang: Lang, link: Link) {
    const appErr = asAppError(err);
    if (!appErr) throw err;
    return sendErrorPage(reply, appErr, {
      lang,
      token: link.token,
      link,
      merchant: await publicMerchant(deps, link.client_id),
    });
  }

  // The "open in the app" button opens what the QR encodes, and only when that is a link (the sandbox's
  // page; the live provider's token is digits): a live deep_link is Tolem's payer page, this QR again.
  const qrState = async (op: ShownQr): Promise<PageState> => ({
    kind: 'qr',
    operationId: op.id,
    svg: await qrSvg(op.qr_token!),
    deepLink: /^https?:\/\//i.test(op.qr_token!) ? op.qr_token! : '',
    expiresAt: op.expires_at,
  });

  /**
   * A payment this visitor has just made: ?op= (after the form simulate), or its own QR of a paid link.
   * Only the visitor's own: the receipt sends the payer on to the success_url, which must not become a
   * redirect anyone can trigger with a shared ?op= (a test-mode link pays for free).
   */
  async function justPaid(link: Link, visitorId: string, opId: string | undefined): Promise<Operation | null> {
    if (opId) {
      const op = await ownOperation(deps, link, visitorId, opId);
      if (op && isPaid(op.status)) return op;
    }
    if (link.status !== 'paid') return null;
    const own = await visitorOperation(deps, link, visitorId);
    return own && isPaid(own.status) ? own : null;
  }

  /** The paid panel of the visitor's own payment, with its receipt's check page once issued. */
  const paidState = async (opId: string): Promise<PageState> => ({
    kind: 'paid',
    operationId: opId,
    checkUrl: await issuedCheckUrl(deps.db, opId),
  });

  route(app, {
    method: 'GET',
    url: '/checkout/:token',
    auth: [],
    rateBucket: 'checkout_get',
    errors: [404, 409, 503],
    schema: { ...hide, summary: 'The hosted checkout page (HTML)', params: Params, querystring: PageQuery },
    handler: async (req, reply) => {
      const lang = pickLang(req.query.lang, req.headers['accept-language']);
      const visitorId = visitor(req, reply);
      const link = await findPublicLink(deps.db, req.params.token);
      const paid = await justPaid(link, visitorId, req.query.op);
      if (paid) return render(reply, 200, lang, link, await paidState(paid.id));
      const refused = refusal(link);
      if (refused) return failPage(reply, refused, lang, link);
      // A messenger fetching a link preview (or a HEAD) must not create a payment with the provider.
      if (req.method === 'HEAD' || isPreviewBot(req.headers['user-agent']))
        return render(reply, 200, lang, link, { kind: 'preview' });
      try {
        const s = await openCheckout(deps, link.token, visitorId);
        return render(reply, 200, lang, s.link, s.op ? await qrState(s.op) : { kind: 'email' }, s.merchant);
      } catch (err) {
        // Paid just now, learned while opening: if it was this visitor's QR, theirs is the receipt.
        if (asAppError(err)?.code === 'payment_link_already_paid') {
          const now = await findPublicLink(deps.db, link.token);
          const own = await justPaid(now, visitorId, undefined);
          if (own) return render(reply, 200, lang, now, await paidState(own.id));
        }
        return failPage(reply, err, lang, link);
      }
    },
  });

  /**
   * A form post of the page: `action` on the link, then 303 back to the page (post/redirect/get), with
   * `?op=` when the action names an operation; a failure renders the link's message page unless `rescue` answers.
   */
  async function formPost(
    req: FastifyRequest<{ Params: { token: string } }>,
    reply: FastifyReply,
    action: (link: Link, form: Form, visitorId: string) => Promise<string | void>,
    rescue?: (err: unknown, link: Link, lang: Lang, form: Form) => Promise<unknown> | undefined,
  ) {
    const form = formOf(req.body);
    const lang = langOf(req);
    if (crossSite(req)) {
      return sendErrorPage(reply, new AppError('cross_site_request', 'this form can only be sent from its own page'), {
        lang,
        token: req.params.token,
      });
    }
    const link = await findPublicLink(deps.db, req.params.token);
    let opId: string | void;
    try {
      opId = await action(link, form, visitor(req, reply));
    } catch (err) {
      return (await rescue?.(err, link, lang, form)) ?? failPage(reply, err, lang, link);
    }
    return reply.redirect(pagePath(link.token, lang, opId || undefined), 303);
  }

  route(app, {
    method: 'POST',
    url: '/checkout/:token/email',
    auth: [],
    rateBucket: 'checkout_email',
    errors: [404, 409, 503],
    schema: { ...hide, summary: 'E-mail step of the page (form post)', params: Params },
    handler: (req, reply) =>
      formPost(
        req,
        reply,
        async (link, form, visitorId) => void (await setVisitorEmail(deps, link.token, visitorId, form.email ?? '')),
        (err, link, lang, form) =>
          err instanceof AppError && err.code === 'bad_email'
            ? render(reply, 400, lang, link, { kind: 'email', error: true, value: (form.email ?? '').slice(0, 254) })
            : undefined,
      ),
  });

  route(app, {
    method: 'POST',
    url: '/checkout/:token/refresh',
    auth: [],
    rateBucket: 'checkout_refresh',
    errors: [404, 409, 503],
    schema: { ...hide, summary: 'A new QR (form post)', params: Params },
    handler: (req, reply) =>
      formPost(
        req,
        reply,
        async (link, _form, visitorId) => void (await openCheckout(deps, link.token, visitorId, { fresh: true })),
      ),
  });

  route(app, {
    method: 'POST',
    url: '/checkout/:token/simulate',
    auth: [],
    rateBucket: 'checkout_refresh',
    errors: [403, 404, 409],
    schema: { ...hide, summary: 'Test-mode links: simulated payment (form post)', params: Params },
    handler: (req, reply) =>
      formPost(
        req,
        reply,
        async (link, form, visitorId) =>
          (await simulateCheckoutPayment(deps, link.token, visitorId, form.operation_id || undefined)).operation_id,
      ),
  });
}
