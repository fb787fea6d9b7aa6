// The receipt check page, GET /fiscal/check?i=&f=&s=&t= (decisions 27): where the sandbox register's check
// URLs point, as a fiscal data operator's do for a real register. Public like the payer page (no
// credential, the checkout's per-address rate bucket, its security headers and CSP); the four parameters
// are the credential, and a receipt is shown only when all four are its own. Any other answer is the same
// 404 page, which never says which parameter was wrong. Errors (too many requests) render as pages.
import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { publicMerchant } from '../../domain/branding/branding.ts';
import { findCheckReceipt, type CheckPageReceipt } from '../../domain/fiscal/check-page.ts';
import { renderCheckPage, type CheckReceiptView } from '../../web/check-page.ts';
import { pickLang } from '../../web/i18n.ts';
import { payerMessageTexts, renderPayerMessage } from '../../web/payer-page.ts';
import { qrSvg } from '../../web/qr-svg.ts';
import { toAppError } from '../plugins/errors.ts';
import { route, type App } from '../route.ts';
import { sendHtml } from './html.ts';

// Plain strings without limits here: a malformed or missing value is "not found" (404 page), never a 400
// that would tell which one was wrong.
const CheckQuery = Type.Object({
  i: Type.Optional(Type.String({ description: 'the fiscal sign' })),
  f: Type.Optional(Type.String({ description: "the register's registration number (РНМ)" })),
  s: Type.Optional(Type.String({ description: 'the total with two decimals: 2500.00' })),
  t: Type.Optional(Type.String({ description: 'the local time (UTC+5) as yyyyMMddTHHmmss' })),
  lang: Type.Optional(Type.String({ description: 'ru (default), kk or en; else Accept-Language' })),
});

async function view(deps: Deps, r: CheckPageReceipt, selfUrl: string): Promise<CheckReceiptView> {
  const merchant = await publicMerchant(deps, r.client_id);
  return {
    kind: r.kind,
    merchantName: merchant.display_name,
    seller: {
      legalName: r.seller.legal_name,
      orgType: r.seller.org_type,
      bin: r.seller.bin,
      address: r.seller.address,
    },
    uniqueNumber: r.unique_number,
    registrationNumber: r.registration_number,
    shiftNumber: r.shift_number,
    numberInShift: r.number_in_shift,
    issuedAt: r.issued_at,
    paymentType: r.payment_type,
    lines: r.lines.map((l) => ({
      name: l.name,
      quantity: l.quantity,
      price: l.price,
      total: l.total,
      vatTiyn: l.vat_tiyn,
      vatRateBps: l.vat_rate_bps,
    })),
    total: r.total,
    vatTiyn: r.vat_tiyn,
    fiscalSign: r.fiscal_sign,
    ofdName: r.ofd_name,
    qrSvg: await qrSvg(selfUrl),
  };
}

export function checkPageRoutes(app: App, deps: Deps): void {
  app.register(async (sub: FastifyInstance) => {
    sub.setErrorHandler((err, req, reply) => {
      const appErr = toAppError(err as Error) ?? new AppError('internal_error');
      if (appErr.code === 'internal_error') req.log.error({ err }, 'unhandled check page error');
      if (appErr.headers) reply.headers(appErr.headers);
      const lang = pickLang((req.query as { lang?: unknown } | undefined)?.lang, req.headers['accept-language']);
      const texts = payerMessageTexts(lang, 'payment', appErr.code);
      return sendHtml(reply, appErr.status, renderPayerMessage({ lang, ...texts }));
    });
    route(sub as unknown as App, {
      method: 'GET',
      url: '/fiscal/check',
      auth: [],
      rateBucket: 'checkout_get',
      errors: [],
      schema: {
        tags: ['checkout (public)'],
        summary: "A test-mode receipt's check page (HTML), where the sandbox register's check_url points",
        description:
          'Shows the receipt as a fiscal data operator would (seller, register, shift, lines, VAT, total, ' +
          'fiscal sign, a QR of the page), marked TEST. All four parameters must be the receipt’s own; ' +
          'anything else is the same 404 page.',
        querystring: CheckQuery,
        response: {
          200: Type.String({ description: 'the receipt (text/html)' }),
          404: Type.String({ description: 'no such receipt (text/html)' }),
        },
      },
      handler: async (req, reply) => {
        const lang = pickLang(req.query.lang, req.headers['accept-language']);
        const q = { i: req.query.i ?? '', f: req.query.f ?? '', s: req.query.s ?? '', t: req.query.t ?? '' };
        const query = new URLSearchParams(q).toString();
        const found = await findCheckReceipt(deps, q);
        const receipt = found ? await view(deps, found, `${deps.config.publicBaseUrl}/fiscal/check?${query}`) : null;
        return sendHtml(reply, receipt ? 200 : 404, renderCheckPage({ lang, query, receipt }));
      },
    });
  });
}
