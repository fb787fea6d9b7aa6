// Receipts are owed in the transaction that makes them owed (decisions 27): a sale receipt when an operation
// becomes paid (any source: QR, invoice, link, v1, a plan QR to the operator), a return receipt when a refund
// completes. Subscribers of afterPaymentPaid and of the journal's payment.refunded, wired in subscribers.ts;
// the sending job does the rest. Nothing here calls a register.
import type { Queryable } from '../../db/db.ts';
import type { JournalEvent } from '../events/types.ts';
import { newId } from '../ids.ts';
import type { Operation } from '../payments/operations.ts';
import { itemsOf, returnLines, saleLines } from './lines.ts';
import { registerFor } from './registers-store.ts';
import { insertReceipt, saleReceiptOf } from './receipts-store.ts';

/** Wakes the sending job at once (jobs/fiscal.ts listens), so a receipt does not wait for the next pass. */
export const RECEIPTS_CHANNEL = 'fiscal_receipts';

async function wake(tx: Queryable): Promise<void> {
  await tx.query(`SELECT pg_notify('${RECEIPTS_CHANNEL}', '')`);
}

/**
 * A paid operation's sale receipt, when its mode has an auto register covering its provider account.
 * `payerEmail`: the payer's e-mail when one is known (the checkout's), given to the register (which may
 * send the receipt itself) and used to send the check link when the receipt is issued (send.ts); asked only
 * when a receipt is owed, so a payment without a register pays for one statement, not two.
 */
export async function enqueueSaleReceipt(
  tx: Queryable,
  op: Operation,
  payerEmail: () => Promise<string | null> = async () => null,
): Promise<void> {
  const reg = await registerFor(tx, op.client_id, op.mode, op.provider_account_id);
  if (!reg) return;
  const customerEmail = await payerEmail();
  const lines = saleLines(op.amount, op.items, op.comment, reg);
  const id = await insertReceipt(tx, {
    id: newId('rc'),
    client_id: op.client_id,
    mode: op.mode,
    kind: 'sale',
    operation_id: op.id,
    refund_id: null,
    register_id: reg.id,
    amount: op.amount,
    payment_type: reg.payment_type,
    items: itemsOf(lines),
    customer_email: customerEmail,
  });
  if (id) await wake(tx);
}

/**
 * A completed refund's return receipt, on the register of its sale's receipt: a payment fiscalized by none
 * (paid before any register) has no sale to return against, so it gets none either.
 */
export async function enqueueReturnReceipt(tx: Queryable, e: JournalEvent): Promise<void> {
  if (e.type !== 'payment.refunded') return;
  const { operation_id, refund_id, amount } = e.data as { operation_id: string; refund_id: string; amount: number };
  const sale = await saleReceiptOf(tx, operation_id);
  if (!sale) return;
  const r = await tx.query<{
    items: unknown;
    op_items: unknown;
    comment: string | null;
    vat_payer: boolean;
    vat_rate_bps: number;
    default_item_name: string;
    section_code: string | null;
    payment_type: 'mobile' | 'card';
  }>(
    `SELECT rf.items, o.items AS op_items, o.comment, g.vat_payer, g.vat_rate_bps,
            g.default_item_name, g.section_code, g.payment_type
       FROM refunds rf JOIN operations o ON o.id = rf.operation_id JOIN fiscal_registers g ON g.id = $2
      WHERE rf.id = $1`,
    [refund_id, sale.register_id],
  );
  const x = r.rows[0];
  if (!x) return;
  const lines = returnLines(Number(amount), x.items, { items: x.op_items, comment: x.comment }, x);
  const id = await insertReceipt(tx, {
    id: newId('rc'),
    client_id: sale.client_id,
    mode: sale.mode,
    kind: 'return',
    operation_id,
    refund_id,
    register_id: sale.register_id,
    amount: Number(amount),
    payment_type: sale.payment_type,
    items: itemsOf(lines),
    customer_email: sale.customer_email,
  });
  if (id) await wake(tx);
}
