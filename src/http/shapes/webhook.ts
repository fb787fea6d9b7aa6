// The webhook resource on the wire: subscriptions (with the secret shown once), the delivery log and the
// answer of a test send. Shown by the cabinet and the partner API (the client's webhooks).
import { Type } from 'typebox';
import { Body, Nullable, NullableTimestamp, Timestamp } from '../schemas.ts';
import type { ListedWebhook } from '../../domain/webhooks/manage.ts';
import type { DeliveryRow, WebhookRow } from '../../domain/webhooks/store.ts';
import { WEBHOOK_EVENT_TYPES } from '../../domain/events/types.ts';

const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'];

export const EventList = Type.Array(Type.String(), {
  description: 'payment.completed, payment.cancelled, payment.expired, payment.refunded, webhook.test',
});

export const WebhookCreateBody = Body({
  url: Type.String(),
  events: EventList,
  description: Type.Optional(Nullable(Type.String())),
  secret: Type.Optional(Type.String()),
});

export const WebhookProps = {
  id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Nullable(Type.String()),
  is_active: Type.Boolean(),
  disabled_reason: Nullable(
    Type.String({ description: "why it is off: 'manual', 'auto' (24 h of failures), 'gone' (receiver answered 410)" }),
  ),
  mode: Type.String({ enum: ['live', 'test'] }),
  secret_version: Type.Integer(),
  secret_revealed_at: Timestamp,
  failing_since: NullableTimestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
};
export const Webhook = Type.Object(WebhookProps, { title: 'Webhook' });
export const WebhookWithSecret = Type.Object(
  { ...WebhookProps, secret: Type.String({ description: 'shown once: whsec_ + base64 of 32 bytes' }) },
  { title: 'WebhookWithSecret' },
);
export const WebhookListItem = Type.Object(
  {
    ...WebhookProps,
    last_delivery_at: NullableTimestamp,
    last_delivery_status: Nullable(
      Type.String({ enum: DELIVERY_STATUSES, description: 'status of the most recently attempted delivery' }),
    ),
  },
  { title: 'WebhookListItem' },
);
export const Delivery = Type.Object(
  {
    id: Type.Integer(),
    event_id: Type.String(),
    event_type: Type.String({ enum: [...WEBHOOK_EVENT_TYPES] }),
    message_id: Type.String({ description: 'X-Webhook-ID / webhook-id, the same on every attempt' }),
    status: Type.String({ enum: DELIVERY_STATUSES }),
    attempts: Type.Integer(),
    created_at: Timestamp,
    delivered_at: NullableTimestamp,
    last_error: Nullable(Type.String()),
    last_status: Nullable(Type.Integer({ description: 'HTTP status of the last attempt; 0 when no answer came' })),
    response_preview: Nullable(
      Type.String({
        description: "first 500 characters of the receiver's answer to the last attempt; null before any answer",
      }),
    ),
    last_attempt_at: NullableTimestamp,
    next_attempt_at: NullableTimestamp,
  },
  { title: 'Delivery' },
);
export const TestResult = Type.Object(
  {
    status_code: Type.Integer({
      description: '0 when the receiver could not be reached (refused address, DNS, TLS, time-out)',
    }),
    response_preview: Type.String({ description: 'first 500 characters of the response body' }),
    duration_ms: Type.Integer(),
    error: Nullable(Type.String()),
    delivery_id: Type.Integer(),
  },
  { title: 'WebhookTestResult' },
);

/** A webhook as its owner sees it: never its secrets (the new one is added once, by create and rotate). */
export function toWebhook(w: WebhookRow) {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    description: w.description,
    is_active: w.is_active,
    disabled_reason: w.disabled_reason,
    mode: w.mode,
    secret_version: w.secret_version,
    secret_revealed_at: w.secret_revealed_at,
    failing_since: w.failing_since,
    created_at: w.created_at,
    updated_at: w.updated_at,
  };
}

export const toWebhookWithSecret = (w: WebhookRow & { secret: string }) =>
  Object.assign(toWebhook(w), { secret: w.secret });

export const toWebhookListItem = (w: ListedWebhook) =>
  Object.assign(toWebhook(w), { last_delivery_at: w.last_delivery_at, last_delivery_status: w.last_delivery_status });

/** A delivery of the log: never its body (the event, with the payer's phone and name). */
export function toDelivery(d: DeliveryRow) {
  return {
    id: d.id,
    event_id: d.event_id,
    event_type: d.event_type,
    message_id: d.message_id,
    status: d.status,
    attempts: d.attempts,
    created_at: d.created_at,
    delivered_at: d.delivered_at,
    last_error: d.last_error,
    last_status: d.last_status,
    response_preview: d.last_response,
    last_attempt_at: d.last_attempt_at,
    next_attempt_at: d.status === 'pending' ? d.next_attempt_at : null,
  };
}
