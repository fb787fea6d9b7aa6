// Every kind of cabinet notification and the facts (params) it carries. A notification belongs to the
// client, and its users read it in their own language (ru, kk, en, chosen per browser), so the server
// stores what happened, not a sentence: the dashboard words the title and body from the type and these
// params (decisions 30). The English title and body are still stored: API readers get them, and rows
// written before params existed have nothing else. `variant` picks one of a kind's wordings.
export const NOTIFICATION_PARAMS = {
  'webhook.disabled': ['mode', 'url', 'variant', 'failing_since'],
  'plan.limit_reached': ['plan', 'limit', 'month'],
  'plan.limit_near': ['plan', 'used', 'limit', 'month'],
  'trial.ending': ['ends_at'],
  'plan.expiring': ['plan', 'ends_at'],
  'plan.changed': ['plan', 'previous_plan', 'expires_at', 'days', 'variant'],
  'ticket.answered': ['ticket_id', 'subject'],
  'provider.certificate_expiring': ['account', 'expires_at', 'variant'],
  'provider.session_expired': ['account'],
  'provider.unreachable': ['account'],
  'partner.active': [],
  'partner.rejected': [],
  'partner.suspended': [],
  'fiscal.register_trouble': ['register', 'register_id', 'variant'],
  'fiscal.receipt_failed': ['receipt_id', 'operation_id', 'kind', 'error'],
} as const;

export type NotificationType = keyof typeof NOTIFICATION_PARAMS;
export const NOTIFICATION_TYPES = Object.keys(NOTIFICATION_PARAMS) as NotificationType[];

/** A fact's value: a timestamp is an ISO string (`..._at`), a month `YYYY-MM`. */
export type ParamValue = string | number | boolean | null;
export type NotificationParams<T extends NotificationType> = Record<
  (typeof NOTIFICATION_PARAMS)[T][number],
  ParamValue
>;

/** The kinds worded more than one way, and their `variant`s. */
export const NOTIFICATION_VARIANTS: Partial<Record<NotificationType, readonly string[]>> = {
  'webhook.disabled': ['gone', 'failing'],
  'plan.changed': ['extended', 'replaced'],
  'provider.certificate_expiring': ['expires', 'expired'],
  'fiscal.register_trouble': ['blocked', 'credentials', 'offline'],
};
