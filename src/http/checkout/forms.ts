// What the public pages' HTML forms share: parsing a posted form, and refusing a post another site made
// the visitor's browser send (CSRF).
import type { FastifyInstance, FastifyRequest } from 'fastify';

export type Form = Record<string, string | undefined>;

/** Form posts (application/x-www-form-urlencoded, at most 4 KiB) in this context, besides JSON. */
export function acceptForms(sub: FastifyInstance): void {
  sub.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
}

/**
 * A form post that another site made the payer's browser send (CSRF: it could tie the payer's payment to
 * someone else's e-mail, or drop their QR). Browsers say where a post comes from in Sec-Fetch-Site; older
 * ones only in Origin, compared with PUBLIC_BASE_URL.
 */
export function crossSiteOf(publicBaseUrl: string) {
  const own = new URL(publicBaseUrl).origin;
  return (req: FastifyRequest): boolean => {
    const site = req.headers['sec-fetch-site'];
    if (typeof site === 'string') return site !== 'same-origin' && site !== 'none';
    // The page's own posts carry its origin (Referrer-Policy same-origin); `null` comes from sandboxed
    // frames, data: documents and no-referrer pages elsewhere: not ours. No Origin at all is not a
    // browser's cross-site post (a script or a server posting the form itself).
    const origin = req.headers.origin;
    return typeof origin === 'string' && origin !== own;
  };
}

/** The text fields of a posted form. The routes also parse JSON; anything but a string is no answer. */
export const formOf = (body: unknown): Form =>
  body && typeof body === 'object' && !Array.isArray(body)
    ? Object.fromEntries(Object.entries(body).filter(([, v]) => typeof v === 'string'))
    : {};
