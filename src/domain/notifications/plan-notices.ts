// Plan notifications: a client nearing (80 %) or reaching its monthly limit of live paid payments, and a
// trial or paid plan ending within three days. Each is created at most once per month or per end date
// (notify's dedupe key), so the callers may run as often as they like.
import type { Queryable } from '../../db/db.ts';
import { monthStart, PLAN_LIMITS } from '../plans.ts';
import { notify } from './notify.ts';

/** Share of the monthly limit at which `plan.limit_near` is sent. */
export const LIMIT_NEAR_SHARE = 0.8;
/** How long before the end of a trial or plan `trial.ending` / `plan.expiring` is sent. */
export const ENDING_NOTICE_DAYS = 3;

/**
 * Called in the transaction that marks a live payment paid, so the counter includes it. Under concurrent
 * payments a count may miss a sibling still uncommitted; the next payment of the month catches up.
 */
export async function noticePlanUsage(tx: Queryable, clientId: number, paidAt: Date): Promise<void> {
  const from = monthStart(paidAt);
  const p = await tx.query<{ plan: string }>('SELECT plan FROM clients WHERE id = $1', [clientId]);
  const limit = p.rows[0] ? PLAN_LIMITS[p.rows[0].plan] : null;
  if (limit === null || limit === undefined) return;
  // Payments recorded at once each see the other's row only after it commits: unserialized, two that
  // reach the limit together both count one short, and no later payment can send the notice (new live
  // payments are refused then). The client row queues them, and the count is a statement of its own so
  // that it reads after the lock is granted (a statement sees what was committed when it began).
  await tx.query('SELECT 1 FROM clients WHERE id = $1 FOR NO KEY UPDATE', [clientId]);
  const r = await tx.query<{ plan: string; used: number }>(
    `SELECT c.plan,
            (SELECT count(*)::int FROM operations o
              WHERE o.client_id = c.id AND o.mode = 'live' AND o.paid_at >= $2) AS used
       FROM clients c WHERE c.id = $1`,
    [clientId, from],
  );
  const row = r.rows[0];
  const month = from.toISOString().slice(0, 7);
  if (row.used >= limit) {
    await notify(tx, clientId, {
      type: 'plan.limit_reached',
      params: { plan: row.plan, limit, month },
      title: 'Monthly limit reached',
      body:
        `The ${row.plan} plan allows ${limit} live payments a month and all ${limit} are used for ${month}. ` +
        'New live payments are refused until next month or until you move to a larger plan.',
      dedupeKey: `plan_limit_reached:${month}`,
    });
  } else if (row.used >= Math.ceil(limit * LIMIT_NEAR_SHARE)) {
    await notify(tx, clientId, {
      type: 'plan.limit_near',
      params: { plan: row.plan, used: row.used, limit, month },
      title: 'Monthly limit nearly reached',
      body: `${row.used} of the ${limit} live payments of the ${row.plan} plan are used for ${month}.`,
      dedupeKey: `plan_limit_near:${month}`,
    });
  }
}

/**
 * One set-based pass of the worker: every trial ending and every paid plan expiring within
 * ENDING_NOTICE_DAYS gets its notification once. Returns how many were created.
 */
export async function noticeEndingPlans(db: Queryable, now: Date): Promise<number> {
  const r = await db.query(
    `INSERT INTO notifications (client_id, type, title, body, params, dedupe_key)
     SELECT id, kind,
            CASE kind WHEN 'trial.ending' THEN 'Your trial ends soon' ELSE 'Your plan expires soon' END,
            CASE kind WHEN 'trial.ending'
              THEN 'The 14-day trial ends on ' || to_char(ends_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') ||
                   ' UTC. Choose a plan to keep taking live payments; test mode keeps working.'
              ELSE 'The ' || plan || ' plan expires on ' || to_char(ends_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') ||
                   ' UTC. Renew it to keep taking live payments.' END,
            CASE kind WHEN 'trial.ending' THEN jsonb_build_object('ends_at', iso)
              ELSE jsonb_build_object('plan', plan, 'ends_at', iso) END,
            kind || ':' || to_char(ends_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS')
       FROM (SELECT id, plan,
                    CASE WHEN plan = 'trial' THEN 'trial.ending' ELSE 'plan.expiring' END AS kind,
                    CASE WHEN plan = 'trial' THEN trial_ends_at ELSE plan_expires_at END AS ends_at
               FROM clients) c,
            LATERAL (SELECT to_char(ends_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS iso) t
      WHERE ends_at > $1 AND ends_at <= $1::timestamptz + make_interval(days => $2)
     ON CONFLICT (client_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING`,
    [now, ENDING_NOTICE_DAYS],
  );
  return r.rowCount ?? 0;
}
