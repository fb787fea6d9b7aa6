// The operator's admin API (decisions 23): a user with is_admin (ADMIN_EMAILS) on its own access token;
// anyone else is 403 forbidden_role. Tickets, clients, the channel outbox and the audit log.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import {
  getTicket,
  listTickets,
  setTicketStatus,
  supportReply,
  type TicketStatus as Status,
} from '../../domain/support/tickets.ts';
import { searchClients, updateClient } from '../../domain/admin/clients.ts';
import { listAudit } from '../../domain/admin/audit.ts';
import { adminSandboxPay } from '../../domain/admin/sandbox-pay.ts';
import { listAllWithdrawals, markPaid, rejectWithdrawal } from '../../domain/partners/money.ts';
import {
  listPartners,
  movePartner,
  setCommissionRate,
  PARTNER_STATUSES,
  type PartnerStatus,
} from '../../domain/partners/profile.ts';
import { toPaymentStatus, PaymentStatus } from '../shapes/payment.ts';
import { listOutbox } from '../../domain/channels/outbox.ts';
import { CHANNELS, type Channel } from '../../channels/types.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { principal } from '../context.ts';
import { IdParams, numericId, OpParams, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Nullable, NullableTimestamp, Page, Timestamp } from '../schemas.ts';
import { AdminTicket, AdminTicketWithMessages, MessageBody, TicketMessage, TicketStatus } from '../shapes/ticket.ts';

const AdminClient = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    email: Type.String(),
    plan: Type.String({ enum: ['trial', 'starter', 'professional', 'enterprise'] }),
    trial_ends_at: Timestamp,
    plan_expires_at: NullableTimestamp,
    disabled: Type.Boolean(),
    disabled_at: NullableTimestamp,
    created_at: Timestamp,
  },
  { title: 'AdminClient' },
);

const OutboxMessage = Type.Object(
  {
    id: Type.Integer(),
    channel: Type.String({ enum: [...CHANNELS] }),
    recipient: Type.String(),
    subject: Nullable(Type.String()),
    body: Type.String({
      description:
        'the text with every token and code in it masked (`inv_******`, `******`): ' +
        'the channel alone gets them in clear. ' +
        'A day after a message that carried one is settled, a note replaces its text',
    }),
    purpose: Type.String(),
    client_id: Nullable(Type.Integer()),
    status: Type.String({ enum: ['pending', 'sent', 'failed'] }),
    attempts: Type.Integer(),
    driver: Nullable(Type.String({ description: 'log, smtp, bot_api, http_gateway: the driver of the last attempt' })),
    last_error: Nullable(Type.String()),
    next_attempt_at: Timestamp,
    sent_at: NullableTimestamp,
    created_at: Timestamp,
  },
  { title: 'OutboxMessage' },
);

const AuditEntry = Type.Object(
  {
    id: Type.Integer(),
    admin_user_id: Type.Integer(),
    admin_email: Type.String(),
    method: Type.String(),
    path: Type.String(),
    status: Type.Integer(),
    request_id: Type.String(),
    created_at: Timestamp,
  },
  { title: 'AuditEntry' },
);

const ticketId = (raw: string) => numericId(raw, 'ticket_not_found', 'ticket');
const adminOf = (req: Parameters<typeof principal>[0]) => {
  const p = principal(req);
  if (p.kind !== 'admin') throw new AppError('forbidden_role', 'the admin API needs a user with is_admin');
  return p;
};

export function adminRoutes(app: App, deps: Deps): void {
  const tags = ['admin'];
  const auth = ['admin_jwt'] as const;

  route(app, {
    method: 'GET',
    url: '/admin/tickets',
    auth,
    permission: 'admin.tickets',
    schema: {
      tags,
      summary: "Every client's tickets, newest first",
      querystring: Type.Object({ ...PageQuery, status: Type.Optional(TicketStatus) }),
      response: { 200: Page(AdminTicket) },
    },
    handler: async (req) =>
      listTickets(deps, {
        status: req.query.status as Status | undefined,
        cursor: req.query.cursor,
        limit: parseLimit(req.query.limit),
        endpoint: '/admin/tickets',
      }),
  });
  route(app, {
    method: 'GET',
    url: '/admin/tickets/:id',
    auth,
    permission: 'admin.tickets',
    errors: [404],
    schema: {
      tags,
      summary: 'A ticket with its messages',
      params: IdParams,
      response: { 200: AdminTicketWithMessages },
    },
    handler: async (req) => getTicket(deps, ticketId(req.params.id)),
  });
  route(app, {
    method: 'POST',
    url: '/admin/tickets/:id/messages',
    auth,
    permission: 'admin.tickets',
    errors: [404, 409],
    schema: {
      tags,
      summary: "Support's reply: the ticket becomes answered and the client is notified",
      params: IdParams,
      body: Body({ body: MessageBody }, 'SupportReplyRequest'),
      response: { 201: TicketMessage },
    },
    handler: async (req, reply) =>
      reply.status(201).send(await supportReply(deps, adminOf(req).userId, ticketId(req.params.id), req.body.body)),
  });
  route(app, {
    method: 'PATCH',
    url: '/admin/tickets/:id',
    auth,
    permission: 'admin.tickets',
    errors: [404],
    schema: {
      tags,
      summary: "Set a ticket's status (close it, or reopen)",
      params: IdParams,
      body: Body({ status: TicketStatus }, 'TicketStatusRequest'),
      response: { 200: AdminTicket },
    },
    handler: async (req) => setTicketStatus(deps, ticketId(req.params.id), req.body.status as Status),
  });

  route(app, {
    method: 'GET',
    url: '/admin/clients',
    auth,
    permission: 'admin.clients',
    schema: {
      tags,
      summary: 'Clients, newest first; q: an id, or part of a name or e-mail',
      querystring: Type.Object({ ...PageQuery, q: Type.Optional(Type.String({ maxLength: 200 })) }),
      response: { 200: Page(AdminClient) },
    },
    handler: async (req) =>
      searchClients(deps, { q: req.query.q, cursor: req.query.cursor, limit: parseLimit(req.query.limit) }),
  });
  route(app, {
    method: 'PATCH',
    url: '/admin/clients/:id',
    auth,
    permission: 'admin.clients',
    errors: [404],
    schema: {
      tags,
      summary: "Change a client's plan, its expiry, or disable it (keys and tokens stop at once)",
      params: IdParams,
      body: Body(
        {
          plan: Type.Optional(Type.String({ enum: ['trial', 'starter', 'professional', 'enterprise'] })),
          plan_expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
          disabled: Type.Optional(Type.Boolean()),
        },
        'AdminClientPatch',
      ),
      response: { 200: AdminClient },
    },
    handler: async (req) =>
      updateClient(deps, numericId(req.params.id, 'client_not_found', 'client'), {
        plan: req.body.plan,
        plan_expires_at:
          req.body.plan_expires_at === undefined
            ? undefined
            : req.body.plan_expires_at === null
              ? null
              : new Date(req.body.plan_expires_at),
        disabled: req.body.disabled,
      }),
  });

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
      listOutbox(deps, {
        channel: req.query.channel as Channel | undefined,
        status: req.query.status,
        cursor: req.query.cursor,
        limit: parseLimit(req.query.limit),
      }),
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
    handler: async (req) => toPaymentStatus(await adminSandboxPay(deps, req.params.op_id)),
  });

  const Partner = Type.Object(
    {
      id: Type.Integer(),
      client_id: Type.Integer(),
      company_name: Type.String(),
      website: Nullable(Type.String()),
      contact_phone: Nullable(Type.String()),
      status: Type.String({ enum: [...PARTNER_STATUSES] }),
      commission_rate_bps: Type.Integer(),
      created_at: Timestamp,
    },
    { title: 'AdminPartner' },
  );
  const partnerId = (raw: string) => numericId(raw, 'partner_not_found', 'partner');
  route(app, {
    method: 'GET',
    url: '/admin/partners',
    auth,
    permission: 'admin.partners',
    schema: {
      tags,
      summary: 'Partner applications and partners, newest first',
      querystring: Type.Object({ ...PageQuery, status: Type.Optional(Type.String({ enum: [...PARTNER_STATUSES] })) }),
      response: { 200: Page(Partner) },
    },
    handler: async (req) =>
      listPartners(deps, {
        status: req.query.status as PartnerStatus | undefined,
        cursor: req.query.cursor,
        limit: parseLimit(req.query.limit),
      }),
  });
  for (const action of ['approve', 'reject', 'suspend'] as const) {
    route(app, {
      method: 'POST',
      url: `/admin/partners/:id/${action}`,
      auth,
      permission: 'admin.partners',
      errors: [404, 409],
      schema: {
        tags,
        summary: `${action[0].toUpperCase()}${action.slice(1)} a partner`,
        params: IdParams,
        body: Type.Optional(Body({})),
        response: { 200: Partner },
      },
      handler: async (req) => movePartner(deps, partnerId(req.params.id), action),
    });
  }
  route(app, {
    method: 'PATCH',
    url: '/admin/partners/:id',
    auth,
    permission: 'admin.partners',
    errors: [404],
    schema: {
      tags,
      summary: "A partner's commission rate",
      params: IdParams,
      body: Body({ commission_rate_bps: Type.Integer({ minimum: 0, maximum: 10000 }) }, 'AdminPartnerPatch'),
      response: { 200: Partner },
    },
    handler: async (req) => setCommissionRate(deps, partnerId(req.params.id), req.body.commission_rate_bps),
  });

  const Withdrawal = Type.Object(
    {
      id: Type.Integer(),
      partner_id: Type.Integer(),
      amount: Type.Integer(),
      status: Type.String(),
      reference: Nullable(Type.String()),
      reason: Nullable(Type.String()),
      paid_at: NullableTimestamp,
      created_at: Timestamp,
    },
    { title: 'AdminWithdrawal' },
  );
  const ListedWithdrawal = Type.Object(
    { ...Withdrawal.properties, partner_name: Type.String({ description: "the partner's company name" }) },
    { title: 'AdminWithdrawalListItem' },
  );
  const withdrawalId = (raw: string) => numericId(raw, 'withdrawal_not_found', 'withdrawal');
  route(app, {
    method: 'GET',
    url: '/admin/withdrawals',
    auth,
    permission: 'admin.partners',
    schema: {
      tags,
      summary: 'Partner withdrawals, newest first',
      querystring: Type.Object({
        ...PageQuery,
        status: Type.Optional(
          Type.String({ enum: ['confirmation_required', 'processing', 'paid', 'rejected', 'cancelled'] }),
        ),
      }),
      response: { 200: Page(ListedWithdrawal) },
    },
    handler: async (req) =>
      listAllWithdrawals(deps, {
        status: req.query.status,
        cursor: req.query.cursor,
        limit: parseLimit(req.query.limit),
        endpoint: '/admin/withdrawals',
      }),
  });
  route(app, {
    method: 'POST',
    url: '/admin/withdrawals/:id/mark-paid',
    auth,
    permission: 'admin.partners',
    errors: [404, 409],
    schema: {
      tags,
      summary: 'The money was sent: paid, with the bank reference',
      params: IdParams,
      body: Body({ reference: Type.String({ minLength: 1, maxLength: 200 }) }, 'MarkPaidRequest'),
      response: { 200: Withdrawal },
    },
    handler: async (req) => markPaid(deps, withdrawalId(req.params.id), req.body.reference),
  });
  route(app, {
    method: 'POST',
    url: '/admin/withdrawals/:id/reject',
    auth,
    permission: 'admin.partners',
    errors: [404, 409],
    schema: {
      tags,
      summary: 'Refuse it: the amount goes back to the balance',
      params: IdParams,
      body: Body({ reason: Type.String({ minLength: 1, maxLength: 500 }) }, 'RejectRequest'),
      response: { 200: Withdrawal },
    },
    handler: async (req) => rejectWithdrawal(deps, withdrawalId(req.params.id), req.body.reason),
  });
}
