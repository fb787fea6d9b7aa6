// Refunds by items (decisions 27): a refund may name lines of its payment by index and quantity; its amount
// is then their sum, and its return receipt lists exactly those lines. Over all refunds of a payment that
// have not failed, a line is returned at most as many times as it was sold. Refunds by amount alone name no
// lines and count against the amount only.
import type { Queryable } from '../../db/db.ts';
import { invalidParam } from '../../errors.ts';
import type { Line } from './line-items.ts';
import type { Operation } from './operations.ts';

export interface RefundLineInput {
  index: number;
  quantity: number;
}

/** A line of a refund: the payment's line at `index`, with the quantity returned. */
export interface RefundLine extends Line {
  index: number;
}

/** The payment's lines the request names, and their sum; 400 invalid_parameter for a line it cannot name. */
export function refundLinesOf(
  op: Pick<Operation, 'id' | 'items'>,
  asked: RefundLineInput[],
): {
  lines: RefundLine[];
  amount: number;
} {
  const sold = op.items;
  if (!sold?.length) throw invalidParam('items', `payment ${op.id} has no items: refund it by amount`);
  if (asked.length === 0) throw invalidParam('items', 'items must name at least one line');
  const seen = new Set<number>();
  let amount = 0;
  const lines = asked.map((a, n) => {
    const line = sold[a.index];
    if (!Number.isInteger(a.index) || !line)
      throw invalidParam(`items.${n}.index`, `payment ${op.id} has no item ${a.index} (it has ${sold.length})`);
    if (seen.has(a.index)) throw invalidParam(`items.${n}.index`, `item ${a.index} is named twice`);
    seen.add(a.index);
    const quantity = line.quantity ?? 1;
    if (!Number.isInteger(a.quantity) || a.quantity < 1 || a.quantity > quantity)
      throw invalidParam(`items.${n}.quantity`, `item ${a.index} was sold ${quantity} times`);
    amount += line.price * a.quantity;
    return Object.assign({ index: a.index }, line, { quantity: a.quantity });
  });
  return { lines, amount };
}

/**
 * Inside the transaction that reserved the refund's amount, after its guarded UPDATE of the operation: that
 * UPDATE holds the operation's row lock until commit, so a concurrent refund of the same payment waits for
 * this one and then sees it here. Refuses (the transaction then rolls the reservation back) when a line
 * would be returned more times than it was sold.
 */
export async function assertLinesLeft(tx: Queryable, op: Pick<Operation, 'id' | 'items'>, lines: RefundLine[]) {
  const r = await tx.query<{ items: RefundLine[] }>(
    `SELECT items FROM refunds WHERE operation_id = $1 AND status <> 'failed' AND items IS NOT NULL`,
    [op.id],
  );
  const returned = new Map<number, number>();
  for (const row of r.rows) for (const l of row.items) returned.set(l.index, (returned.get(l.index) ?? 0) + l.quantity);
  lines.forEach((l, n) => {
    const sold = op.items?.[l.index]?.quantity ?? 1;
    const before = returned.get(l.index) ?? 0;
    if (before + l.quantity > sold)
      throw invalidParam(
        `items.${n}.quantity`,
        `item ${l.index}: ${before} of ${sold} already returned, at most ${sold - before} more`,
      );
  });
}
