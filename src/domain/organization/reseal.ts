// The `reseal` command's share beside webhook secrets and provider credentials (domain/webhooks/reseal.ts):
// after APP_SECRET is rotated, re-seals with the current key the organization's IBAN (and seals those an
// earlier version kept in clear), the partner's bank details and a withdrawal's copy of them, withdrawal
// codes, and the channel messages' sealed texts (issue 38). Same pattern: batches of rows, each batch in
// its own transaction under FOR UPDATE; running it again finds nothing left to do.
import type { Db, Queryable } from '../../db/db.ts';
import type { Sealer } from '../../secrets.ts';

const BATCH = 200;

/** Runs `step` over a table's rows in key order, a batch per transaction, until a batch comes back short. */
async function inBatches<R extends { k: number }>(
  db: Db,
  select: (after: number) => [string, unknown[]],
  step: (tx: Queryable, row: R) => Promise<void>,
) {
  let after = 0;
  for (;;) {
    const done = await db.tx(async (tx) => {
      const r = await tx.query<R>(...select(after));
      for (const row of r.rows) {
        after = Number(row.k);
        await step(tx, row);
      }
      return r.rows.length < BATCH;
    });
    if (done) return;
  }
}

/** `onlyClientId` narrows it to one client (the tests, on a shared store). */
export async function resealOrganizationIbans(
  db: Db,
  sealer: Sealer,
  onlyClientId?: number,
): Promise<{ sealed: number; resealed: number }> {
  const n = { sealed: 0, resealed: 0 };
  await inBatches<{ k: number; iban: string | null; iban_sealed: string | null }>(
    db,
    (after) => [
      `SELECT client_id AS k, bank_iban AS iban, bank_iban_sealed AS iban_sealed FROM organizations
      WHERE (bank_iban IS NOT NULL OR bank_iban_sealed IS NOT NULL) AND client_id > $1 AND ($3::bigint IS NULL
        OR client_id = $3)
      ORDER BY client_id LIMIT $2 FOR UPDATE`,
      [after, BATCH, onlyClientId ?? null],
    ],
    async (tx, row) => {
      // One in clear is the newer value (organization.ts): it replaces the sealed one.
      if (row.iban !== null) n.sealed++;
      else if (sealer.isCurrent(row.iban_sealed!)) return;
      else n.resealed++;
      const plain = row.iban ?? sealer.open(row.iban_sealed!);
      await tx.query('UPDATE organizations SET bank_iban = NULL, bank_iban_sealed = $2 WHERE client_id = $1', [
        row.k,
        sealer.seal(plain),
      ]);
    },
  );
  return n;
}

/** Sealed columns with a numeric key, re-sealed as they are. */
const SEALED = [
  ['partner_bank', 'partner_id', 'details_sealed'],
  ['withdrawals', 'id', 'bank_sealed'],
  ['withdrawals', 'id', 'code_sealed'],
  ['outbox_messages', 'id', 'body_sealed'],
] as const;

async function resealColumn(db: Db, sealer: Sealer, [table, key, column]: (typeof SEALED)[number]): Promise<number> {
  let resealed = 0;
  await inBatches<{ k: number; sealed: string }>(
    db,
    (after) => [
      `SELECT ${key} AS k, ${column} AS sealed FROM ${table} WHERE ${column} IS NOT NULL AND ${key} > $1 ORDER BY ${key}
        LIMIT $2 FOR UPDATE`,
      [after, BATCH],
    ],
    async (tx, row) => {
      if (sealer.isCurrent(row.sealed)) return;
      await tx.query(`UPDATE ${table} SET ${column} = $2 WHERE ${key} = $1`, [
        row.k,
        sealer.seal(sealer.open(row.sealed)),
      ]);
      resealed++;
    },
  );
  return resealed;
}

/** Everything above, for the `reseal` command: how many values were re-sealed, and IBANs sealed from clear. */
export async function resealAtRest(db: Db, sealer: Sealer): Promise<{ sealed: number; resealed: number }> {
  const n = await resealOrganizationIbans(db, sealer);
  for (const c of SEALED) n.resealed += await resealColumn(db, sealer, c);
  return n;
}
