// The outbox of the three channels (decisions 18). A message is written in the transaction of what
// caused it (an invite, a ticket reply, a binding) and sent later by the outbox job, so a slow or failing
// channel never fails or slows that request. Sending: claim due rows under a lease (any number of workers),
// send each through its channel's driver, then mark it sent, or schedule the next attempt with back-off,
// or give up (a permanent refusal, or the last attempt).
import type { Queryable } from '../../db/db.ts';
import type { Deps } from '../../deps.ts';
import { ChannelError, type Channel } from '../../channels/types.ts';
import { page, type PageResult, type Position } from '../pagination.ts';

export interface NewMessage {
  channel: Channel;
  recipient: string;
  subject?: string;
  body: string;
  clientId?: number | null;
  /** what the message is for (invite, ticket_answered, messenger_bound, ...): shown to the operator */
  purpose: string;
}

export async function enqueueMessage(tx: Queryable, m: NewMessage): Promise<number> {
  const r = await tx.query<{ id: number }>(
    `INSERT INTO outbox_messages (channel, recipient, subject, body, client_id, purpose) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [m.channel, m.recipient, m.subject ?? null, m.body, m.clientId ?? null, m.purpose],
  );
  return r.rows[0].id;
}

/** Seconds before attempt n+1 (n = attempts made): 10 s, 40 s, 2.5 min, ... capped at one hour. */
export const backoffSeconds = (attempts: number) => Math.min(3600, 10 * 4 ** Math.max(0, attempts - 1));
export const MAX_ATTEMPTS = 8;
const LEASE_SECONDS = 60;

interface Claimed {
  id: number;
  channel: Channel;
  recipient: string;
  subject: string | null;
  body: string;
  attempts: number;
}

/** Sends up to `limit` due messages; returns how many were claimed. */
export async function sendDueMessages(deps: Deps, limit = 50): Promise<number> {
  const claimed = await deps.db.query<Claimed>(
    `UPDATE outbox_messages SET locked_until = now() + make_interval(secs => $2), attempts = attempts + 1
      WHERE id IN (SELECT id FROM outbox_messages
                    WHERE status = 'pending' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until <= now())
                    ORDER BY next_attempt_at, id LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING id, channel, recipient, subject, body, attempts`,
    [limit, LEASE_SECONDS],
  );
  // One channel's slowness must not hold the others' messages: all sends of the batch run together.
  await Promise.all(claimed.rows.map((m) => sendOne(deps, m)));
  return claimed.rows.length;
}

async function sendOne(deps: Deps, m: Claimed): Promise<void> {
  const driver = deps.channels[m.channel];
  try {
    await driver.send({ recipient: m.recipient, subject: m.subject ?? undefined, body: m.body });
  } catch (err) {
    const permanent = err instanceof ChannelError && err.permanent;
    const last = permanent || m.attempts >= MAX_ATTEMPTS;
    await deps.db.query(
      `UPDATE outbox_messages SET status = $2, last_error = $3, driver = $4, locked_until = NULL,
              next_attempt_at = now() + make_interval(secs => $5) WHERE id = $1`,
      [m.id, last ? 'failed' : 'pending', String((err as Error).message ?? err).slice(0, 500), driver.name, backoffSeconds(m.attempts)],
    );
    return;
  }
  await deps.db.query(
    `UPDATE outbox_messages SET status = 'sent', sent_at = now(), driver = $2, locked_until = NULL, last_error = NULL WHERE id = $1`,
    [m.id, driver.name],
  );
}

export interface OutboxRecord {
  id: number;
  channel: Channel;
  recipient: string;
  subject: string | null;
  body: string;
  purpose: string;
  client_id: number | null;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  driver: string | null;
  last_error: string | null;
  next_attempt_at: Date;
  sent_at: Date | null;
  created_at: Date;
}

/** The operator's view (GET /admin/outbox), newest first. */
export async function listOutbox(deps: Deps, q: { cursor?: string; limit: number; channel?: Channel; status?: string }): Promise<PageResult<OutboxRecord>> {
  const filters = { channel: q.channel, status: q.status };
  return page(
    { secret: deps.secrets.appSecret, endpoint: '/admin/outbox', filters, cursor: q.cursor, limit: q.limit },
    async (after: Position | undefined, take: number) => {
      const params: unknown[] = [];
      const where: string[] = [];
      if (q.channel) where.push(`channel = $${params.push(q.channel)}`);
      if (q.status) where.push(`status = $${params.push(q.status)}`);
      if (after) where.push(`(created_at, id) < ($${params.push(after.createdAt)}, $${params.push(Number(after.id))})`);
      const r = await deps.db.query<OutboxRecord>(
        `SELECT id, channel, recipient, subject, body, purpose, client_id, status, attempts, driver, last_error, next_attempt_at, sent_at, created_at
           FROM outbox_messages ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT ${take}`,
        params,
      );
      return r.rows;
    },
    (m) => String(m.id),
  );
}
