// A refund as the payment's refunds list shows it (GET /me/payments/{op_id}/refunds).
import { Type } from 'typebox';
import { Amount, Nullable, Timestamp } from '../schemas.ts';
import type { ListedRefund } from '../../domain/payments/refund-list.ts';
import { RefundLineItems, toRefundLineItems } from './line-item.ts';

export const RefundItem = Type.Object(
  {
    refund_id: Type.String(),
    operation_id: Type.String(),
    amount: Amount,
    status: Type.String({
      enum: ['completed', 'pending', 'failed'],
      description: 'pending: asked of the provider (or waiting for the payer to scan a return QR), not yet final',
    }),
    reason: Nullable(Type.String()),
    created_at: Timestamp,
    items: RefundLineItems,
  },
  { title: 'RefundItem' },
);

export const toRefundItem = (r: ListedRefund) => ({
  refund_id: r.id,
  operation_id: r.operation_id,
  amount: r.amount,
  status: r.status,
  reason: r.reason,
  created_at: r.created_at,
  items: toRefundLineItems(r.items),
});
