// The `reseal` command's share for cash registers: after APP_SECRET is rotated, re-seals with the current key
// each register's credentials and session (decisions 27: sealed like provider credentials). Batches of rows
// in id order, each in its own transaction under FOR UPDATE; running it again finds nothing left to do.
import type { Db } from '../../db/db.ts';
import type { Sealer } from '../../secrets.ts';

const BATCH = 200;

/** `onlyClientId` narrows it to one client (the tests, on a shared store). Returns the registers re-sealed. */
export async function resealFiscalCredentials(db: Db, sealer: Sealer, onlyClientId?: number): Promise<number> {
  let after = '';
  let n = 0;
  for (;;) {
    const done = await db.tx(async (tx) => {
      const r = await tx.query<{ id: string; c: string; s: string | null }>(
        `SELECT id, credentials_sealed AS c, session_sealed AS s FROM fiscal_registers
          WHERE id > $1 AND credentials_sealed <> '' AND ($3::bigint IS NULL OR client_id = $3)
          ORDER BY id LIMIT $2 FOR UPDATE`,
        [after, BATCH, onlyClientId ?? null],
      );
      for (const row of r.rows) {
        after = row.id;
        if (sealer.isCurrent(row.c) && (row.s === null || sealer.isCurrent(row.s))) continue;
        await tx.query('UPDATE fiscal_registers SET credentials_sealed = $2, session_sealed = $3 WHERE id = $1', [
          row.id,
          sealer.seal(sealer.open(row.c)),
          row.s === null ? null : sealer.seal(sealer.open(row.s)),
        ]);
        n++;
      }
      return r.rows.length < BATCH;
    });
    if (done) return n;
  }
}
