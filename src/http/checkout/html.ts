// Sending the checkout page: security headers for a public page that shows merchant content, and the
// page forms of errors (a payer's browser should never land on a JSON envelope).
import type { FastifyReply } from 'fastify';
import { AppError } from '../../errors.ts';
import type { Link } from '../../domain/links/links.ts';
import type { Branding } from '../../domain/branding/branding.ts';
import type { Lang, Texts } from '../../web/i18n.ts';
import { renderPage, type LinkView, type MerchantView, type PageState } from '../../web/page.ts';

/** No inline script or style at all; the QR is inline SVG markup, which CSP does not restrict. */
export const CHECKOUT_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: data:; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  return (
    reply
      .status(status)
      .header('Content-Security-Policy', CHECKOUT_CSP)
      .header('X-Content-Type-Options', 'nosniff')
      .header('X-Frame-Options', 'DENY')
      // The checkout address is a bearer of the link: it must not leak to the logo host or the shop, so no
      // other origin gets a referrer. Our own form posts do, and so carry a real Origin (not `null`), which
      // the CSRF check of browsers without Sec-Fetch-Site relies on.
      .header('Referrer-Policy', 'same-origin')
      // The page carries this visitor's QR.
      .header('Cache-Control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(html)
  );
}

export const linkView = (link: Link): LinkView => ({
  token: link.token,
  amount: link.amount,
  description: link.description,
  success_url: link.success_url,
  cancel_url: link.cancel_url,
  allow_repeat: link.allow_repeat,
  test: link.mode === 'test',
});

export const merchantView = (m: Branding & { display_name: string }): MerchantView => ({
  display_name: m.display_name,
  logo_url: m.logo_url,
  brand_color: m.brand_color,
  support_email: m.support_email,
});

const MESSAGES: Record<string, [keyof Texts, keyof Texts]> = {
  payment_link_not_found: ['notFoundTitle', 'notFoundText'],
  payment_link_not_active: ['inactiveTitle', 'inactiveText'],
  payment_link_already_paid: ['alreadyPaidTitle', 'alreadyPaidText'],
  rate_limit_exceeded: ['tooManyTitle', 'tooManyText'],
  payment_unavailable: ['unavailableTitle', 'unavailableText'],
};

/** The message page of an error, with the merchant and link when known. */
export function sendErrorPage(
  reply: FastifyReply,
  err: AppError,
  ctx: { lang: Lang; token?: string; link?: Link; merchant?: Branding & { display_name: string } },
): FastifyReply {
  const [title, text] = MESSAGES[err.code] ?? ['errorTitle', 'errorText'];
  const state: PageState = { kind: 'message', title, text };
  if (err.headers) reply.headers(err.headers);
  const html = renderPage({
    lang: ctx.lang,
    now: new Date(),
    token: ctx.token,
    link: ctx.link ? linkView(ctx.link) : undefined,
    merchant: ctx.merchant ? merchantView(ctx.merchant) : undefined,
    state,
  });
  return sendHtml(reply, err.status, html);
}

export const asAppError = (err: unknown): AppError | null => (err instanceof AppError ? err : null);
