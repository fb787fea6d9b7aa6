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
        await tx.query('UPDATE webhooks SET secret_enc = $2, previous_secret_enc = $3 WHERE id = $1', [w.id, again(w.secret_enc), again(w.previous_secret_enc)]);
        resealed++;
      }
      return r.rows.length < BATCH;
    });
    if (done) return resealed;
  }
}
