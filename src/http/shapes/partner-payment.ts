// A payment of a partner's client on the partner API (decisions 22): the payment item, and whose it is.
import { Type } from 'typebox';
import { Nullable } from '../schemas.ts';
import type { PartnerPayment } from '../../domain/partners/payments.ts';
import { PaymentItem, toPaymentItem } from './payment.ts';

export const PartnerPaymentItem = Type.Object(
  {
    ...PaymentItem.properties,
    client_id: Type.Integer(),
    external_id: Nullable(Type.String()),
  },
  { title: 'PartnerPayment' },
);

// Object.assign, not a spread with added fields: on Node 20 that took V8's slow clone path and sent every
// item to the old generation (the partner list's peak RSS 367 -> 187 MB, docs/performance.md).
export const toPartnerPayment = (op: PartnerPayment) =>
  Object.assign(toPaymentItem(op), { client_id: Number(op.client_id), external_id: op.external_id });
