// GET /v2/payment-links/{token}/poster.pdf (decisions 28): the printable poster of a link with allow_repeat, in
// A4 (default), A5 or A6. API key, or JWT with ?mode=test like the other link routes; links.read.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { linkPoster } from '../../domain/links/poster.ts';
import { POSTER_SIZES, renderPoster, type PosterSize } from '../../web/poster-pdf.ts';
import { tenant } from '../context.ts';
import { ModeQuery, TokenParams } from '../params.ts';
import { route, type App } from '../route.ts';

export function v2LinkPosterRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'GET',
    url: '/v2/payment-links/:token/poster.pdf',
    auth: ['api_key', 'jwt'],
    permission: 'links.read',
    errors: [403, 404, 409],
    schema: {
      tags: ['payment links'],
      summary:
        "A printable poster of a link with allow_repeat: the merchant's branding, the QR of the link's checkout " +
        'page, the amount and the description (409 payment_link_not_repeatable for a one-payment link)',
      params: TokenParams,
      querystring: Type.Object({
        ...ModeQuery,
        size: Type.Optional(
          Type.String({ enum: Object.keys(POSTER_SIZES), description: 'paper size: a4 (default), a5 or a6' }),
        ),
      }),
      response: {
        200: {
          description: 'the poster, one page',
          content: { 'application/pdf': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } },
        },
      },
    },
    handler: async (req, reply) => {
      // The schema's enum has checked the size.
      const size = (req.query.size ?? 'a4') as PosterSize;
      const poster = await linkPoster(deps, tenant(req), req.params.token);
      reply
        .type('application/pdf')
        .header('Content-Disposition', `inline; filename="poster-${req.params.token}-${size}.pdf"`);
      return reply.send(await renderPoster({ ...poster, size }));
    },
  });
}
