// What each webhook delivery carries, for the OpenAPI 3.1 `webhooks` section: the body is
// `{id, type, created_at, data}` (id = the journal event's id) and `data` is the event's, as written by
// domain/payments/transition.ts (completed, expired, cancelled), refund.ts, fiscal/send.ts (receipts)
// and webhooks/manual.ts (test).
import { Type, type TSchema } from 'typebox';
import { Amount, Nullable, NullableTimestamp, Timestamp } from '../schemas.ts';
import type { WebhookEventType } from '../../domain/events/types.ts';
import { SOURCES } from '../../domain/payments/operations.ts';

const PaymentType = Type.String({ enum: ['qr', 'invoice'] });

/** decisions 27: a fiscal receipt issued by the merchant's cash register, or given up on. */
function ReceiptEventData(status: 'issued' | 'failed') {
  return Type.Object({
    receipt_id: Type.String(),
    kind: Type.String({ enum: ['sale', 'return'] }),
    operation_id: Type.String(),
    refund_id: Nullable(Type.String()),
    status: Type.Literal(status),
    fiscal_sign: Nullable(Type.String()),
    check_url: Nullable(Type.String({ description: "the fiscal data operator's check page" })),
    ticket_url: Nullable(Type.String()),
    error: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
  });
}

const DATA: Record<WebhookEventType, TSchema> = {
  'payment.completed': Type.Object({
    operation_id: Type.String(),
    type: PaymentType,
    amount: Amount,
    status: Type.Literal('paid'),
    phone: Nullable(Type.String()),
    sender_name: Nullable(Type.String()),
    paid_at: NullableTimestamp,
    transaction_id: Nullable(Type.String()),
    source: Type.String({ enum: [...SOURCES] }),
    link_token: Nullable(Type.String({ description: 'pl_<token> when paid through a payment link' })),
    metadata: Type.Record(Type.String(), Type.Unknown()),
  }),
  'payment.cancelled': Type.Object({
    operation_id: Type.String(),
    type: PaymentType,
    amount: Amount,
    reason: Type.String({ enum: ['merchant', 'customer', 'declined'] }),
  }),
  'payment.expired': Type.Object({
    operation_id: Type.String(),
    type: PaymentType,
    amount: Amount,
    expired_at: Timestamp,
  }),
  'payment.refunded': Type.Object({
    operation_id: Type.String(),
    refund_id: Type.String(),
    amount: Amount,
    refunded_total: Amount,
    remaining_refundable: Amount,
  }),
  'receipt.issued': ReceiptEventData('issued'),
  'receipt.failed': ReceiptEventData('failed'),
  'webhook.test': Type.Object({ webhook_id: Type.Integer(), livemode: Type.Boolean(), message: Type.String() }),
};

const SIGNATURES =
  'Signed twice: X-Webhook-Signature `sha256=<hex HMAC-SHA256 of "<X-Webhook-Timestamp>.<body>">` ' +
  '(key: the whole secret text), and Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature). ' +
  'Answer 2xx within the time-out; anything else is retried on the schedule, with the same webhook-id.';

const pascal = (type: string) =>
  type
    .split(/[._]/)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

/** The `webhooks` section: one POST a subscribable event type. */
export function webhookEventsDoc(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(DATA).map(([type, data]) => [
      type,
      {
        post: {
          summary: `${type} delivery`,
          description: SIGNATURES,
          // The receiver authenticates Tolem by the signatures, not by a credential Tolem would send.
          security: [],
          operationId: `webhook${pascal(type)}`,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: Type.Object(
                  {
                    id: Type.String({ description: 'evt_<ULID>, the journal event' }),
                    type: Type.Literal(type),
                    created_at: Timestamp,
                    data,
                  },
                  { title: `${pascal(type)}Event` },
                ),
              },
            },
          },
          responses: { '2XX': { description: 'received; any other answer is retried' } },
        },
      },
    ]),
  );
}
