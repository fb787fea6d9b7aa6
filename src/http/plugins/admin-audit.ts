// Every call an admin makes on the admin API is written to the audit log (decisions 23) before its
// answer leaves, so the log never misses a call that was answered.
import fp from 'fastify-plugin';
import type { FastifyInstance, onSendHookHandler } from 'fastify';
import type { RouteConfig } from '../route.ts';
import { addRouteHook } from '../route-hooks.ts';
import type { Deps } from '../../deps.ts';
import { recordAudit } from '../../domain/admin/audit.ts';

export const adminAuditPlugin = fp(async (app: FastifyInstance, opts: { deps: Deps }) => {
  const audit: onSendHookHandler = async (req, reply, payload) => {
    const p = req.principal;
    if (p?.kind !== 'operator_admin') return payload;
    await recordAudit(opts.deps.db, {
      admin_user_id: p.userId,
      admin_email: p.email,
      method: req.method,
      path: req.url,
      status: reply.statusCode,
      request_id: req.id,
    });
    return payload;
  };
  // An admin principal exists only on the admin API's routes (auth admin_jwt): only they carry the hook.
  app.addHook('onRoute', (r) => {
    if ((r.config as RouteConfig | undefined)?.auth?.includes('admin_jwt')) addRouteHook(r, 'onSend', audit);
  });
});
