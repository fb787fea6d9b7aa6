// The fiscal_shifts table (owner: domain/fiscal): each register's shifts as Tolem saw them open and close,
// with their Z-report totals.
import type { Queryable } from '../../db/db.ts';
import type { ZReport } from '../../fiscal/types.ts';

/** A shift Tolem saw open (the first receipt of a shift opens it at the service). */
export async function recordShiftOpen(db: Queryable, registerId: string, number: number, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO fiscal_shifts (register_id, number, opened_at) VALUES ($1, $2, $3)
     ON CONFLICT (register_id, number) DO NOTHING`,
    [registerId, number, at],
  );
}

export async function recordShiftClosed(db: Queryable, registerId: string, z: ZReport): Promise<void> {
  await db.query(
    `INSERT INTO fiscal_shifts (register_id, number, opened_at, closed_at, sale_count, sale_total, return_count,
            return_total, offline_count)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (register_id, number) DO UPDATE SET opened_at = COALESCE(fiscal_shifts.opened_at, EXCLUDED.opened_at),
            closed_at = EXCLUDED.closed_at, sale_count = EXCLUDED.sale_count, sale_total = EXCLUDED.sale_total,
            return_count = EXCLUDED.return_count, return_total = EXCLUDED.return_total,
            offline_count = EXCLUDED.offline_count`,
    [
      registerId,
      z.shiftNumber,
      z.openedAt,
      z.closedAt,
      z.saleCount,
      z.saleTotal,
      z.returnCount,
      z.returnTotal,
      z.offlineCount,
    ],
  );
}

export interface Shift {
  number: number;
  opened_at: Date | null;
  closed_at: Date | null;
  sale_count: number | null;
  sale_total: number | null;
  return_count: number | null;
  return_total: number | null;
  offline_count: number | null;
}

/** A register's shifts, newest first, keyset by number (at most `take` rows after `before`). */
export async function shiftsOf(db: Queryable, registerId: string, before: number | null, take: number) {
  const r = await db.query<Shift>(
    `SELECT number, opened_at, closed_at, sale_count, sale_total, return_count, return_total, offline_count
       FROM fiscal_shifts WHERE register_id = $1 AND ($2::integer IS NULL OR number < $2)
      ORDER BY number DESC LIMIT ${Math.trunc(take)}`,
    [registerId, before],
  );
  return r.rows;
}
