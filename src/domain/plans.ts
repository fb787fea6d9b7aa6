// Plans: monthly limits on live paid payments, and whether a plan is active now.

/** Every plan a client can be on (the clients.plan CHECK). */
export const PLANS = ['trial', 'starter', 'professional', 'enterprise'] as const;

export const PLAN_LIMITS: Record<string, number | null> = {
  trial: 30,
  starter: 200,
  professional: 1500,
  enterprise: null, // unlimited (the specification's 999999)
};

export const RETENTION_DAYS: Record<string, number> = {
  trial: 30,
  starter: 92,
  professional: 548,
  enterprise: 548,
};

export interface PlanState {
  plan: string;
  trial_ends_at: Date;
  plan_expires_at: Date | null;
}

export function planActive(c: PlanState, now: Date): boolean {
  if (c.plan === 'trial') return c.trial_ends_at.getTime() > now.getTime();
  return c.plan_expires_at === null || c.plan_expires_at.getTime() > now.getTime();
}

/** planActive as SQL over a `clients` row aliased `c`, at the instant in parameter `$at` (e.g. '$1'). */
export const planActiveSql = (at: string) =>
  `(CASE WHEN c.plan = 'trial' THEN c.trial_ends_at > ${at}
    ELSE c.plan_expires_at IS NULL OR c.plan_expires_at > ${at} END)`;

/** Start of the UTC calendar month containing `now`. */
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}
