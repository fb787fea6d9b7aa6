// The admin API's operations (decisions 23): the channel outbox, the admin audit log, and paying a
// sandbox provider account's live payment (a plan QR) as its customer.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { listAudit } from '../../domain/admin/audit.ts';
import { adminSandboxPay } from '../../domain/admin/sandbox-pay.ts';
import { listOutbox } from '../../domain/channels/outbox.ts';
import { CHANNELS, type Channel } from '../../channels/types.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { OpParams, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Page } from '../schemas.ts';
import { paymentDetail, PaymentStatus } from '../shapes/payment.ts';
import { OutboxMessage } from '../shapes/outbox-message.ts';
import { AuditEntry } from '../shapes/audit-entry.ts';
import { auth, tags } from './shared.ts';

export function adminOperationRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'GET',
    url: '/admin/outbox',
    auth,
    permission: 'admin.outbox',
    schema: {
      tags,
      summary: 'Messages of the three channels, newest first',
      querystring: Type.Object({
        ...PageQuery,
        channel: Type.Optional(Type.String({ enum: [...CHANNELS] })),
        status: Type.Optional(Type.String({ enum: ['pending', 'sent', 'failed'] })),
      }),
      response: { 200: Page(OutboxMessage) },
    },
    handler: async (req) =>
      listOutbox(
        deps,
        { channel: req.query.channel as Channel | undefined, status: req.query.status },
        { cursor: req.query.cursor, limit: parseLimit(req.query.limit) },
      ),
  });
  route(app, {
    method: 'GET',
    url: '/admin/audit',
    auth,
    permission: 'admin.audit',
    schema: {
      tags,
      summary: 'The admin audit log, newest first',
      querystring: Type.Object(PageQuery),
      response: { 200: Page(AuditEntry) },
    },
    handler: async (req) => listAudit(deps, { cursor: req.query.cursor, limit: parseLimit(req.query.limit) }),
  });
  route(app, {
    method: 'POST',
    url: '/admin/sandbox/payments/:op_id/pay',
    auth,
    permission: 'admin.sandbox_pay',
    errors: [404],
    schema: {
      tags,
      summary: 'Pay a live payment of a sandbox provider account (a plan QR) as its customer',
      params: OpParams,
      body: Type.Optional(Body({})),
      response: { 200: PaymentStatus },
    },
    handler: async (req) => paymentDetail(deps, await adminSandboxPay(deps, req.params.op_id)),
  });
}
