// A payment made through a payment link: the link's bookkeeping and its `payment_link.paid` event, in the
// transaction that records the payment.
import type { Queryable } from '../../db/db.ts';
import type { Operation } from '../payments/operations.ts';
import { appendEvent } from '../events/append.ts';
import { eventToken } from '../ids.ts';

export async function onLinkPaymentPaid(tx: Queryable, op: Operation): Promise<void> {
  if (!op.link_token) return;
  // Every payment counts. Only an active one-time link becomes `paid`: a payment arriving through a QR
  // issued before the link expired or was cancelled is recorded, but does not revive or re-state it.
  const r = await tx.query<{ token: string; paid_count: number }>(
    `UPDATE payment_links
        SET paid_count = paid_count + 1,
            status = CASE WHEN NOT allow_repeat AND status = 'active' THEN 'paid' ELSE status END,
            updated_at = now()
      WHERE token = $1 AND client_id = $2 AND mode = $3
      RETURNING token, paid_count`,
    [op.link_token, op.client_id, op.mode],
  );
  const link = r.rows[0];
  if (!link) return;
  const payer = await tx.query<{ email: string | null }>(
    'SELECT email FROM checkout_operations WHERE operation_id = $1',
    [op.id],
  );
  await appendEvent(tx, {
    clientId: op.client_id,
    mode: op.mode,
    type: 'payment_link.paid',
    data: {
      token: eventToken(link.token),
      operation_id: op.id,
      amount: op.amount,
      paid_count: link.paid_count,
      email: payer.rows[0]?.email ?? null,
    },
  });
}
