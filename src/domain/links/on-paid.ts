// A payment made through a payment link: the link's bookkeeping and its `payment_link.paid` event, in the
// transaction that records the payment.
import type { Queryable } from '../../db/db.ts';
import type { Operation } from '../payments/operations.ts';

export async function onLinkPaymentPaid(_tx: Queryable, _op: Operation): Promise<void> {
  // Payment links arrive with issue 5; until then no operation carries a link token.
}
