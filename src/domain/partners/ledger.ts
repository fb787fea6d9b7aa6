// The partner balance (decisions 21): a row of available and pending tenge, changed only together with a
// ledger entry that says why, in one transaction; the balance is always the sum of the ledger (a test
// checks it after every scenario). The row is locked for each entry, so concurrent entries queue.
import type { Queryable } from '../../db/db.ts';
import type { DbSecretsDeps, DbDeps } from '../../deps.ts';
import { page, type PageResult, type Position, type Paging } from '../pagination.ts';

export const ENTRY_TYPES = [
  'commission',
  'release',
  'withdrawal_hold',
  'withdrawal_release',
  'withdrawal_paid',
  'subscription',
  'adjustment',
] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

export interface LedgerEntry {
  id: number;
  type: EntryType;
  amount: number;
  available_after: number;
  pending_after: number;
  ref: string | null;
  created_at: Date;
}

/** Writes one entry and moves the balance by its deltas; returns the balance after. */
export async function post(
  tx: Queryable,
  partnerId: number,
  e: { type: EntryType; amount: number; available: number; pending: number; ref?: string },
): Promise<{ available_kzt: number; pending_kzt: number }> {
  await tx.query('INSERT INTO partner_balances (partner_id) VALUES ($1) ON CONFLICT DO NOTHING', [partnerId]);
  const b = await tx.query<{ available_kzt: string; pending_kzt: string }>(
    `UPDATE partner_balances SET available_kzt = available_kzt + $2, pending_kzt = pending_kzt + $3, updated_at = now()
      WHERE partner_id = $1 RETURNING available_kzt, pending_kzt`,
    [partnerId, e.available, e.pending],
  );
  const after = { available_kzt: Number(b.rows[0].available_kzt), pending_kzt: Number(b.rows[0].pending_kzt) };
  await tx.query(
    `INSERT INTO partner_ledger (partner_id, type, amount, available_delta, pending_delta, available_after,
                                pending_after, ref)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [partnerId, e.type, e.amount, e.available, e.pending, after.available_kzt, after.pending_kzt, e.ref ?? null],
  );
  return after;
}

export async function balanceOf(deps: DbDeps, partnerId: number) {
  const r = await deps.db.query<{ available_kzt: string; pending_kzt: string; updated_at: Date }>(
    'SELECT available_kzt, pending_kzt, updated_at FROM partner_balances WHERE partner_id = $1',
    [partnerId],
  );
  const b = r.rows[0];
  return {
    available_kzt: Number(b?.available_kzt ?? 0),
    pending_kzt: Number(b?.pending_kzt ?? 0),
    updated_at: b?.updated_at ?? null,
  };
}

/** The invariant: the balance row equals the sums of the ledger's deltas. */
export async function ledgerMismatch(db: Queryable, partnerId: number): Promise<string | null> {
  const r = await db.query<{ a: string; p: string; la: string; lp: string }>(
    `SELECT COALESCE(b.available_kzt, 0) AS a, COALESCE(b.pending_kzt, 0) AS p,
            (SELECT COALESCE(sum(available_delta), 0) FROM partner_ledger WHERE partner_id = $1) AS la,
            (SELECT COALESCE(sum(pending_delta), 0) FROM partner_ledger WHERE partner_id = $1) AS lp
       FROM (SELECT $1::bigint AS id) x LEFT JOIN partner_balances b ON b.partner_id = x.id`,
    [partnerId],
  );
  const { a, p, la, lp } = r.rows[0];
  return Number(a) === Number(la) && Number(p) === Number(lp) ? null : `balance ${a}/${p} but ledger ${la}/${lp}`;
}

export async function listLedger(
  deps: DbSecretsDeps,
  partnerId: number,
  paging: Paging,
): Promise<PageResult<LedgerEntry>> {
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: '/partner/balance/transactions',
      filters: {},
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after: Position | undefined, take: number) => {
      const params: unknown[] = [partnerId];
      const more = after
        ? ` AND (created_at, id) < ($${params.push(after.createdAt)}, $${params.push(Number(after.id))})`
        : '';
      const r = await deps.db.query<LedgerEntry>(
        `SELECT id, type, amount::float8 AS amount, available_after::float8 AS available_after,
                pending_after::float8 AS pending_after, ref, created_at
           FROM partner_ledger WHERE partner_id = $1${more} ORDER BY created_at DESC, id DESC LIMIT ${take}`,
        params,
      );
      return r.rows;
    },
    (e) => String(e.id),
  );
}
