// Every call an admin makes on the admin API is written to the audit log (decisions 23) before its
// answer leaves, so the log never misses a call that was answered.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.ts';
import { recordAudit } from '../../domain/admin/audit.ts';

export const adminAuditPlugin = fp(async (app: FastifyInstance, opts: { deps: Deps }) => {
  app.addHook('onSend', async (req, reply, payload) => {
    const p = req.principal;
    if (p?.kind !== 'admin') return payload;
    await recordAudit(opts.deps.db, {
      admin_user_id: p.userId, admin_email: p.email, method: req.method, path: req.url, status: reply.statusCode, request_id: req.id,
    });
    return payload;
  });
});
