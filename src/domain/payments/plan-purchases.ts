// A plan QR is an operation of the platform client marked with the client that buys the plan and the plan
// (decisions 20). The marks are columns of `operations`, so payments keeps them; subscriptions reads and
// sets them through these.
import type { Queryable } from '../../db/db.ts';
import { OP_COLUMNS, type Operation } from './operations.ts';

/** In the QR's creating transaction: whose purchase it is, of which plan. */
export async function markPlanPurchase(tx: Queryable, opId: string, buyerId: number, plan: string): Promise<void> {
  await tx.query('UPDATE operations SET subscription_client_id = $2, subscription_plan = $3 WHERE id = $1', [
    opId,
    buyerId,
    plan,
  ]);
}

/** Who bought which plan with this operation; null fields when it is not a plan QR. */
export async function planPurchaseOf(
  db: Queryable,
  opId: string,
): Promise<{ client_id: number | null; plan: string | null } | undefined> {
  const r = await db.query<{ client_id: number | null; plan: string | null }>(
    'SELECT subscription_client_id AS client_id, subscription_plan AS plan FROM operations WHERE id = $1',
    [opId],
  );
  return r.rows[0];
}

/** The buyer's plan QR with this id, with its plan; undefined for any other operation. */
export async function findPlanPurchase(
  db: Queryable,
  opId: string,
  buyerId: number,
): Promise<(Operation & { subscription_plan: string }) | undefined> {
  const r = await db.query<Operation & { subscription_plan: string }>(
    `SELECT ${OP_COLUMNS}, subscription_plan FROM operations WHERE id = $1 AND subscription_client_id = $2`,
    [opId, buyerId],
  );
  return r.rows[0];
}
