// /dashboard: the web dashboard, a single-page app and a client of the public API (no endpoint of its own).
// Its files are served from memory; any other path under /dashboard/ is the app's own route and gets
// index.html. The CSP allows scripts of this origin only: the page holds the session's refresh token.
// Text files go out brotli- or gzip-compressed when the browser accepts it (the build's copies, see
// web/dashboard-files.ts), each representation with its own ETag; index.html, always revalidated, answers
// 304 to the ETag the browser holds.
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { loadDashboard } from '../../web/dashboard-files.ts';
import { route, type App } from '../route.ts';
import { pickEncoding } from './accept-encoding.ts';

export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

export function dashboardRoutes(app: App, _deps: Deps): void {
  const files = loadDashboard();
  const schema = { hide: true, tags: ['dashboard'], response: { 200: Type.String() } };

  const send = (req: FastifyRequest, reply: FastifyReply, name: string) => {
    if (!files) throw new AppError('dashboard_not_built', 'the dashboard is not built: run npm run build:dashboard');
    const file = files.get(name) ?? (name.startsWith('assets/') ? undefined : files.get('index.html'));
    if (!file) throw new AppError('not_found', `no dashboard file ${name}`);
    const accepted = pickEncoding(req.headers['accept-encoding'], file.encodings);
    const packed = accepted && file.encoded(accepted);
    const encoding = packed ? accepted : undefined;
    const etag = encoding ? `${file.etag.slice(0, -1)}-${encoding}"` : file.etag;
    reply
      .type(file.type)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      .header('ETag', etag);
    // The answer depends on Accept-Encoding whenever there is a copy to choose: caches must keep them apart.
    if (file.encodings.length > 0) reply.header('Vary', 'Accept-Encoding');
    if (file.type.startsWith('text/html')) {
      reply
        .header('Content-Security-Policy', DASHBOARD_CSP)
        .header('Referrer-Policy', 'same-origin')
        .header('X-Frame-Options', 'DENY');
    }
    if (notModified(req.headers['if-none-match'], etag)) return reply.code(304).send();
    if (encoding) reply.header('Content-Encoding', encoding);
    return reply.send(packed || file.body);
  };

  route(app, {
    method: 'GET',
    url: '/dashboard',
    auth: [],
    errors: [503],
    schema: { ...schema, summary: 'The web dashboard (also /dashboard/: trailing slashes are ignored)' },
    handler: async (req, reply) => send(req, reply, 'index.html'),
  });
  route(app, {
    method: 'GET',
    url: '/dashboard/*',
    auth: [],
    errors: [404, 503],
    schema: { ...schema, summary: "The web dashboard's files and pages", params: Type.Object({ '*': Type.String() }) },
    handler: async (req, reply) => send(req, reply, req.params['*'] || 'index.html'),
  });
}

/** If-None-Match names this representation (or `*`); weak tags compare by their value (RFC 9110 13.1.2). */
function notModified(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}
