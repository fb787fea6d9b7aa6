// /dashboard: the web dashboard, a single-page app and a client of the public API (no endpoint of its own).
// Its files are served from memory; any other path under /dashboard/ is the app's own route and gets
// index.html. The CSP allows scripts of this origin only: the page holds the session's refresh token.
import { Type } from 'typebox';
import type { FastifyReply } from 'fastify';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { loadDashboard } from '../../web/dashboard-files.ts';
import { route, type App } from '../route.ts';

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

  const send = (reply: FastifyReply, name: string) => {
    if (!files) throw new AppError('dashboard_not_built', 'the dashboard is not built: run npm run build:dashboard');
    const file = files.get(name) ?? (name.startsWith('assets/') ? undefined : files.get('index.html'));
    if (!file) throw new AppError('not_found', `no dashboard file ${name}`);
    reply
      .type(file.type)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (file.type.startsWith('text/html')) {
      reply
        .header('Content-Security-Policy', DASHBOARD_CSP)
        .header('Referrer-Policy', 'same-origin')
        .header('X-Frame-Options', 'DENY');
    }
    return reply.send(file.body);
  };

  route(app, {
    method: 'GET',
    url: '/dashboard',
    auth: [],
    errors: [503],
    schema: { ...schema, summary: 'The web dashboard (also /dashboard/: trailing slashes are ignored)' },
    handler: async (_req, reply) => send(reply, 'index.html'),
  });
  route(app, {
    method: 'GET',
    url: '/dashboard/*',
    auth: [],
    errors: [404, 503],
    schema: { ...schema, summary: "The web dashboard's files and pages", params: Type.Object({ '*': Type.String() }) },
    handler: async (req, reply) => send(reply, req.params['*'] || 'index.html'),
  });
}
