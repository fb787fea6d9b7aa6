// The payment resource on the wire: its request bodies, response schemas and the mappers from domain
// operations to them. Imported by every surface that shows payments (v2, cabinet, later partners).
import { Type } from 'typebox';
import { PaymentReceipt } from './fiscal.ts';
import { paymentReceipt, type PaymentReceiptRef } from '../../domain/fiscal/receipts.ts';
import type { DbDeps } from '../../deps.ts';
import { Amount, Body, Nullable, NullableTimestamp, Timestamp } from '../schemas.ts';
import { OperationId } from '../params.ts';
import { STATUSES } from '../../domain/payments/state.ts';
import { SOURCES } from '../../domain/payments/operations.ts';
import type { ListedOperation, Operation } from '../../domain/payments/operations.ts';
import { ItemsInput, LineItems, RefundLineInput, RefundLineItems, toLineItems } from './line-item.ts';

/** A refund by items: lines of the payment by index, each at most its sold quantity over all refunds. */
export const RefundItemsInput = Type.Array(RefundLineInput, { minItems: 1, maxItems: 100 });

export const Status = Type.String({ title: 'PaymentStatus', enum: [...STATUSES] });
export const Comment = Type.String({ maxLength: 255 });

export const QrCreateBody = Body(
  {
    amount: Amount,
    items: Type.Optional(ItemsInput),
    comment: Type.Optional(Comment),
  },
  'QrCreateRequest',
);

export const InvoiceCreateBody = Body(
  {
    phone: Type.String({
      minLength: 1,
      maxLength: 32,
      description: 'Kazakhstan mobile, any common spelling',
      examples: ['+77012345678'],
    }),
    amount: Amount,
    items: Type.Optional(ItemsInput),
    comment: Type.Optional(Comment),
  },
  'InvoiceCreateRequest',
);

export const QrCreated = Type.Object(
  {
    operation_id: Type.String(),
    qr_token: Type.String({ description: 'content for the QR image, as the provider gives it (live: a digit string)' }),
    deep_link: Type.String({
      format: 'uri',
      description:
        "a page that opens this payment: Tolem's payer page /pay/{op_id} (live), the sandbox's payer page (test)",
    }),
    expires_at: Timestamp,
    status: Status,
  },
  { title: 'QrCreated' },
);

export const InvoiceCreated = Type.Object(
  {
    operation_id: Type.String(),
    status: Status,
    phone: Type.String(),
    expires_at: Timestamp,
  },
  { title: 'InvoiceCreated' },
);

export const PaymentItem = Type.Object(
  {
    operation_id: Type.String(),
    type: Type.String({ enum: ['qr', 'invoice'] }),
    status: Status,
    amount: Amount,
    refunded_amount: Amount,
    comment: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    sender_name: Nullable(Type.String()),
    transaction_id: Nullable(Type.String()),
    provider_account_id: Type.Integer(),
    source: Type.String({ enum: [...SOURCES] }),
    link_token: Nullable(Type.String()),
    livemode: Type.Boolean(),
    created_at: Timestamp,
    paid_at: NullableTimestamp,
    expires_at: Timestamp,
  },
  { title: 'Payment' },
);

export const PaymentStatus = Type.Object(
  {
    ...PaymentItem.properties,
    raw_provider_status: Nullable(Type.String()),
    items: LineItems,
    provider_payment_id: Type.String({
      description:
        "the provider's own id of this payment (live: its QrPaymentId), for reconciling with the provider's records",
    }),
    receipt: PaymentReceipt,
    counter_id: Nullable(Type.String({ description: 'ct_<ULID>: the counter the QR was made at (source counter)' })),
    cashier_id: Nullable(Type.Integer({ description: 'the team member (user id) who made it at the counter' })),
  },
  { title: 'PaymentDetail' },
);

export const RefundBody = Body(
  {
    operation_id: OperationId,
    amount: Type.Optional(
      Type.Integer({
        description: 'integer tenge; required unless items are given (then their sum, which it must equal if given)',
        examples: [5000],
      }),
    ),
    reason: Type.Optional(Type.String({ maxLength: 255 })),
    items: Type.Optional(RefundItemsInput),
  },
  'RefundRequest',
);

export const RefundResult = Type.Object(
  {
    refund_id: Type.String(),
    operation_id: Type.String(),
    status: Type.String({ enum: ['completed', 'pending', 'failed'] }),
    amount: Amount,
    refunded_total: Amount,
    remaining_refundable: Amount,
    created_at: Timestamp,
    items: RefundLineItems,
    return_qr_token: Type.Optional(
      Type.String({
        description:
          "r2 accounts: the return QR's content, to show the payer while the refund is pending; " +
          "the payer scans it in the provider's app",
      }),
    ),
    return_deep_link: Type.Optional(
      Type.String({
        format: 'uri',
        description: "r2 accounts: a page that shows the return QR and the refund's status",
      }),
    ),
    expires_at: Type.Optional(
      Type.Unsafe<Date | string>({
        ...Timestamp,
        description: 'r2 accounts: when the return QR stops working (the refund then fails and its amount is released)',
      }),
    ),
  },
  { title: 'Refund' },
);

export const CancelResult = Type.Object({ operation_id: Type.String(), status: Status }, { title: 'CancelResult' });

export const toQrCreated = (op: Pick<Operation, 'id' | 'qr_token' | 'deep_link' | 'expires_at' | 'status'>) => ({
  operation_id: op.id,
  qr_token: op.qr_token!,
  deep_link: op.deep_link!,
  expires_at: op.expires_at,
  status: op.status,
});

export const toInvoiceCreated = (op: Pick<Operation, 'id' | 'status' | 'phone' | 'expires_at'>) => ({
  operation_id: op.id,
  status: op.status,
  phone: op.phone!,
  expires_at: op.expires_at,
});

/** The payment item of lists and status reads (decisions 15). */
export function toPaymentItem(op: ListedOperation) {
  return {
    operation_id: op.id,
    type: op.type,
    status: op.status,
    amount: op.amount,
    refunded_amount: op.refunded_amount,
    comment: op.comment,
    phone: op.phone,
    sender_name: op.sender_name,
    transaction_id: op.transaction_id,
    provider_account_id: op.provider_account_id,
    source: op.source,
    link_token: op.link_token,
    livemode: op.mode === 'live',
    created_at: op.created_at,
    paid_at: op.paid_at,
    expires_at: op.expires_at,
  };
}

/** The payment's detail with its sale receipt read (every route that answers PaymentDetail). */
export async function paymentDetail(deps: DbDeps, op: Operation) {
  return toPaymentStatus(op, await paymentReceipt(deps, op.id));
}

/** The payment's detail; `receipt` is its sale receipt (decisions 27), null when it has none. */
export function toPaymentStatus(op: Operation, receipt: PaymentReceiptRef | null) {
  // Object.assign, not a spread with an added field: see docs/architecture.md (object shapes).
  return Object.assign(toPaymentItem(op), {
    raw_provider_status: op.raw_provider_status,
    items: toLineItems(op.items),
    provider_payment_id: op.provider_ref,
    receipt,
    counter_id: op.counter_id,
    cashier_id: op.cashier_id,
  });
}
