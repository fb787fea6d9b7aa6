// Staff alerts on the journal (decisions 28): a paid payment, a completed refund or a failed receipt
// becomes one outbox message per team member who asked for it and per channel, written in the event's
// own transaction (a subscriber of afterEventAppended), so an alert is sent exactly when the change it
// tells of is committed. This runs on every paid payment: when nobody of the client's team wants the
// alert, it is one indexed statement that finds no row, and nothing else.
import type { Queryable } from '../../db/db.ts';
import type { JournalEvent } from '../events/types.ts';
import { enqueueMessage } from '../channels/outbox.ts';
import { RECEIPT_FAILED_ROLES, type Alert } from './alert-settings.ts';
import { paidText, paymentLink, receiptFailedText, refundText, type AlertText } from './alert-words.ts';

/** Set at start from configuration (the links in alerts); subscribers get a transaction only. */
let dashboardUrl = '/dashboard';
export const setAlertDashboardUrl = (url: string) => void (dashboardUrl = url.replace(/\/+$/, ''));
export const alertDashboardUrl = () => dashboardUrl;

export interface Recipient {
  email: string;
  chat: string | null;
  by_email: boolean;
  by_messenger: boolean;
}

interface Found extends Recipient {
  comment: string | null;
  amount: number | null;
}

// Who of the team is reached at all: an active member of a client that is not disabled.
const REACHABLE = `u.disabled_at IS NULL AND u.status = 'active' AND c.disabled_at IS NULL`;
// The payment's comment and amount (a return receipt: the refund's), read in the same statement only for
// the rows it returns: a scalar subquery runs once, at the first row, and not at all when there is none.
const FACTS = `(SELECT o.comment FROM operations o WHERE o.id = $3 AND o.client_id = $1) AS comment,
            COALESCE((SELECT r.amount FROM refunds r WHERE r.id = $4 AND r.client_id = $1),
                     (SELECT o.amount FROM operations o WHERE o.id = $3 AND o.client_id = $1)) AS amount`;

/**
 * The members who want `alert` (off by default for every role) in this mode: read from their saved
 * settings through the (client_id, mode) index; a client whose team saved none has no row to read.
 */
const SAVED_ONLY: Record<'payment_paid' | 'refund_completed', string> = {
  payment_paid: `SELECT u.email, u.messenger_chat_id AS chat, s.by_email, s.by_messenger, ${FACTS}
       FROM notification_settings s JOIN users u ON u.id = s.user_id JOIN clients c ON c.id = s.client_id
      WHERE s.client_id = $1 AND s.mode = $2 AND s.payment_paid AND ${REACHABLE}`,
  refund_completed: `SELECT u.email, u.messenger_chat_id AS chat, s.by_email, s.by_messenger, ${FACTS}
       FROM notification_settings s JOIN users u ON u.id = s.user_id JOIN clients c ON c.id = s.client_id
      WHERE s.client_id = $1 AND s.mode = $2 AND s.refund_completed AND ${REACHABLE}`,
};

/** A failed receipt is on by default for some roles: every member is read, its saved choice or its role's. */
const RECEIPT_FAILED = `SELECT u.email, u.messenger_chat_id AS chat, COALESCE(s.by_email, true) AS by_email,
            COALESCE(s.by_messenger, false) AS by_messenger, ${FACTS}
       FROM users u JOIN clients c ON c.id = u.client_id
       LEFT JOIN notification_settings s ON s.user_id = u.id AND s.mode = $2
      WHERE u.client_id = $1 AND ${REACHABLE} AND COALESCE(s.receipt_failed, u.role = ANY($5::text[]))`;

async function recipients(
  tx: Queryable,
  e: JournalEvent,
  alert: Exclude<Alert, 'daily_summary'>,
  operationId: string,
  refundId: string | null,
): Promise<Found[]> {
  const params: unknown[] = [e.client_id, e.mode, operationId, refundId];
  if (alert === 'receipt_failed') params.push(RECEIPT_FAILED_ROLES);
  const sql = alert === 'receipt_failed' ? RECEIPT_FAILED : SAVED_ONLY[alert];
  return (await tx.query<Found>(sql, params)).rows;
}

/** One message per recipient and channel it chose; the messenger only where a chat is bound. */
export async function sendAlert(
  tx: Queryable,
  clientId: number,
  to: Recipient[],
  text: AlertText,
  purpose: string,
): Promise<number> {
  let n = 0;
  for (const r of to) {
    if (r.by_email) {
      await enqueueMessage(tx, {
        channel: 'email',
        recipient: r.email,
        subject: text.subject,
        body: text.body,
        clientId,
        purpose,
      });
      n++;
    }
    if (r.by_messenger && r.chat) {
      await enqueueMessage(tx, { channel: 'messenger', recipient: r.chat, body: text.body, clientId, purpose });
      n++;
    }
  }
  return n;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The subscriber of afterEventAppended (domain/subscribers.ts). */
export async function alertStaff(tx: Queryable, e: JournalEvent): Promise<void> {
  const opId = str(e.data.operation_id);
  if (!opId) return;
  if (e.type === 'payment.completed' || e.type === 'payment.refunded') {
    const paid = e.type === 'payment.completed';
    const to = await recipients(tx, e, paid ? 'payment_paid' : 'refund_completed', opId, null);
    if (!to.length) return;
    const facts = {
      mode: e.mode,
      amount: Number(e.data.amount),
      comment: to[0].comment,
      link: paymentLink(dashboardUrl, opId, e.mode),
    };
    const text = paid ? paidText(facts) : refundText(facts);
    await sendAlert(tx, e.client_id, to, text, paid ? 'alert_payment_paid' : 'alert_refund_completed');
  } else if (e.type === 'receipt.failed') {
    const to = await recipients(tx, e, 'receipt_failed', opId, str(e.data.refund_id));
    if (!to.length) return;
    const error = e.data.error as { code?: string } | null;
    const text = receiptFailedText({
      mode: e.mode,
      kind: str(e.data.kind) ?? 'sale',
      amount: to[0].amount,
      error: error?.code ?? null,
      comment: to[0].comment,
      link: paymentLink(dashboardUrl, opId, e.mode),
    });
    await sendAlert(tx, e.client_id, to, text, 'alert_receipt_failed');
  }
}
