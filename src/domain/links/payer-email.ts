// The e-mail a checkout visitor gave for a payment (checkout_operations.email, owned here): what other
// folders may know of it, through this statement. The fiscal receipt of the payment goes to it (decisions
// 27): links reads fiscal (the checkout's status shows the receipt), so fiscal cannot import links, and
// subscribers.ts hands this e-mail to the receipt instead.
import type { Queryable } from '../../db/db.ts';
import type { Operation } from '../payments/operations.ts';

/** The payer e-mail the checkout stored for this operation, or null (none given, or not a link's QR). */
export async function checkoutEmailOf(tx: Queryable, op: Pick<Operation, 'id' | 'link_token'>): Promise<string | null> {
  if (!op.link_token) return null;
  const r = await tx.query<{ email: string | null }>('SELECT email FROM checkout_operations WHERE operation_id = $1', [
    op.id,
  ]);
  return r.rows[0]?.email ?? null;
}
