// Partner integration keys (decisions 21): pk_live_/pk_test_ + 40 base62 characters, shown once, kept as
// SHA-256; one active per partner and mode, and issuing a new one revokes the old in the same
// transaction. They authenticate the partner integration API, read through the key cache like clients'
// API keys: a reissue, a partner's change of status or its account disabled evicts them on every instance.
import type { Deps } from '../../deps.ts';
import type { Mode } from '../tenant.ts';
import type { Queryable } from '../../db/db.ts';
import { randomBase62, sha256Hex } from '../../crypto.ts';
import { invalidate, type Caches } from '../../infra/cache.ts';
import { PREFIX_LENGTH } from '../accounts/api-keys.ts';

export async function issuePartnerKey(deps: Pick<Deps, 'db' | 'caches'>, partnerId: number, mode: Mode) {
  const key = `pk_${mode}_${randomBase62(40)}`;
  const prefix = key.slice(0, PREFIX_LENGTH);
  return deps.db.tx(async (tx) => {
    // Two issues at once queue on the partner row, so the second revokes the first's key.
    await tx.query('SELECT 1 FROM partners WHERE id = $1 FOR UPDATE', [partnerId]);
    const revoked = await tx.query<{ key_hash: string }>(
      `UPDATE partner_api_keys SET revoked_at = now() WHERE partner_id = $1 AND mode = $2 AND revoked_at IS NULL
        RETURNING key_hash`,
      [partnerId, mode],
    );
    for (const k of revoked.rows) await invalidate(tx, `key:${k.key_hash}`, deps.caches);
    const r = await tx.query<{ created_at: Date }>(
      'INSERT INTO partner_api_keys (partner_id, mode, key_hash, prefix) VALUES ($1, $2, $3, $4) RETURNING created_at',
      [partnerId, mode, sha256Hex(key), prefix],
    );
    return { api_key: key, mode, prefix, created_at: r.rows[0].created_at };
  });
}

/** The partner's keys in force (at most one per mode): what it can see of them, never the key. */
export async function listPartnerKeys(deps: Pick<Deps, 'db'>, partnerId: number) {
  const r = await deps.db.query<{ mode: Mode; prefix: string; created_at: Date }>(
    'SELECT mode, prefix, created_at FROM partner_api_keys WHERE partner_id = $1 AND revoked_at IS NULL ORDER BY mode',
    [partnerId],
  );
  return r.rows;
}

export const PARTNER_KEY_RE = /^pk_(live|test)_[0-9A-Za-z]{40}$/;

export interface PartnerKeyOwner {
  key_id: number;
  partner_id: number;
  partner_client_id: number;
  mode: Mode;
  prefix: string;
  partner_status: string;
  client_disabled: boolean;
}

/** The partner behind an integration key; a revoked key finds nothing. Cached as clients' API keys are. */
export async function findPartnerKey(
  deps: Pick<Deps, 'db' | 'caches'>,
  key: string,
): Promise<PartnerKeyOwner | undefined> {
  const hash = sha256Hex(key);
  const cached = deps.caches.apiKeys.get(hash) as PartnerKeyOwner | undefined;
  if (cached) return cached;
  const readAt = deps.caches.apiKeys.generation;
  const r = await deps.db.query<PartnerKeyOwner>(
    `SELECT k.id AS key_id, k.partner_id, p.client_id AS partner_client_id, k.mode, k.prefix,
            p.status AS partner_status, c.disabled_at IS NOT NULL AS client_disabled
       FROM partner_api_keys k JOIN partners p ON p.id = k.partner_id JOIN clients c ON c.id = p.client_id
      WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
    [hash],
  );
  if (r.rows[0]) deps.caches.apiKeys.set(hash, r.rows[0], readAt);
  return r.rows[0];
}

/** After a change to what a partner's keys resolve to (its status, its account disabled): evicted everywhere. */
export async function forgetPartnerKeys(
  tx: Queryable,
  by: { partnerId?: number; clientId?: number },
  caches?: Caches,
): Promise<void> {
  const keys = await tx.query<{ key_hash: string }>(
    `SELECT k.key_hash FROM partner_api_keys k JOIN partners p ON p.id = k.partner_id
      WHERE k.revoked_at IS NULL AND (p.id = $1 OR p.client_id = $2)`,
    [by.partnerId ?? null, by.clientId ?? null],
  );
  for (const k of keys.rows) await invalidate(tx, `key:${k.key_hash}`, caches);
}
