// The journal's event types (decisions 8: the union of both catalogs) and the five a webhook may
// subscribe to.
export const JOURNAL_EVENT_TYPES = [
  'payment.completed',
  'payment.cancelled',
  'payment.expired',
  'payment.refunded',
  'payment_link.created',
  'payment_link.updated',
  'payment_link.cancelled',
  'payment_link.paid',
  'plan.changed',
  'webhook.delivery_failed',
  'webhook.auto_reactivated',
] as const;

export type JournalEventType = (typeof JOURNAL_EVENT_TYPES)[number];

export const WEBHOOK_EVENT_TYPES = ['payment.completed', 'payment.cancelled', 'payment.expired', 'payment.refunded', 'webhook.test'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
