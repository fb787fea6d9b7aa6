// The `users` table's reads that other folders need, as named statements (accounts owns users, see
// test/architecture/table-owners.test.ts).
import type { Queryable } from '../../db/db.ts';

/** A signed-in user as every authenticated call reads it: active, with its client's plan and state. */
export interface ActiveUser {
  id: number;
  client_id: number;
  role: string;
  plan: string;
  email: string;
  is_admin: boolean;
  client_disabled: boolean;
}

/**
 * The user of an access token, read on every call (one statement: the hot path of the cabinet), so that a
 * revoked member or a disabled client stops at once rather than when its token expires. Undefined when the
 * user is gone, disabled or not of that client.
 */
export async function activeUser(db: Queryable, userId: number, clientId: number): Promise<ActiveUser | undefined> {
  const r = await db.query<ActiveUser>(
    `SELECT u.id, u.client_id, u.role, u.email, u.is_admin, c.plan, c.disabled_at IS NOT NULL AS client_disabled
       FROM users u JOIN clients c ON c.id = u.client_id
      WHERE u.id = $1 AND u.client_id = $2 AND u.disabled_at IS NULL AND u.status = 'active'`,
    [userId, clientId],
  );
  return r.rows[0];
}

/** The name a user signs with (tickets, audit); 'user' for one that is gone. */
export async function userName(db: Queryable, userId: number): Promise<string> {
  const r = await db.query<{ name: string }>('SELECT name FROM users WHERE id = $1', [userId]);
  return r.rows[0]?.name ?? 'user';
}

/** The messenger chat bound to this user, if any. */
export async function userMessengerChat(db: Queryable, userId: number): Promise<string | null> {
  const r = await db.query<{ c: string | null }>('SELECT messenger_chat_id AS c FROM users WHERE id = $1', [userId]);
  return r.rows[0]?.c ?? null;
}

/** Whether any user has this e-mail already (case-insensitive). */
export async function emailTaken(db: Queryable, email: string): Promise<boolean> {
  const r = await db.query('SELECT 1 FROM users WHERE lower(email) = $1', [email.toLowerCase()]);
  return r.rows.length > 0;
}

/** The client's active owner (the first, if there were ever several); null when it has none. */
export async function activeOwnerId(db: Queryable, clientId: number): Promise<number | null> {
  const r = await db.query<{ id: number }>(
    `SELECT id FROM users WHERE client_id = $1 AND role = 'owner' AND disabled_at IS NULL AND status = 'active'
      ORDER BY id LIMIT 1`,
    [clientId],
  );
  return r.rows[0]?.id ?? null;
}
