// Cabinet notifications: short messages to a client's team (a webhook switched off, a plan nearing its
// limit, a trial ending). One read state per client, shared by its users: the notifications describe the
// account, not a person.
import type { Tenant } from '../tenant.ts';
import type { Queryable } from '../../db/db.ts';
import type { DbDeps, DbSecretsDeps } from '../../deps.ts';
import { page, type PageResult, type Position, type Paging } from '../pagination.ts';
import type { NotificationParams, NotificationType, ParamValue } from './kinds.ts';

export interface NotificationRecord {
  id: number;
  type: string;
  title: string;
  body: string;
  /** the facts the dashboard words it from (kinds.ts); null on rows written before they were kept */
  params: Record<string, ParamValue> | null;
  read_at: Date | null;
  created_at: Date;
}

export interface NewNotification<T extends NotificationType> {
  type: T;
  /** what happened, for the reader's language (kinds.ts) */
  params: NotificationParams<T>;
  /** the English wording, for API readers */
  title: string;
  body: string;
  dedupeKey?: string;
}

/**
 * Creates a notification in the caller's transaction. With a `dedupeKey`, a second call with the same
 * key for the same client creates nothing (e.g. `trial_ending:<trial end date>`), so periodic jobs may
 * call it on every pass. Returns the new id, or null when deduplicated.
 */
export async function notify<T extends NotificationType>(
  tx: Queryable,
  clientId: number,
  n: NewNotification<T>,
): Promise<number | null> {
  const r = await tx.query<{ id: number }>(
    `INSERT INTO notifications (client_id, type, title, body, params, dedupe_key)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6)
     ON CONFLICT (client_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING RETURNING id`,
    [clientId, n.type, n.title.slice(0, 200), n.body.slice(0, 2000), JSON.stringify(n.params), n.dedupeKey ?? null],
  );
  return r.rows[0]?.id ?? null;
}

const COLUMNS = 'id, type, title, body, params, read_at, created_at';

export async function listNotifications(
  deps: DbSecretsDeps,
  tenant: Tenant,
  filters: { unread?: boolean },
  paging: Paging,
): Promise<PageResult<NotificationRecord>> {
  const { clientId } = tenant;
  const bound = { unread: filters.unread ? 1 : undefined };
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: '/me/notifications',
      filters: bound,
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after: Position | undefined, take: number) => {
      const params: unknown[] = [clientId];
      let where = 'client_id = $1';
      if (filters.unread) where += ' AND read_at IS NULL';
      if (after) {
        params.push(after.createdAt, Number(after.id));
        where += ` AND (created_at, id) < ($2, $3)`;
      }
      const r = await deps.db.query<NotificationRecord>(
        `SELECT ${COLUMNS} FROM notifications WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${take}`,
        params,
      );
      return r.rows;
    },
    (n) => String(n.id),
  );
}

export async function unreadCount(deps: DbDeps, tenant: Tenant): Promise<{ count: number }> {
  const { clientId } = tenant;
  const r = await deps.db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM notifications WHERE client_id = $1 AND read_at IS NULL',
    [clientId],
  );
  return { count: r.rows[0].count };
}

export async function markAllRead(deps: DbDeps, tenant: Tenant): Promise<{ updated: number }> {
  const { clientId } = tenant;
  const r = await deps.db.query('UPDATE notifications SET read_at = now() WHERE client_id = $1 AND read_at IS NULL', [
    clientId,
  ]);
  return { updated: r.rowCount };
}
