// The webhook resource on the wire: subscriptions (with the secret shown once), the delivery log and the
// answer of a test send. Shown by the cabinet and, later, the partner API (the client's webhooks).
import { Type } from 'typebox';
import { Nullable, NullableTimestamp, Timestamp } from '../schemas.ts';

export const EventList = Type.Array(Type.String(), { description: 'payment.completed, payment.cancelled, payment.expired, payment.refunded, webhook.test' });

export const WebhookProps = {
  id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Nullable(Type.String()),
  is_active: Type.Boolean(),
  disabled_reason: Nullable(Type.String({ description: "why it is off: 'manual', 'auto' (24 h of failures), 'gone' (receiver answered 410)" })),
  mode: Type.String({ enum: ['live', 'test'] }),
  secret_version: Type.Integer(),
  secret_revealed_at: Timestamp,
  failing_since: NullableTimestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
};
export const Webhook = Type.Object(WebhookProps);
export const WebhookWithSecret = Type.Object({ ...WebhookProps, secret: Type.String({ description: 'shown once: whsec_ + base64 of 32 bytes' }) });
export const WebhookListItem = Type.Object({
  ...WebhookProps,
  last_delivery_at: NullableTimestamp,
  last_delivery_status: Nullable(Type.String({ description: 'status of the most recently attempted delivery' })),
});
export const Delivery = Type.Object({
  id: Type.Integer(),
  event_id: Type.String(),
  event_type: Type.String(),
  message_id: Type.String({ description: 'X-Webhook-ID / webhook-id, the same on every attempt' }),
  status: Type.String({ enum: ['pending', 'delivered', 'failed'] }),
  attempts: Type.Integer(),
  created_at: Timestamp,
  delivered_at: NullableTimestamp,
  last_error: Nullable(Type.String()),
  last_status: Nullable(Type.Integer({ description: 'HTTP status of the last attempt; 0 when no answer came' })),
  last_attempt_at: NullableTimestamp,
  next_attempt_at: NullableTimestamp,
});
export const TestResult = Type.Object({
  status_code: Type.Integer({ description: '0 when the receiver could not be reached (refused address, DNS, TLS, time-out)' }),
  response_preview: Type.String({ description: 'first 500 characters of the response body' }),
  duration_ms: Type.Integer(),
  error: Nullable(Type.String()),
  delivery_id: Type.Integer(),
});
