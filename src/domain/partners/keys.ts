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
