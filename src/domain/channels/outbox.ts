// The outbox of the three channels (decisions 18). A message is written in the transaction of what
// caused it (an invite, a ticket reply, a binding) and sent later by the outbox job, so a slow or failing
// channel never fails or slows that request. Sending: claim due rows under a lease (any number of workers),
// send each through its channel's driver, then mark it sent, or schedule the next attempt with back-off,
// or give up (a permanent refusal, or the last attempt).
//
// Nothing that works as a credential is readable at rest (issue 38): a message whose text carries one
// (an invite link, a confirmation code) names it in `secrets`; its text is then kept sealed with
// APP_SECRET for the driver alone, and `body` holds the operator's copy with each secret masked. A day
// after such a message is settled, retention replaces both with a note (purgeCredentialBodies).
import type { Queryable } from '../../db/db.ts';
import type { Deps, DbSecretsDeps, DbDeps } from '../../deps.ts';
import type { Sealer } from '../../secrets.ts';
import { ChannelError, type Channel } from '../../channels/types.ts';
import { page, type PageResult, type Position, type Paging } from '../pagination.ts';
import { currentTraceparent, failSpan, inSpan } from '../../telemetry/tracing.ts';
import { outboxSends } from '../../telemetry/metrics.ts';

export interface NewMessage {
  channel: Channel;
  recipient: string;
  subject?: string;
  body: string;
  clientId?: number | null;
  /** what the message is for (invite, ticket_answered, messenger_bound, ...): shown to the operator */
  purpose: string;
  /** values in `body` that work as credentials (a token, a code): sealed at rest, masked for the operator */
  secrets?: string[];
}

/** `sealer` is required when the message names secrets. */
export async function enqueueMessage(tx: Queryable, m: NewMessage, sealer?: Sealer): Promise<number> {
  const secrets = (m.secrets ?? []).filter(Boolean);
  if (secrets.length && !sealer) throw new Error('a message carrying secrets needs the sealer');
  const r = await tx.query<{ id: number }>(
    `INSERT INTO outbox_messages (channel, recipient, subject, body, body_sealed, client_id, purpose, trace_context)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      m.channel,
      m.recipient,
      m.subject ?? null,
      masked(m.body, secrets),
      secrets.length ? sealer!.seal(m.body) : null,
      m.clientId ?? null,
      m.purpose,
      // the send continues the trace of the request that wrote the message (null with tracing off)
      currentTraceparent(),
    ],
  );
  return r.rows[0].id;
}

/**
 * Each secret (and its URL-encoded form, as links carry it) replaced by its prefix (`inv_`, `pinv_`)
 * and asterisks: the operator sees what kind of value went out, never one that works.
 */
function masked(body: string, secrets: string[]): string {
  let out = body;
  for (const s of secrets) {
    const mask = `${/^[a-z]{1,8}_/.exec(s)?.[0] ?? ''}******`;
    for (const form of new Set([s, encodeURIComponent(s)])) out = out.split(form).join(mask);
  }
  return out;
}

/** What a settled message's text becomes once purged (the same words as migration 0024). */
export const OUTBOX_PURGED = '(text removed: it carried a one-time credential)';
/** Hours a settled message that carried a credential keeps its (sealed and masked) text. */
export const OUTBOX_CREDENTIAL_HOURS = 24;
/**
 * Purposes whose messages carried a credential in clear before sealing (migration 0024), or still do
 * when an older instance writes them during a rolling upgrade: hidden from the operator, and purged
 * like sealed ones.
 */
export const LEGACY_CREDENTIAL_PURPOSES = ['team_invite', 'partner_invite', 'withdrawal_code', 'onboarding_code'];
const LEGACY_HIDDEN = '(text hidden: written in clear before sealing, it carries a one-time credential)';

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
  body_sealed: string | null;
  attempts: number;
  purpose: string;
  trace_context: string | null;
}

/** Sends up to `limit` due messages; returns how many were claimed. */
export async function sendDueMessages(deps: Pick<Deps, 'db' | 'secrets' | 'channels'>, limit = 50): Promise<number> {
  const claimed = await deps.db.query<Claimed>(
    `UPDATE outbox_messages SET locked_until = now() + make_interval(secs => $2), attempts = attempts + 1
      WHERE id IN (SELECT id FROM outbox_messages
                    WHERE status = 'pending' AND next_attempt_at <= now()
                      AND (locked_until IS NULL OR locked_until <= now())
                    ORDER BY next_attempt_at, id LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING id, channel, recipient, subject, body, body_sealed, attempts, purpose, trace_context`,
    [limit, LEASE_SECONDS],
  );
  // One channel's slowness must not hold the others' messages: all sends of the batch run together.
  await Promise.all(claimed.rows.map((m) => sendOne(deps, m)));
  return claimed.rows.length;
}

/** One message's attempt: a span in the trace that wrote the message, when tracing is on. */
function sendOne(deps: Pick<Deps, 'db' | 'secrets' | 'channels'>, m: Claimed): Promise<void> {
  return inSpan(
    'outbox send',
    {
      kind: 'producer',
      parent: m.trace_context,
      attributes: {
        'tolem.outbox.id': m.id,
        'tolem.outbox.channel': m.channel,
        'tolem.outbox.purpose': m.purpose,
        'tolem.outbox.attempt': m.attempts,
      },
    },
    async (span) => {
      const outcome = await attemptOne(deps, m);
      outboxSends.labels(m.channel, outcome.status).inc();
      if (outcome.error && span) failSpan(span, outcome.error);
    },
  );
}

async function attemptOne(
  deps: Pick<Deps, 'db' | 'secrets' | 'channels'>,
  m: Claimed,
): Promise<{ status: 'sent' | 'retry' | 'failed'; error?: unknown }> {
  const driver = deps.channels[m.channel];
  try {
    await driver.send({ recipient: m.recipient, subject: m.subject ?? undefined, body: textOf(deps, m) });
  } catch (err) {
    const permanent = (err instanceof ChannelError && err.permanent) || err instanceof SealedElsewhere;
    const last = permanent || m.attempts >= MAX_ATTEMPTS;
    await deps.db.query(
      `UPDATE outbox_messages SET status = $2, last_error = $3, driver = $4, locked_until = NULL,
              next_attempt_at = now() + make_interval(secs => $5) WHERE id = $1`,
      [
        m.id,
        last ? 'failed' : 'pending',
        String((err as Error).message ?? err).slice(0, 500),
        driver.name,
        backoffSeconds(m.attempts),
      ],
    );
    return { status: last ? 'failed' : 'retry', error: err };
  }
  await deps.db.query(
    `UPDATE outbox_messages SET status = 'sent', sent_at = now(), driver = $2, locked_until = NULL, last_error = NULL
      WHERE id = $1`,
    [m.id, driver.name],
  );
  return { status: 'sent' };
}

/**
 * Messages due now and not sent yet (at most `cap`), and seconds since the oldest became due (0 when none),
 * for /metrics: the outbox job's backlog.
 */
export async function outboxBacklog(db: Queryable, cap: number): Promise<{ due: number; oldestSeconds: number }> {
  const r = await db.query<{ due: number; oldest: number | null }>(
    `SELECT (SELECT count(*) FROM (SELECT 1 FROM outbox_messages
                                    WHERE status = 'pending' AND next_attempt_at <= now() LIMIT $1) d)::int AS due,
            EXTRACT(EPOCH FROM now() - (SELECT min(next_attempt_at) FROM outbox_messages
                                         WHERE status = 'pending' AND next_attempt_at <= now()))::float8 AS oldest`,
    [cap],
  );
  return { due: r.rows[0].due, oldestSeconds: Math.max(0, r.rows[0].oldest ?? 0) };
}

/** A message sealed with an APP_SECRET this process no longer has: no later attempt can open it. */
class SealedElsewhere extends Error {}

/** The text the driver sends: opened here, at send time, and never written back. */
function textOf(deps: Pick<Deps, 'secrets'>, m: Claimed): string {
  if (m.body_sealed === null) return m.body;
  try {
    return deps.secrets.sealer.open(m.body_sealed);
  } catch (err) {
    throw new SealedElsewhere(`cannot open the sealed text: ${(err as Error).message}`);
  }
}

/**
 * Settled messages that carried a credential, a day after they were written: their sealed text and
 * masked copy give way to OUTBOX_PURGED (the row stays for its 30 days: recipient, purpose, status).
 * Those written in clear before sealing are found by purpose.
 */
export async function purgeCredentialBodies(deps: DbDeps, limit: number): Promise<number> {
  const r = await deps.db.query(
    `UPDATE outbox_messages SET body = $1, body_sealed = NULL WHERE id IN (
       SELECT id FROM outbox_messages
        WHERE status <> 'pending' AND created_at < now() - make_interval(hours => ${OUTBOX_CREDENTIAL_HOURS})
          AND (body_sealed IS NOT NULL OR (purpose = ANY($2::text[]) AND body <> $1))
        ORDER BY created_at LIMIT ${limit})`,
    [OUTBOX_PURGED, LEGACY_CREDENTIAL_PURPOSES],
  );
  return r.rowCount;
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

/**
 * The operator's view (GET /admin/outbox), newest first. `body` is the masked copy; a message written
 * in clear before sealing (a legacy credential purpose with no sealed text) shows a note instead.
 */
export async function listOutbox(
  deps: DbSecretsDeps,
  filters: { channel?: Channel; status?: string },
  paging: Paging,
): Promise<PageResult<OutboxRecord>> {
  const bound = { channel: filters.channel, status: filters.status };
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: '/admin/outbox',
      filters: bound,
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after: Position | undefined, take: number) => {
      const params: unknown[] = [];
      const where: string[] = [];
      if (filters.channel) where.push(`channel = $${params.push(filters.channel)}`);
      if (filters.status) where.push(`status = $${params.push(filters.status)}`);
      if (after) where.push(`(created_at, id) < ($${params.push(after.createdAt)}, $${params.push(Number(after.id))})`);
      const hidden = `CASE WHEN body_sealed IS NULL
                            AND purpose = ANY($${params.push(LEGACY_CREDENTIAL_PURPOSES)}::text[])
                            AND body <> $${params.push(OUTBOX_PURGED)}
                           THEN $${params.push(LEGACY_HIDDEN)} ELSE body END AS body`;
      const r = await deps.db.query<OutboxRecord>(
        `SELECT id, channel, recipient, subject, ${hidden}, purpose, client_id, status, attempts, driver, last_error,
                next_attempt_at, sent_at, created_at
           FROM outbox_messages ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
          ORDER BY created_at DESC, id DESC LIMIT ${take}`,
        params,
      );
      return r.rows;
    },
    (m) => String(m.id),
  );
}
