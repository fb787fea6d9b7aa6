// Live creates are allowed while the plan is active and under its monthly limit of live paid payments
// (UTC calendar month). Test mode never counts and is never limited.
import type { DbClockDeps } from '../../deps.ts';
import type { Tenant } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import { monthStart, planActive, PLAN_LIMITS } from '../plans.ts';

export async function paidThisMonth(deps: DbClockDeps, clientId: number): Promise<number> {
  const r = await deps.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM operations WHERE client_id = $1 AND mode = 'live' AND paid_at >= $2`,
    [clientId, monthStart(deps.clock.now())],
  );
  return r.rows[0].n;
}

export async function assertPlanAllowsCreate(deps: DbClockDeps, tenant: Tenant): Promise<void> {
  const { clientId, mode } = tenant;
  if (mode === 'test') return;
  const r = await deps.db.query<{ plan: string; trial_ends_at: Date; plan_expires_at: Date | null }>(
    'SELECT plan, trial_ends_at, plan_expires_at FROM clients WHERE id = $1',
    [clientId],
  );
  const c = r.rows[0];
  if (!planActive(c, deps.clock.now())) {
    throw new AppError(
      'plan_inactive',
      c.plan === 'trial' ? 'the 14-day trial is over; choose a plan' : 'the plan has expired; renew it',
    );
  }
  const limit = PLAN_LIMITS[c.plan];
  if (limit === null) return;
  const used = await paidThisMonth(deps, clientId);
  if (used >= limit) {
    throw new AppError('plan_limit_exceeded', `the ${c.plan} plan allows ${limit} live payments a month; ${used} used`);
  }
}
