// A journal event, the journal's event types (decisions 8: the union of both catalogs) and the ones a
// webhook may subscribe to (decisions 27 adds the two receipt events).
import type { Mode } from '../tenant.ts';

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
  'receipt.issued',
  'receipt.failed',
] as const;

export type JournalEventType = (typeof JOURNAL_EVENT_TYPES)[number];

export const WEBHOOK_EVENT_TYPES = [
  'payment.completed',
  'payment.cancelled',
  'payment.expired',
  'payment.refunded',
  'receipt.issued',
  'receipt.failed',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface JournalEvent {
  id: string;
  client_id: number;
  mode: Mode;
  type: JournalEventType;
  data: Record<string, unknown>;
  created_at: Date;
}
