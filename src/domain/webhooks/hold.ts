// A switched-off webhook's pending deliveries are held: out of the worker's due index (migration 0006),
// so its claims do not read past them. Written in the same transaction as the switch itself.
import type { Queryable } from '../../db/db.ts';

/**
 * Holding skips rows locked by a recorder of an attempt in flight (it holds its row and then waits for
 * the webhook's row, which the disabling transaction holds: waiting here would deadlock). A row left
 * unheld only costs the claims a row to read past, as before `held` existed; the claim checks is_active.
 * Releasing must reach every row, or one could stay held after the webhook is back on: it waits, and is
 * run before the webhook row is locked where the caller can order it so (updateWebhook).
 */
export async function holdDeliveries(tx: Queryable, webhookId: number, held: boolean): Promise<void> {
  if (held) {
    await tx.query(
      `UPDATE webhook_deliveries SET held = true WHERE id IN (
         SELECT id FROM webhook_deliveries WHERE webhook_id = $1 AND status = 'pending' AND NOT held FOR UPDATE SKIP LOCKED)`,
      [webhookId],
    );
  } else {
    await tx.query(`UPDATE webhook_deliveries SET held = false WHERE webhook_id = $1 AND status = 'pending' AND held`, [webhookId]);
  }
}
