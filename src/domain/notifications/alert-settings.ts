// Staff alerts (decisions 28): which alerts a team member wants in one mode (a payment paid, a refund
// completed, a receipt failed, the previous day's summary at a local hour) and by which channel (e-mail,
// the messenger chat the user bound). Each user reads and changes its own; nobody else's.
//
// Defaults, for a user who never saved its settings (no row): the receipt-failed alert by e-mail for the
// owner and the admins, who are the ones able to act on it (retry the receipt, fix the register), and
// nothing else for anyone: a paid or refunded alert per payment would flood a busy shop's inbox unasked.
// They are computed from the role when read, so a new member or a changed role needs no row written.
import type { Queryable } from '../../db/db.ts';
import type { DbDeps } from '../../deps.ts';
import type { Mode, Tenant } from '../tenant.ts';

export const ALERTS = ['payment_paid', 'refund_completed', 'receipt_failed', 'daily_summary'] as const;
export type Alert = (typeof ALERTS)[number];

export interface AlertSettings {
  payment_paid: boolean;
  refund_completed: boolean;
  receipt_failed: boolean;
  daily_summary: boolean;
  /** the local hour (UTC+5, 0..23) of the daily summary */
  summary_hour: number;
  email: boolean;
  messenger: boolean;
}

export interface AlertSettingsView extends AlertSettings {
  mode: Mode;
  /** whether the user has a messenger chat bound: messenger alerts go only there */
  messenger_linked: boolean;
  /** false while the role's defaults apply (nothing saved yet) */
  customized: boolean;
}

/** The roles whose members get the receipt-failed alert by e-mail until they say otherwise. */
export const RECEIPT_FAILED_ROLES = ['owner', 'admin'];
export const DEFAULT_SUMMARY_HOUR = 9;

export function defaultSettings(role: string): AlertSettings {
  return {
    payment_paid: false,
    refund_completed: false,
    receipt_failed: RECEIPT_FAILED_ROLES.includes(role),
    daily_summary: false,
    summary_hour: DEFAULT_SUMMARY_HOUR,
    email: true,
    messenger: false,
  };
}

interface Row {
  role: string;
  chat: string | null;
  payment_paid: boolean | null;
  refund_completed: boolean | null;
  receipt_failed: boolean | null;
  daily_summary: boolean | null;
  summary_hour: number | null;
  by_email: boolean | null;
  by_messenger: boolean | null;
}

async function readRow(db: Queryable, userId: number, t: Tenant): Promise<Row | undefined> {
  const r = await db.query<Row>(
    `SELECT u.role, u.messenger_chat_id AS chat, s.payment_paid, s.refund_completed, s.receipt_failed,
            s.daily_summary, s.summary_hour, s.by_email, s.by_messenger
       FROM users u LEFT JOIN notification_settings s ON s.user_id = u.id AND s.mode = $3
      WHERE u.id = $1 AND u.client_id = $2`,
    [userId, t.clientId, t.mode],
  );
  return r.rows[0];
}

function view(row: Row, mode: Mode): AlertSettingsView {
  const saved = row.by_email !== null;
  const s: AlertSettings = saved
    ? {
        payment_paid: row.payment_paid!,
        refund_completed: row.refund_completed!,
        receipt_failed: row.receipt_failed!,
        daily_summary: row.daily_summary!,
        summary_hour: row.summary_hour!,
        email: row.by_email!,
        messenger: row.by_messenger!,
      }
    : defaultSettings(row.role);
  return Object.assign(s, { mode, messenger_linked: row.chat !== null, customized: saved });
}

/** GET /me/notification-settings: the caller's own, in the tenant's mode. */
export async function getAlertSettings(deps: DbDeps, t: Tenant & { userId: number }): Promise<AlertSettingsView> {
  const row = await readRow(deps.db, t.userId, t);
  // The caller's user exists (its token was just checked against it); a missing row is a race with removal.
  if (!row) throw new Error(`user ${t.userId} of client ${t.clientId} not found`);
  return view(row, t.mode);
}

/**
 * PATCH /me/notification-settings: the fields given replace the current ones (the defaults when nothing
 * was saved yet), and the whole choice is saved. Moving the summary's hour keeps the day it was last
 * sent for, so it is never sent twice in one day.
 */
export async function patchAlertSettings(
  deps: DbDeps,
  t: Tenant & { userId: number },
  patch: Partial<AlertSettings>,
): Promise<AlertSettingsView> {
  return deps.db.tx(async (tx) => {
    const row = await readRow(tx, t.userId, t);
    if (!row) throw new Error(`user ${t.userId} of client ${t.clientId} not found`);
    const next: AlertSettings = Object.assign(view(row, t.mode), patch);
    await tx.query(
      `INSERT INTO notification_settings (user_id, client_id, mode, payment_paid, refund_completed, receipt_failed,
                                          daily_summary, summary_hour, by_email, by_messenger)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (user_id, mode) DO UPDATE SET
         payment_paid = EXCLUDED.payment_paid, refund_completed = EXCLUDED.refund_completed,
         receipt_failed = EXCLUDED.receipt_failed, daily_summary = EXCLUDED.daily_summary,
         summary_hour = EXCLUDED.summary_hour, by_email = EXCLUDED.by_email, by_messenger = EXCLUDED.by_messenger,
         updated_at = now()`,
      [
        t.userId,
        t.clientId,
        t.mode,
        next.payment_paid,
        next.refund_completed,
        next.receipt_failed,
        next.daily_summary,
        next.summary_hour,
        next.email,
        next.messenger,
      ],
    );
    return {
      payment_paid: next.payment_paid,
      refund_completed: next.refund_completed,
      receipt_failed: next.receipt_failed,
      daily_summary: next.daily_summary,
      summary_hour: next.summary_hour,
      email: next.email,
      messenger: next.messenger,
      mode: t.mode,
      messenger_linked: row.chat !== null,
      customized: true,
    };
  });
}
