// v1 shapes: the PascalCase envelope {Data, StatusCode} (StatusCode 0 on success), the failure envelope
// {Data: null, StatusCode, Message}, and the mappers from v2 operations to v1 Data.
import { Type, type TSchema } from 'typebox';
import { Amount, Body, Nullable, NullableTimestamp, Timestamp } from '../schemas.ts';
import type { Operation } from '../../domain/payments/operations.ts';
import type { RefundResult } from '../../domain/payments/refund.ts';
import { v1Status, V1_STATUSES } from '../../domain/v1/operations.ts';

export const TAG = 'v1 (deprecated)';

export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({ Data: data, StatusCode: Type.Integer({ description: '0: success' }) }, { description: 'v1 envelope' });

export const V1Failure = Type.Object(
  {
    Data: Type.Null(),
    StatusCode: Type.Integer({
      description: '-400, -401, -403, -404, -405, -409, -410, -429, -500, -503, or -999 (provider session expired)',
    }),
    Message: Type.String(),
  },
  { title: 'V1Error', description: 'v1 failure envelope' },
);

export const ok = <T>(data: T) => ({ Data: data, StatusCode: 0 });

const V1Status = Type.String({ enum: V1_STATUSES });
/** The spec gives operation_id as a string; v1 clients that send the integer v1 returned are accepted too. */
const OpRef = Type.Union([Type.String({ maxLength: 20 }), Type.Integer()], {
  description: 'v1 operation id, e.g. "42"',
});

// Requests
export const QrCreateBody = Body({ amount: Amount });
export const InvoiceCreateBody = Body({
  phone: Type.String({ minLength: 1, maxLength: 32, description: 'Kazakhstan mobile, any common spelling' }),
  amount: Amount,
  comment: Type.Optional(Type.String({ maxLength: 255 })),
});
export const CancelBody = Body({ operation_id: OpRef });
export const RefundBody = Body({
  operation_id: OpRef,
  items: Type.Array(Body({ price: Amount }), {
    minItems: 1,
    maxItems: 100,
    description: 'refund amount = sum of prices',
  }),
});
export const HistoryBody = Body({
  page_size: Type.Optional(Type.Integer({ description: '1 to 100, default 20' })),
  period: Type.Integer({ description: '0 today, 1 yesterday, 7 last 7 days, 30 last 30 days (UTC days)' }),
});
export const SeqParams = Type.Object({ operationId: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });
export const PhoneParams = Type.Object({ phone: Type.String({ minLength: 1, maxLength: 32 }) });

// Data
export const QrCreatedData = Type.Object({
  QrOperationId: Type.Integer(),
  Status: V1Status,
  QrToken: Type.String({ description: 'URL for building the QR image' }),
  DeepLink: Type.String(),
  ExpiresAt: Timestamp,
});
export const QrStatusData = Type.Object({
  Status: V1Status,
  Amount: Amount,
  SenderName: Nullable(Type.String()),
  TransactionId: Nullable(Type.String()),
});
export const InvoiceCreatedData = Type.Object({ OperationId: Type.Integer(), Status: V1Status });
export const CancelData = Type.Object({ OperationId: Type.Integer(), Status: V1Status });
export const RefundData = Type.Object({
  RefundId: Type.String(),
  OperationId: Type.Integer(),
  Status: Type.String({ enum: ['Completed', 'Pending', 'Failed'] }),
  Amount: Amount,
  RefundedTotal: Amount,
  RemainingRefundable: Amount,
});
export const HistoryItem = Type.Object({
  OperationId: Type.Integer(),
  Type: Type.String({ enum: ['Qr', 'Invoice'] }),
  Status: V1Status,
  Amount: Amount,
  RefundedAmount: Amount,
  Comment: Nullable(Type.String()),
  Phone: Nullable(Type.String()),
  SenderName: Nullable(Type.String()),
  TransactionId: Nullable(Type.String()),
  CreatedAt: Timestamp,
  PaidAt: NullableTimestamp,
});
export const HistoryData = Type.Object({
  Items: Type.Array(HistoryItem),
  Total: Type.Integer({ description: 'operations in the period' }),
});
export const ClientData = Type.Object({ Phone: Type.String(), Exists: Type.Boolean(), Name: Nullable(Type.String()) });
export const AccountData = Type.Object({
  session_alive: Type.Boolean(),
  plan: Type.String(),
  payments_used: Type.Integer(),
  payments_limit: Type.Integer({ description: '999999: unlimited' }),
});

// Mappers. Dates leave as ISO strings, so a stored idempotent replay is byte-for-byte the same shape.
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export const toQrCreated = (op: Operation) => ({
  QrOperationId: op.seq,
  Status: v1Status(op),
  QrToken: op.qr_token!,
  DeepLink: op.deep_link!,
  ExpiresAt: iso(op.expires_at)!,
});
export const toQrStatus = (op: Operation) => ({
  Status: v1Status(op),
  Amount: op.amount,
  SenderName: op.sender_name,
  TransactionId: op.transaction_id,
});
export const toInvoiceCreated = (op: Operation) => ({ OperationId: op.seq, Status: v1Status(op) });
export const toHistoryItem = (op: Operation) => ({
  OperationId: op.seq,
  Type: op.type === 'qr' ? 'Qr' : 'Invoice',
  Status: v1Status(op),
  Amount: op.amount,
  RefundedAmount: op.refunded_amount,
  Comment: op.comment,
  Phone: op.phone,
  SenderName: op.sender_name,
  TransactionId: op.transaction_id,
  CreatedAt: iso(op.created_at)!,
  PaidAt: iso(op.paid_at),
});
const REFUND_STATUS = { completed: 'Completed', pending: 'Pending', failed: 'Failed' } as const;
export const toRefund = (r: RefundResult, seq: number) => ({
  RefundId: r.refund_id,
  OperationId: seq,
  Status: REFUND_STATUS[r.status],
  Amount: r.amount,
  RefundedTotal: r.refunded_total,
  RemainingRefundable: r.remaining_refundable,
});
