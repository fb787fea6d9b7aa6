// Support tickets from the cabinet (decisions 17): open one, write into it, read it with its messages.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import {
  clientMessage,
  createTicket,
  getTicket,
  listTickets,
  CATEGORIES,
  type TicketStatus as Status,
} from '../../domain/support/tickets.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { cabinetUser } from '../context.ts';
import { IdParams, IgnoredModeQuery, numericId, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Page } from '../schemas.ts';
import { MessageBody, Ticket, TicketMessage, TicketStatus, TicketWithMessages, toTicket } from '../shapes/ticket.ts';

const ticketId = (raw: string) => numericId(raw, 'ticket_not_found', 'ticket');

export function ticketRoutes(app: App, deps: Deps): void {
  const tags = ['support'];
  route(app, {
    method: 'GET',
    url: '/me/tickets',
    auth: ['jwt'],
    permission: 'tickets.read',
    schema: {
      tags,
      summary: 'Support tickets, newest first',
      querystring: Type.Object({ ...IgnoredModeQuery, ...PageQuery, status: Type.Optional(TicketStatus) }),
      response: { 200: Page(Ticket) },
    },
    handler: async (req) => {
      const p = await listTickets(
        deps,
        { clientId: cabinetUser(req).clientId, endpoint: '/me/tickets' },
        { status: req.query.status as Status | undefined },
        { cursor: req.query.cursor, limit: parseLimit(req.query.limit) },
      );
      return { ...p, data: p.data.map(toTicket) };
    },
  });
  route(app, {
    method: 'POST',
    url: '/me/tickets',
    auth: ['jwt'],
    permission: 'tickets.write',
    schema: {
      tags,
      summary: 'Open a ticket with its first message',
      querystring: Type.Object(IgnoredModeQuery),
      body: Body(
        {
          subject: Type.String({ minLength: 1, maxLength: 200 }),
          body: MessageBody,
          category: Type.Optional(Type.String({ enum: [...CATEGORIES], description: 'default other' })),
        },
        'TicketCreateRequest',
      ),
      response: { 201: Ticket },
    },
    handler: async (req, reply) => {
      const p = cabinetUser(req);
      return reply.status(201).send(toTicket(await createTicket(deps, p, p.userId, req.body)));
    },
  });
  route(app, {
    method: 'GET',
    url: '/me/tickets/:id',
    auth: ['jwt'],
    permission: 'tickets.read',
    errors: [404],
    schema: {
      tags,
      summary: 'A ticket with its messages (oldest first)',
      params: IdParams,
      querystring: Type.Object(IgnoredModeQuery),
      response: { 200: TicketWithMessages },
    },
    handler: async (req) => toTicket(await getTicket(deps, ticketId(req.params.id), cabinetUser(req).clientId)),
  });
  route(app, {
    method: 'POST',
    url: '/me/tickets/:id/messages',
    auth: ['jwt'],
    permission: 'tickets.write',
    errors: [404, 409],
    schema: {
      tags,
      summary: 'Write into a ticket (it opens again); a closed ticket is 409 ticket_closed',
      params: IdParams,
      querystring: Type.Object(IgnoredModeQuery),
      body: Body({ body: MessageBody }, 'TicketMessageRequest'),
      response: { 201: TicketMessage },
    },
    handler: async (req, reply) => {
      const p = cabinetUser(req);
      return reply.status(201).send(await clientMessage(deps, p, p.userId, ticketId(req.params.id), req.body.body));
    },
  });
}
