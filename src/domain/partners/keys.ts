// Partner integration keys (decisions 21): pk_live_/pk_test_ + 40 base62 characters, shown once, kept as
// SHA-256; one active per partner and mode, and issuing a new one revokes the old in the same
// transaction. They authenticate the partner integration API.
import type { Deps } from '../../deps.ts';
import type { Mode } from '../tenant.ts';
import { randomBase62, sha256Hex } from '../../crypto.ts';
import { PREFIX_LENGTH } from '../accounts/api-keys.ts';

export async function issuePartnerKey(deps: Deps, partnerId: number, mode: Mode) {
  const key = `pk_${mode}_${randomBase62(40)}`;
  const prefix = key.slice(0, PREFIX_LENGTH);
  return deps.db.tx(async (tx) => {
    // Two issues at once queue on the partner row, so the second revokes the first's key.
    await tx.query('SELECT 1 FROM partners WHERE id = $1 FOR UPDATE', [partnerId]);
    await tx.query('UPDATE partner_api_keys SET revoked_at = now() WHERE partner_id = $1 AND mode = $2 AND revoked_at IS NULL', [partnerId, mode]);
    const r = await tx.query<{ created_at: Date }>(
      'INSERT INTO partner_api_keys (partner_id, mode, key_hash, prefix) VALUES ($1, $2, $3, $4) RETURNING created_at',
      [partnerId, mode, sha256Hex(key), prefix],
    );
    return { api_key: key, mode, prefix, created_at: r.rows[0].created_at };
  });
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

/**
 * The partner behind an integration key, read on every call (no cache): a reissued key must stop at once
 * on every instance, and the partner API's 120 calls a minute per key make the indexed read cheap.
 */
export async function findPartnerKey(deps: Deps, key: string): Promise<PartnerKeyOwner | undefined> {
  const r = await deps.db.query<PartnerKeyOwner>(
    `SELECT k.id AS key_id, k.partner_id, p.client_id AS partner_client_id, k.mode, k.prefix, p.status AS partner_status,
            c.disabled_at IS NOT NULL AS client_disabled
       FROM partner_api_keys k JOIN partners p ON p.id = k.partner_id JOIN clients c ON c.id = p.client_id
      WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
    [sha256Hex(key)],
  );
  return r.rows[0];
}
