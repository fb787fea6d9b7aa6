// The admin API's support desk (decisions 17, 23): every client's tickets, support's replies, statuses.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import {
  getTicket,
  listTickets,
  setTicketStatus,
  supportReply,
  type TicketStatus as Status,
} from '../../domain/support/tickets.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { IdParams, numericId, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Page } from '../schemas.ts';
import { AdminTicket, AdminTicketWithMessages, MessageBody, TicketMessage, TicketStatus } from '../shapes/ticket.ts';
import { adminOf, auth, tags } from './shared.ts';

const ticketId = (raw: string) => numericId(raw, 'ticket_not_found', 'ticket');

export function adminTicketRoutes(app: App, deps: Deps): void {
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
      listTickets(
        deps,
        { endpoint: '/admin/tickets' },
        { status: req.query.status as Status | undefined },
        { cursor: req.query.cursor, limit: parseLimit(req.query.limit) },
      ),
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
}
