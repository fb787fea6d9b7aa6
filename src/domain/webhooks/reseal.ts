// After APP_SECRET is rotated (the old value moved to APP_SECRET_PREVIOUS), re-seals every webhook secret
// still sealed with an older key, so that the old value can then be dropped. Batches of rows, each in its
// own transaction, locked so a concurrent rotation of the same webhook is not overwritten; running it
// again finds nothing left to do.
import type { Db } from '../../db/db.ts';
import type { Sealer } from '../../secrets.ts';

const BATCH = 200;

export async function resealWebhookSecrets(db: Db, sealer: Sealer): Promise<number> {
  let resealed = 0;
  let after = 0;
  for (;;) {
    const done = await db.tx(async (tx) => {
      const r = await tx.query<{ id: number; secret_enc: string; previous_secret_enc: string | null }>(
        'SELECT id, secret_enc, previous_secret_enc FROM webhooks WHERE id > $1 ORDER BY id LIMIT $2 FOR UPDATE',
        [after, BATCH],
      );
      for (const w of r.rows) {
        after = w.id;
        const stale = (v: string | null) => v !== null && !sealer.isCurrent(v);
        if (!stale(w.secret_enc) && !stale(w.previous_secret_enc)) continue;
        const again = (v: string | null) => (v === null ? null : sealer.isCurrent(v) ? v : sealer.seal(sealer.open(v)));
        await tx.query('UPDATE webhooks SET secret_enc = $2, previous_secret_enc = $3 WHERE id = $1', [
          w.id,
          again(w.secret_enc),
          again(w.previous_secret_enc),
        ]);
        resealed++;
      }
      return r.rows.length < BATCH;
    });
    if (done) return resealed;
  }
}

/**
 * The same for provider credentials (decisions 19: sealed with APP_SECRET): a live account's, and those an
 * unfinished official-API onboarding holds between start and verify. `onlyClientId` narrows it to one
 * client (a client's credentials re-sealed alone, as the tests do on a shared store).
 */
export async function resealProviderCredentials(db: Db, sealer: Sealer, onlyClientId?: number): Promise<number> {
  let resealed = 0;
  for (const [table, key] of [
    ['provider_accounts', 'id::text'],
    ['onboarding', "client_id::text || ':' || mode"],
  ] as const) {
    let after = '';
    for (;;) {
      const done = await db.tx(async (tx) => {
        const r = await tx.query<{ k: string; sealed: string }>(
          `SELECT ${key} AS k, credentials_sealed AS sealed FROM ${table}
            WHERE credentials_sealed IS NOT NULL AND ${key} > $1 AND ($3::bigint IS NULL OR client_id = $3)
            ORDER BY ${key} LIMIT $2 FOR UPDATE`,
          [after, BATCH, onlyClientId ?? null],
        );
        for (const row of r.rows) {
          after = row.k;
          if (sealer.isCurrent(row.sealed)) continue;
          await tx.query(`UPDATE ${table} SET credentials_sealed = $2 WHERE ${key} = $1`, [
            row.k,
            sealer.seal(sealer.open(row.sealed)),
          ]);
          resealed++;
        }
        return r.rows.length < BATCH;
      });
      if (done) break;
    }
  }
  return resealed;
}
