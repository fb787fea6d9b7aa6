// API keys: kp_live_/kp_test_ + 40 base62 characters (~238 bits). Only the SHA-256 is stored; the key
// is shown once. Regenerating revokes the previous key of that mode in the same transaction.
import type { Queryable } from '../../db/db.ts';
import type { Mode, Tenant } from '../tenant.ts';
import { randomBase62, sha256Hex } from '../../crypto.ts';
import { invalidate, type Caches } from '../../infra/cache.ts';

export const PREFIX_LENGTH = 12;

export interface IssuedKey {
  api_key: string;
  mode: Mode;
  api_key_prefix: string;
  created_at: Date;
}

export async function issueApiKey(tx: Queryable, tenant: Tenant, caches?: Caches): Promise<IssuedKey> {
  const { clientId, mode } = tenant;
  const key = `kp_${mode}_${randomBase62(40)}`;
  const prefix = key.slice(0, PREFIX_LENGTH);
  // Two regenerations at once queue here: otherwise the second revokes nothing (the first's revoke is
  // not visible to it yet) and its insert breaks the one-active-key index, a 500.
  await tx.query('SELECT 1 FROM clients WHERE id = $1 FOR NO KEY UPDATE', [clientId]);
  const revoked = await tx.query<{ key_hash: string }>(
    `UPDATE api_keys SET revoked_at = now() WHERE client_id = $1 AND mode = $2 AND revoked_at IS NULL
      RETURNING key_hash`,
    [clientId, mode],
  );
  for (const r of revoked.rows) await invalidate(tx, `key:${r.key_hash}`, caches);
  const r = await tx.query<{ created_at: Date }>(
    'INSERT INTO api_keys (client_id, mode, key_hash, prefix) VALUES ($1, $2, $3, $4) RETURNING created_at',
    [clientId, mode, sha256Hex(key), prefix],
  );
  return { api_key: key, mode, api_key_prefix: prefix, created_at: r.rows[0].created_at };
}

export interface KeyOwner {
  key_id: number;
  client_id: number;
  mode: Mode;
  prefix: string;
  plan: string;
  /** the operator's admin disabled the client: its keys answer 403 account_disabled */
  disabled: boolean;
}

/** Lookup by the indexed hash, cached; a revoked key finds nothing. */
export async function findApiKey(db: Queryable, caches: Caches, key: string): Promise<KeyOwner | undefined> {
  const hash = sha256Hex(key);
  const cached = caches.apiKeys.get(hash) as KeyOwner | undefined;
  if (cached) return cached;
  const readAt = caches.apiKeys.generation;
  const r = await db.query<KeyOwner>(
    `SELECT k.id AS key_id, k.client_id, k.mode, k.prefix, c.plan, c.disabled_at IS NOT NULL AS disabled
       FROM api_keys k JOIN clients c ON c.id = k.client_id
      WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
    [hash],
  );
  if (r.rows[0]) caches.apiKeys.set(hash, r.rows[0], readAt);
  return r.rows[0];
}

/**
 * After a change to what a client's keys resolve to (plan, disabled): every instance forgets them. A
 * subscriber without the caches at hand leaves this instance's to the notification, like the others'.
 */
export async function forgetClientKeys(tx: Queryable, clientId: number, caches?: Caches): Promise<void> {
  const keys = await tx.query<{ key_hash: string }>(
    'SELECT key_hash FROM api_keys WHERE client_id = $1 AND revoked_at IS NULL',
    [clientId],
  );
  for (const k of keys.rows) await invalidate(tx, `key:${k.key_hash}`, caches);
}
