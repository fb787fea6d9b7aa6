// The daily summary of staff alerts (decisions 28): at the local hour a member chose (UTC+5, Kazakhstan's
// one time zone), the previous local day's totals of its mode: payments paid (count and sum), refunds
// completed (count and sum) and receipts that failed. Counted from the journal, whose events say exactly
// these things and are indexed by client, mode, type and time.
//
// Once per member, mode and day: a row's summary_sent_on is moved to the local day by a guarded update in
// the transaction that writes the messages, so two workers, or a pass repeated within the hour, send it
// once. A member whose hour passed while no worker ran (a deploy) gets it at the next pass that day.
import type { DbClockDeps } from '../../deps.ts';
import type { Queryable } from '../../db/db.ts';
import type { Mode } from '../tenant.ts';
import { sendAlert, alertDashboardUrl, type Recipient } from './staff-alerts.ts';
import { summaryText, type DayTotals } from './alert-words.ts';

const OFFSET_MS = 5 * 3_600_000;
const DAY_MS = 86_400_000;

/** The local day (YYYY-MM-DD) and hour at UTC+5 of an instant, and the instants bounding the day before. */
export function localDay(now: Date): { today: string; hour: number; yesterday: string; from: Date; to: Date } {
  const local = new Date(now.getTime() + OFFSET_MS);
  const midnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  const to = new Date(midnight - OFFSET_MS);
  return {
    today: new Date(midnight).toISOString().slice(0, 10),
    hour: local.getUTCHours(),
    yesterday: new Date(midnight - DAY_MS).toISOString().slice(0, 10),
    from: new Date(to.getTime() - DAY_MS),
    to,
  };
}

interface Due {
  user_id: number;
  client_id: number;
  mode: Mode;
}

async function dayTotals(db: Queryable, clientId: number, mode: Mode, from: Date, to: Date): Promise<DayTotals> {
  const r = await db.query<{ pc: number; ps: number; rc: number; rs: number; fc: number }>(
    `SELECT count(*) FILTER (WHERE type = 'payment.completed')::int AS pc,
            COALESCE(sum((data->>'amount')::bigint) FILTER (WHERE type = 'payment.completed'), 0)::bigint AS ps,
            count(*) FILTER (WHERE type = 'payment.refunded')::int AS rc,
            COALESCE(sum((data->>'amount')::bigint) FILTER (WHERE type = 'payment.refunded'), 0)::bigint AS rs,
            count(*) FILTER (WHERE type = 'receipt.failed')::int AS fc
       FROM events
      WHERE client_id = $1 AND mode = $2 AND type IN ('payment.completed', 'payment.refunded', 'receipt.failed')
        AND created_at >= $3 AND created_at < $4`,
    [clientId, mode, from, to],
  );
  const x = r.rows[0];
  return {
    paid: { count: x.pc, sum: Number(x.ps) },
    refunded: { count: x.rc, sum: Number(x.rs) },
    receiptsFailed: x.fc,
  };
}

/**
 * One pass of the summary job: up to `limit` members whose hour has come today and who were not sent
 * today's summary. Returns how many rows it settled (sent, or passed over for a member no longer
 * reachable), so the loop runs again at once after a full batch.
 */
export async function sendDailySummaries(
  deps: DbClockDeps,
  limit: number,
  stopping: () => boolean = () => false,
): Promise<number> {
  const day = localDay(deps.clock.now());
  const due = await deps.db.query<Due>(
    `SELECT user_id, client_id, mode FROM notification_settings
      WHERE daily_summary AND summary_hour <= $1 AND (summary_sent_on IS NULL OR summary_sent_on < $2::date)
      ORDER BY summary_hour, user_id LIMIT $3`,
    [day.hour, day.today, limit],
  );
  // A client's members of one mode share the day's totals: counted once per pass.
  const totals = new Map<string, DayTotals>();
  let settled = 0;
  for (const d of due.rows) {
    if (stopping()) break;
    await deps.db.tx(async (tx) => {
      const claimed = await tx.query<Recipient & { reachable: boolean }>(
        `UPDATE notification_settings s SET summary_sent_on = $3::date
           FROM users u JOIN clients c ON c.id = u.client_id
          WHERE s.user_id = $1 AND s.mode = $2 AND s.daily_summary
            AND (s.summary_sent_on IS NULL OR s.summary_sent_on < $3::date) AND u.id = s.user_id
          RETURNING u.email, u.messenger_chat_id AS chat, s.by_email, s.by_messenger,
                    (u.disabled_at IS NULL AND u.status = 'active' AND c.disabled_at IS NULL) AS reachable`,
        [d.user_id, d.mode, day.today],
      );
      const to = claimed.rows.filter((x) => x.reachable);
      settled += claimed.rowCount;
      if (!to.length) return;
      const key = `${d.client_id}:${d.mode}`;
      let sums = totals.get(key);
      if (!sums) totals.set(key, (sums = await dayTotals(tx, d.client_id, d.mode, day.from, day.to)));
      const text = summaryText({ mode: d.mode, day: day.yesterday, totals: sums, link: alertDashboardUrl() });
      await sendAlert(tx, d.client_id, to, text, 'alert_daily_summary');
    });
  }
  return settled;
}
