// Support tickets on the wire (decisions 17), shown by the cabinet and the admin API (which adds client_id).
import { Type } from 'typebox';
import { Timestamp } from '../schemas.ts';
import { CATEGORIES, TICKET_STATUSES, type Ticket as TicketRow } from '../../domain/support/tickets.ts';

export const TicketStatus = Type.String({ title: 'TicketStatus', enum: [...TICKET_STATUSES] });

const TicketProps = {
  id: Type.Integer(),
  subject: Type.String(),
  category: Type.String({ enum: [...CATEGORIES] }),
  status: TicketStatus,
  messages_count: Type.Integer(),
  last_message_at: Timestamp,
  created_by: Type.String({ description: 'name of the team member who opened it' }),
  created_at: Timestamp,
};

export const Ticket = Type.Object(TicketProps, { title: 'Ticket' });
export const AdminTicket = Type.Object({ ...TicketProps, client_id: Type.Integer() }, { title: 'AdminTicket' });

export const TicketMessage = Type.Object(
  {
    id: Type.Integer(),
    author: Type.String({ enum: ['client', 'support'] }),
    author_name: Type.String(),
    body: Type.String(),
    created_at: Timestamp,
  },
  { title: 'TicketMessage' },
);

export const TicketWithMessages = Type.Object(
  { ...TicketProps, messages: Type.Array(TicketMessage) },
  { title: 'TicketWithMessages' },
);
export const AdminTicketWithMessages = Type.Object(
  { ...TicketProps, client_id: Type.Integer(), messages: Type.Array(TicketMessage) },
  { title: 'AdminTicketWithMessages' },
);

export const MessageBody = Type.String({ minLength: 1, maxLength: 5000 });

/** The cabinet's view leaves out client_id (always the caller's own). */
export function toTicket<T extends TicketRow>(t: T): Omit<T, 'client_id'> {
  const { client_id: _client, ...rest } = t;
  return rest;
}
