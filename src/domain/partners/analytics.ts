// Partner analytics (decisions 21), in UTC days. A period `7d`, `30d`, `90d` or `365d` runs from the
// start of the UTC day N-1 days ago to now; `all` from the partner's first day. Each figure is one SQL
// statement over indexed columns (the partner's clients, the platform's plan QRs by buyer, commissions
// by partner), so it stays fast for a partner with many clients (bench/analytics.ts: 10,000 clients).
import type { DbClockDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { Partner } from './profile.ts';
import { planActiveSql } from '../plans.ts';

export const PERIODS = ['7d', '30d', '90d', '365d', 'all'] as const;
export type Period = (typeof PERIODS)[number];
export const INTERVALS = ['day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

const dayStart = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

export function periodRange(period: Period, now: Date, partnerCreated: Date): { from: Date; to: Date } {
  if (period === 'all') return { from: dayStart(partnerCreated), to: now };
  const days = Number(period.slice(0, -1));
  return { from: new Date(dayStart(now).getTime() - (days - 1) * 86400_000), to: now };
}

// The partner's plan QRs paid in [$2, $3]: operations of the platform client whose buyer is its client.
const PLAN_PAYMENTS = `
  SELECT o.subscription_client_id AS client_id, o.amount - o.refunded_amount AS net, o.paid_at
    FROM operations o JOIN clients c ON c.id = o.subscription_client_id
   WHERE c.partner_id = $1 AND o.source = 'subscription' AND o.paid_at >= $2 AND o.paid_at <= $3`;

/** The statements, exported so the bench can run the same SQL bare (bench/analytics.ts). */
export const SUMMARY_SQL = `SELECT
       (SELECT count(*) FROM clients WHERE partner_id = $1 AND created_at <= $3) AS clients_total,
       (SELECT count(*) FROM clients WHERE partner_id = $1 AND created_at >= $2 AND created_at <= $3) AS clients_new,
       (SELECT count(*) FROM clients c WHERE c.partner_id = $1
           AND ${planActiveSql('$3')}
           AND EXISTS (SELECT 1 FROM provider_accounts a
                        WHERE a.client_id = c.id AND a.mode = 'live' AND a.deleted_at IS NULL AND a.session_alive))
           AS clients_active,
       (SELECT count(DISTINCT client_id) FROM (${PLAN_PAYMENTS}) p) AS clients_paying,
       (SELECT COALESCE(sum(net), 0) FROM (${PLAN_PAYMENTS}) p) AS revenue_kzt,
       (SELECT COALESCE(sum(amount), 0) FROM commissions
         WHERE partner_id = $1 AND created_at >= $2 AND created_at <= $3) AS commissions_kzt,
       (SELECT available_kzt FROM partner_balances WHERE partner_id = $1) AS available_kzt,
       (SELECT pending_kzt FROM partner_balances WHERE partner_id = $1) AS pending_kzt`;

export async function summary(deps: DbClockDeps, partner: Partner, period: Period) {
  const { from, to } = periodRange(period, deps.clock.now(), partner.created_at);
  const r = await deps.db.query<Record<string, string>>(SUMMARY_SQL, [partner.id, from, to]);
  const n = (k: string) => Number(r.rows[0][k] ?? 0);
  return {
    period,
    from,
    to,
    clients_total: n('clients_total'),
    clients_new: n('clients_new'),
    clients_active: n('clients_active'),
    clients_paying: n('clients_paying'),
    revenue_kzt: n('revenue_kzt'),
    commissions_kzt: n('commissions_kzt'),
    balance: { available_kzt: n('available_kzt'), pending_kzt: n('pending_kzt') },
  };
}

/**
 * The clients registered in the period, step by step; each step counts those that reached it and every
 * step before, so the funnel never rises after the clicks: registered, then a live provider account
 * (ever connected), then a paid live payment, then a paid plan.
 */
export const FUNNEL_SQL = `WITH reg AS (
       SELECT c.id,
              EXISTS (SELECT 1 FROM provider_accounts a WHERE a.client_id = c.id AND a.mode = 'live') AS connected,
              EXISTS (SELECT 1 FROM operations o
                       WHERE o.client_id = c.id AND o.mode = 'live' AND o.paid_at IS NOT NULL) AS paid_live,
              EXISTS (SELECT 1 FROM operations o
                       WHERE o.subscription_client_id = c.id AND o.paid_at IS NOT NULL) AS paid_plan
         FROM clients c WHERE c.partner_id = $1 AND c.created_at >= $2 AND c.created_at <= $3)
     SELECT (SELECT count(*) FROM referral_clicks
              WHERE partner_id = $1 AND created_at >= $2 AND created_at <= $3) AS link_clicks,
            count(*) AS registered,
            count(*) FILTER (WHERE connected) AS provider_connected,
            count(*) FILTER (WHERE connected AND paid_live) AS first_live_payment,
            count(*) FILTER (WHERE connected AND paid_live AND paid_plan) AS paid_subscription
       FROM reg`;

export async function funnel(deps: DbClockDeps, partner: Partner, period: Period) {
  const { from, to } = periodRange(period, deps.clock.now(), partner.created_at);
  const r = await deps.db.query<Record<string, string>>(FUNNEL_SQL, [partner.id, from, to]);
  return ['link_clicks', 'registered', 'provider_connected', 'first_live_payment', 'paid_subscription'].map((step) => ({
    step,
    value: Number(r.rows[0][step]),
  }));
}

/** Commissions earned and plan revenue per UTC day, ISO week (from Monday) or month, zero-filled. */
export async function incomeGraph(deps: DbClockDeps, partner: Partner, period: Period, interval: Interval) {
  if (!INTERVALS.includes(interval))
    throw new AppError('invalid_parameter', 'interval is day, week or month', { param: 'interval' });
  const { from, to } = periodRange(period, deps.clock.now(), partner.created_at);
  const r = await deps.db.query<{ date: string; commissions_kzt: string; revenue_kzt: string }>(
    `WITH buckets AS (
       SELECT generate_series(date_trunc($4, $2::timestamptz AT TIME ZONE 'UTC'),
                              date_trunc($4, $3::timestamptz AT TIME ZONE 'UTC'), ('1 ' || $4)::interval) AS b),
     com AS (SELECT date_trunc($4, created_at AT TIME ZONE 'UTC') AS b, sum(amount) AS s FROM commissions
              WHERE partner_id = $1 AND created_at >= $2 AND created_at <= $3 GROUP BY 1),
     rev AS (SELECT date_trunc($4, paid_at AT TIME ZONE 'UTC') AS b, sum(net) AS s FROM (${PLAN_PAYMENTS}) p GROUP BY 1)
     SELECT to_char(buckets.b, 'YYYY-MM-DD') AS date, COALESCE(com.s, 0) AS commissions_kzt,
            COALESCE(rev.s, 0) AS revenue_kzt
       FROM buckets LEFT JOIN com ON com.b = buckets.b LEFT JOIN rev ON rev.b = buckets.b ORDER BY buckets.b`,
    [partner.id, from, to, interval],
  );
  return {
    data: r.rows.map((x) => ({
      date: x.date,
      commissions_kzt: Number(x.commissions_kzt),
      revenue_kzt: Number(x.revenue_kzt),
    })),
  };
}
