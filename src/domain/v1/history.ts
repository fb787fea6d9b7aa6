// POST /v1/history: the operations created in a period of UTC calendar days, newest first, one page.
// It reads the store like GET /v2/payments does (no provider calls); the expiry sweeper keeps
// statuses current.
import type { DbClockDeps } from '../../deps.ts';
import type { Tenant } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import { OP_COLUMNS, type Operation } from '../payments/operations.ts';

const DAY_MS = 86_400_000;
export const V1_PERIODS = [0, 1, 7, 30] as const;
export const V1_DEFAULT_PAGE_SIZE = 20;
export const V1_MAX_PAGE_SIZE = 100;

/**
 * [from, to) of a period: 0 today, 1 yesterday (the whole previous UTC day), 7 and 30 the last 7 and 30
 * UTC calendar days including today.
 */
export function periodRange(period: number, now: Date): { from: Date; to: Date } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const tomorrow = today + DAY_MS;
  switch (period) {
    case 0:
      return { from: new Date(today), to: new Date(tomorrow) };
    case 1:
      return { from: new Date(today - DAY_MS), to: new Date(today) };
    case 7:
      return { from: new Date(today - 6 * DAY_MS), to: new Date(tomorrow) };
    case 30:
      return { from: new Date(today - 29 * DAY_MS), to: new Date(tomorrow) };
  }
  throw new AppError('invalid_parameter', 'period must be 0 (today), 1 (yesterday), 7 (week) or 30 (month)', {
    param: 'period',
  });
}

export function checkPageSize(pageSize: number | undefined): number {
  if (pageSize === undefined) return V1_DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > V1_MAX_PAGE_SIZE) {
    throw new AppError('invalid_parameter', `page_size must be an integer from 1 to ${V1_MAX_PAGE_SIZE}`, {
      param: 'page_size',
    });
  }
  return pageSize;
}

export async function v1History(
  deps: DbClockDeps,
  scope: Tenant,
  input: { period: number; page_size?: number },
): Promise<{ items: Operation[]; total: number }> {
  const { from, to } = periodRange(input.period, deps.clock.now());
  const take = checkPageSize(input.page_size);
  const where = 'client_id = $1 AND mode = $2 AND created_at >= $3 AND created_at < $4';
  const params = [scope.clientId, scope.mode, from, to];
  // Both reads use operations_page_idx (client_id, mode, created_at DESC, id DESC).
  const items = await deps.db.query<Operation>(
    `SELECT ${OP_COLUMNS} FROM operations WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $5`,
    [...params, take],
  );
  const total = await deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM operations WHERE ${where}`, params);
  return { items: items.rows, total: total.rows[0].n };
}
