// Static files of the checkout page, from our own origin (the page's CSP allows scripts and styles only
// from 'self'). URLs carry a content hash (?v=), so they may be cached for a day.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { CHECKOUT_CSS, CHECKOUT_JS, themeCss } from '../../web/assets.ts';
import { route, type App } from '../route.ts';

/** Files served as they are: [url, content type, content]; versioned URLs, so cached for a day. */
export type StaticFile = [url: string, type: string, content: string];

export function staticFileRoutes(app: App, files: StaticFile[]): void {
  const schema = { hide: true, tags: ['checkout (public)'] };
  for (const [url, type, content] of files) {
    route(app, {
      method: 'GET',
      url,
      auth: [],
      schema: { ...schema, summary: url, response: { 200: Type.String() } },
      handler: async (_req, reply) => {
        reply.type(type).header('Cache-Control', 'public, max-age=86400').header('X-Content-Type-Options', 'nosniff');
        return content;
      },
    });
  }
}

export function checkoutAssetRoutes(app: App, _deps: Deps): void {
  const schema = { hide: true, tags: ['checkout (public)'] };
  staticFileRoutes(app, [
    ['/checkout/assets/checkout.js', 'application/javascript; charset=utf-8', CHECKOUT_JS],
    ['/checkout/assets/checkout.css', 'text/css; charset=utf-8', CHECKOUT_CSS],
  ]);
  route(app, {
    method: 'GET',
    url: '/checkout/assets/theme.css',
    auth: [],
    schema: {
      ...schema,
      summary: 'brand colour as CSS variables',
      querystring: Type.Object({ c: Type.Optional(Type.String({ maxLength: 6 })) }),
      response: { 200: Type.String() },
    },
    handler: async (req, reply) => {
      reply
        .type('text/css; charset=utf-8')
        .header('Cache-Control', 'public, max-age=86400')
        .header('X-Content-Type-Options', 'nosniff');
      return themeCss(req.query.c);
    },
  });
}
