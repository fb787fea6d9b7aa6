// Counters of paid payments for the cabinet: statistics (per mode) and usage (live, 14 days).
// Days are UTC calendar days.
import type { DbClockDeps, DbDeps } from '../../deps.ts';
import type { Mode, Tenant } from '../tenant.ts';
import { monthStart } from '../plans.ts';

const day = (d: Date) => d.toISOString().slice(0, 10);
const startOfDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

async function paidByDay(
  deps: DbDeps,
  clientId: number,
  mode: Mode,
  from: Date,
): Promise<Map<string, { count: number; amount: number }>> {
  const r = await deps.db.query<{ d: string; count: number; amount: number }>(
    `SELECT to_char(paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS d, count(*)::int AS count,
            COALESCE(sum(amount), 0)::bigint AS amount
       FROM operations WHERE client_id = $1 AND mode = $2 AND paid_at >= $3 GROUP BY 1`,
    [clientId, mode, from],
  );
  return new Map(r.rows.map((x) => [x.d, { count: x.count, amount: x.amount }]));
}

function days(now: Date, n: number): string[] {
  const today = startOfDay(now).getTime();
  return Array.from({ length: n }, (_, i) => day(new Date(today - (n - 1 - i) * 86400_000)));
}

export async function usage(deps: DbClockDeps, tenant: Tenant) {
  const { clientId } = tenant;
  const now = deps.clock.now();
  const from = new Date(startOfDay(now).getTime() - 13 * 86400_000);
  const byDay = await paidByDay(deps, clientId, 'live', from);
  const month = await deps.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM operations WHERE client_id = $1 AND mode = 'live' AND paid_at >= $2`,
    [clientId, monthStart(now)],
  );
  return {
    today: byDay.get(day(now))?.count ?? 0,
    month: month.rows[0].n,
    daily: days(now, 14).map((date) => ({ date, count: byDay.get(date)?.count ?? 0 })),
  };
}

export async function stats(deps: DbClockDeps, tenant: Tenant) {
  const { clientId, mode } = tenant;
  const now = deps.clock.now();
  const r = await deps.db.query<{
    month_count: number;
    month_amount: number;
    all_count: number;
    all_amount: number;
    created_30: number;
    paid_30: number;
  }>(
    `SELECT count(*) FILTER (WHERE paid_at >= $3)::int AS month_count,
            COALESCE(sum(amount) FILTER (WHERE paid_at >= $3), 0)::bigint AS month_amount,
            count(*) FILTER (WHERE paid_at IS NOT NULL)::int AS all_count,
            COALESCE(sum(amount) FILTER (WHERE paid_at IS NOT NULL), 0)::bigint AS all_amount,
            count(*) FILTER (WHERE created_at >= $4)::int AS created_30,
            count(*) FILTER (WHERE created_at >= $4 AND paid_at IS NOT NULL)::int AS paid_30
       FROM operations WHERE client_id = $1 AND mode = $2`,
    [clientId, mode, monthStart(now), new Date(now.getTime() - 30 * 86400_000)],
  );
  const s = r.rows[0];
  const byDay = await paidByDay(deps, clientId, mode, new Date(startOfDay(now).getTime() - 13 * 86400_000));
  const today = byDay.get(day(now)) ?? { count: 0, amount: 0 };
  return {
    today,
    week: days(now, 7).map((date) => ({ date, ...(byDay.get(date) ?? { count: 0, amount: 0 }) })),
    // Added for the dashboard's overview chart: the same, over 14 days.
    days_14: days(now, 14).map((date) => ({ date, ...(byDay.get(date) ?? { count: 0, amount: 0 }) })),
    month: { count: s.month_count, amount: s.month_amount },
    all_time: { count: s.all_count, amount: s.all_amount },
    // Share of the payments created in the last 30 days that were paid.
    conversion: s.created_30 ? Math.round((s.paid_30 / s.created_30) * 10000) / 10000 : 0,
  };
}
