// Support tickets (decisions 17). open -> answered (a support reply; the client is notified) -> open (a
// client message) ... -> closed (an admin, or 14 idle days after `answered`); a closed ticket takes no
// more messages (409 ticket_closed). Counters live on the ticket row, updated with each message.
import type { Tenant } from '../tenant.ts';
import { userName } from '../accounts/users-store.ts';
import type { Queryable } from '../../db/db.ts';
import type { DbSecretsDeps, DbDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { enqueueMessage } from '../channels/outbox.ts';
import { notify } from '../notifications/notify.ts';
import { page, type PageResult, type Position, type Paging } from '../pagination.ts';

export const CATEGORIES = ['payments', 'technical', 'billing', 'other'] as const;
export const TICKET_STATUSES = ['open', 'answered', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const IDLE_CLOSE_DAYS = 14;
/** a ticket's page shows at most this many messages, the latest */
const MESSAGES_MAX = 500;

export interface Ticket {
  id: number;
  client_id: number;
  subject: string;
  category: string;
  status: TicketStatus;
  messages_count: number;
  last_message_at: Date;
  created_by: string;
  created_at: Date;
}

export interface TicketMessage {
  id: number;
  author: 'client' | 'support';
  author_name: string;
  body: string;
  created_at: Date;
}

const TICKET = `t.id, t.client_id, t.subject, t.category, t.status, t.messages_count, t.last_message_at,
  u.name AS created_by, t.created_at`;
const FROM = 'tickets t JOIN users u ON u.id = t.created_by';

async function addMessage(
  tx: Queryable,
  ticketId: number,
  m: { author: 'client' | 'support'; userId: number; name: string; body: string },
): Promise<TicketMessage> {
  const r = await tx.query<TicketMessage>(
    `INSERT INTO ticket_messages (ticket_id, author, author_user_id, author_name, body) VALUES ($1, $2, $3, $4, $5)
     RETURNING id, author, author_name, body, created_at`,
    [ticketId, m.author, m.userId, m.name, m.body],
  );
  return r.rows[0];
}

export async function createTicket(
  deps: DbDeps,
  tenant: Tenant,
  userId: number,
  input: { subject: string; body: string; category?: string },
): Promise<Ticket> {
  const { clientId } = tenant;
  return deps.db.tx(async (tx) => {
    const t = await tx.query<{ id: number }>(
      `INSERT INTO tickets (client_id, subject, category, created_by, messages_count, last_message_at)
        VALUES ($1, $2, $3, $4, 1, now()) RETURNING id`,
      [clientId, input.subject.trim(), input.category ?? 'other', userId],
    );
    await addMessage(tx, t.rows[0].id, {
      author: 'client',
      userId,
      name: await userName(tx, userId),
      body: input.body,
    });
    return (await findTicket(tx, t.rows[0].id, clientId))!;
  });
}

async function findTicket(db: Queryable, id: number, clientId?: number, lock = false): Promise<Ticket | undefined> {
  const params: unknown[] = [id];
  const scope = clientId === undefined ? '' : ` AND t.client_id = $${params.push(clientId)}`;
  const r = await db.query<Ticket>(
    `SELECT ${TICKET} FROM ${FROM} WHERE t.id = $1${scope}${lock ? ' FOR UPDATE OF t' : ''}`,
    params,
  );
  return r.rows[0];
}

/** One ticket with its messages (oldest first); `clientId` scopes it to a client (the cabinet). */
export async function getTicket(
  deps: DbDeps,
  id: number,
  clientId?: number,
): Promise<Ticket & { messages: TicketMessage[] }> {
  const t = await findTicket(deps.db, id, clientId);
  if (!t) throw new AppError('ticket_not_found', `ticket ${id} not found`);
  const m = await deps.db.query<TicketMessage>(
    `SELECT * FROM (SELECT id, author, author_name, body, created_at FROM ticket_messages WHERE ticket_id = $1
                     ORDER BY created_at DESC, id DESC LIMIT ${MESSAGES_MAX}) latest ORDER BY created_at, id`,
    [id],
  );
  return { ...t, messages: m.rows };
}

/** A client's message: the ticket is open again (whatever it was, but closed). */
export async function clientMessage(
  deps: DbDeps,
  tenant: Tenant,
  userId: number,
  ticketId: number,
  body: string,
): Promise<TicketMessage> {
  const { clientId } = tenant;
  return deps.db.tx(async (tx) => {
    const t = await findTicket(tx, ticketId, clientId, true);
    if (!t) throw new AppError('ticket_not_found', `ticket ${ticketId} not found`);
    if (t.status === 'closed') throw new AppError('ticket_closed', 'this ticket is closed; open a new one');
    const m = await addMessage(tx, ticketId, { author: 'client', userId, name: await userName(tx, userId), body });
    await tx.query(
      `UPDATE tickets SET status = 'open', answered_at = NULL, messages_count = messages_count + 1, last_message_at = $2
        WHERE id = $1`,
      [ticketId, m.created_at],
    );
    return m;
  });
}

/** Support's reply (admin API): `answered`, and the client hears of it (notification, e-mail to the author). */
export async function supportReply(
  deps: DbDeps,
  adminUserId: number,
  ticketId: number,
  body: string,
): Promise<TicketMessage> {
  return deps.db.tx(async (tx) => {
    const t = await findTicket(tx, ticketId, undefined, true);
    if (!t) throw new AppError('ticket_not_found', `ticket ${ticketId} not found`);
    if (t.status === 'closed') throw new AppError('ticket_closed', 'this ticket is closed');
    const m = await addMessage(tx, ticketId, { author: 'support', userId: adminUserId, name: 'Support', body });
    await tx.query(
      `UPDATE tickets
        SET status = 'answered', answered_at = $2, messages_count = messages_count + 1, last_message_at = $2
        WHERE id = $1`,
      [ticketId, m.created_at],
    );
    await notify(tx, t.client_id, {
      type: 'ticket.answered',
      params: { ticket_id: ticketId, subject: t.subject },
      title: `Support answered: ${t.subject}`,
      body: body.slice(0, 300),
    });
    const author = await tx.query<{ email: string; messenger_chat_id: string | null }>(
      `SELECT u.email, u.messenger_chat_id FROM tickets t JOIN users u ON u.id = t.created_by
        WHERE t.id = $1 AND u.status = 'active'`,
      [ticketId],
    );
    const to = author.rows[0];
    if (to) {
      const text = `Support answered your ticket #${ticketId} "${t.subject}":\n\n${body}`;
      await enqueueMessage(tx, {
        channel: 'email',
        recipient: to.email,
        clientId: t.client_id,
        purpose: 'ticket_answered',
        subject: `Re: ${t.subject} [#${ticketId}]`,
        body: text,
      });
      if (to.messenger_chat_id)
        await enqueueMessage(tx, {
          channel: 'messenger',
          recipient: to.messenger_chat_id,
          clientId: t.client_id,
          purpose: 'ticket_answered',
          body: text,
        });
    }
    return m;
  });
}

/** The admin's status change (closing, or reopening). */
export async function setTicketStatus(deps: DbDeps, ticketId: number, status: TicketStatus): Promise<Ticket> {
  return deps.db.tx(async (tx) => {
    const t = await findTicket(tx, ticketId, undefined, true);
    if (!t) throw new AppError('ticket_not_found', `ticket ${ticketId} not found`);
    await tx.query(
      `UPDATE tickets SET status = $2, answered_at = CASE WHEN $2 = 'answered' THEN now() ELSE NULL END WHERE id = $1`,
      [ticketId, status],
    );
    return (await findTicket(tx, ticketId))!;
  });
}

/** How many tickets have `status`, counting at most `cap` (tickets_status_idx). */
export async function countTickets(db: Queryable, status: TicketStatus, cap: number): Promise<number> {
  const r = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM tickets WHERE status = $1 LIMIT ${cap}) AS capped`,
    [status],
  );
  return r.rows[0].n;
}

/** The job: tickets answered and then idle for 14 days close. */
export async function closeIdleTickets(deps: DbDeps, limit = 500): Promise<number> {
  const r = await deps.db.query(
    `UPDATE tickets SET status = 'closed' WHERE id IN (
       SELECT id FROM tickets
        WHERE status = 'answered' AND answered_at <= now() - make_interval(days => ${IDLE_CLOSE_DAYS}) LIMIT ${limit})`,
  );
  return r.rowCount;
}

/** Cursor pages, newest first: one client's (the cabinet) or everyone's (the admin API, by status). */
export async function listTickets(
  deps: DbSecretsDeps,
  scope: { clientId?: number; endpoint: string },
  filters: { status?: TicketStatus },
  paging: Paging,
): Promise<PageResult<Ticket>> {
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: scope.endpoint,
      filters: { status: filters.status },
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after: Position | undefined, take: number) => {
      const params: unknown[] = [];
      const where: string[] = [];
      if (scope.clientId !== undefined) where.push(`t.client_id = $${params.push(scope.clientId)}`);
      if (filters.status) where.push(`t.status = $${params.push(filters.status)}`);
      if (after)
        where.push(`(t.created_at, t.id) < ($${params.push(after.createdAt)}, $${params.push(Number(after.id))})`);
      const r = await deps.db.query<Ticket>(
        `SELECT ${TICKET} FROM ${FROM} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
          ORDER BY t.created_at DESC, t.id DESC LIMIT ${take}`,
        params,
      );
      return r.rows;
    },
    (t) => String(t.id),
  );
}
