// The built-in sandbox provider: no network, no money. It keeps its own ledger (sandbox_payments) apart
// from Tolem's operations, so Tolem learns of a payment exactly as from a real provider: by asking.
// Test helpers drive it (simulate), like a customer acting in the provider's app.
//
// A payment nobody has acted on yet is described by its ref alone (kind, amount, deadline, then 12 random
// bytes): the ledger gets its row at the first change (paid, declined, expired, cancelled). Creating a QR
// or an invoice therefore writes nothing here, as a real provider's costs Tolem's database nothing; before,
// the ledger insert was one of the three transactions of every test-mode creation. Rows written before
// refs described themselves are still read and changed as rows.
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/db.ts';
import type { PaymentProvider, ProviderStatus } from './types.ts';

interface Row {
  ref: string;
  kind: string;
  amount: number;
  status: string;
  sender_name: string | null;
  sender_phone: string | null;
  transaction_id: string | null;
  paid_at: Date | null;
  refunded: number;
  expired: boolean;
}

type Kind = 'qr' | 'invoice';
const REF_KIND = { qr: 'qr', invoice: 'inv' } as const;
/** The provider's word for a payment still waiting, per kind. */
const WAITING = { qr: 'QrTokenCreated', invoice: 'InvoiceCreated' } as const;

export interface DescribedRef {
  kind: Kind;
  amount: number;
  expiresAt: Date;
}

export function sandboxRef(d: DescribedRef): string {
  return `sbx_${REF_KIND[d.kind]}_${d.amount.toString(36)}_${d.expiresAt.getTime().toString(36)}_${randomBytes(12).toString('hex')}`;
}

/** What a ref says of its payment; null for anything else (an older ref, garbage). */
export function describeRef(ref: string): DescribedRef | null {
  const m = /^sbx_(qr|inv)_([0-9a-z]{1,11})_([0-9a-z]{1,9})_[0-9a-f]{24}$/.exec(ref);
  if (!m) return null;
  const amount = parseInt(m[2], 36);
  const expiresAt = new Date(parseInt(m[3], 36));
  if (!Number.isSafeInteger(amount) || amount <= 0 || Number.isNaN(expiresAt.getTime())) return null;
  return { kind: m[1] === 'qr' ? 'qr' : 'invoice', amount, expiresAt };
}

export const SANDBOX_SENDER = 'Sandbox Customer';

export function isSandboxCustomer(phone: string): boolean {
  return !phone.endsWith('0000');
}

interface Change {
  status: 'Paid' | 'Expired' | 'Declined' | 'Cancelled';
  payer?: { senderName: string; phone: string | null; transactionId: string };
}

export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox';

  constructor(private db: Db, private publicBaseUrl: string) {}

  // The deadline comes from this process's clock, the ledger's now() from the database's: one machine's
  // clock wherever the sandbox runs.
  async createQr(input: { amount: number; lifetimeS: number }) {
    const expiresAt = new Date(Date.now() + input.lifetimeS * 1000);
    const r = sandboxRef({ kind: 'qr', amount: input.amount, expiresAt });
    return { ref: r, qrToken: `${this.publicBaseUrl}/sandbox/qr/${r}`, deepLink: `https://sandbox.tolem.kz/pay?ref=${r}`, expiresAt };
  }

  async createInvoice(input: { phone: string; amount: number; lifetimeS: number }) {
    const expiresAt = new Date(Date.now() + input.lifetimeS * 1000);
    return { ref: sandboxRef({ kind: 'invoice', amount: input.amount, expiresAt }), expiresAt };
  }

  private async row(r: string): Promise<Row | undefined> {
    const res = await this.db.query<Row>(
      `SELECT ref, kind, amount, status, sender_name, sender_phone, transaction_id, paid_at, refunded,
              expires_at <= now() AS expired
         FROM sandbox_payments WHERE ref = $1`,
      [r],
    );
    return res.rows[0];
  }

  async getStatus(r: string): Promise<ProviderStatus> {
    const row = await this.row(r);
    if (!row) {
      const d = describeRef(r);
      if (!d) return { status: 'expired', raw: 'NotFound' };
      return d.expiresAt.getTime() <= Date.now() ? { status: 'expired', raw: 'Expired' } : { status: 'waiting', raw: WAITING[d.kind] };
    }
    switch (row.status) {
      case 'Paid':
        return { status: 'paid', raw: 'Paid', senderName: row.sender_name, senderPhone: row.sender_phone, transactionId: row.transaction_id, paidAt: row.paid_at };
      case 'Cancelled':
        return { status: 'cancelled', raw: 'Cancelled' };
      case 'Declined':
        return { status: 'declined', raw: 'Declined' };
      case 'Expired':
        return { status: 'expired', raw: 'Expired' };
      default:
        return row.expired ? { status: 'expired', raw: 'Expired' } : { status: 'waiting', raw: row.status };
    }
  }

  /**
   * Moves a payment still waiting to `next`, creating its ledger row from the ref at its first change.
   * `pastDeadline` lets the change happen after the deadline (expiring it, cancelling an invoice). One
   * statement, so two concurrent changes of one payment cannot both succeed. Returns whether it changed.
   */
  private async change(r: string, next: Change, pastDeadline: boolean): Promise<boolean> {
    // An invoice may be cancelled twice (the second is a no-op success); nothing else changes twice.
    const from = next.status === 'Cancelled' ? `'InvoiceCreated', 'Cancelled'` : `'QrTokenCreated', 'InvoiceCreated'`;
    const allowed = (t: string) => `${t}status IN (${from}) AND (${t}expires_at > now() OR $7::boolean)`;
    const params = [r, next.status, Boolean(next.payer), next.payer?.senderName ?? null, next.payer?.phone ?? null, next.payer?.transactionId ?? null, pastDeadline];
    const d = describeRef(r);
    if (!d || (next.status === 'Cancelled' && d.kind !== 'invoice')) {
      // An older ref has had its row since creation; anything else changes nothing.
      const res = await this.db.query(
        `UPDATE sandbox_payments SET status = $2, paid_at = CASE WHEN $3::boolean THEN now() END, sender_name = $4, sender_phone = $5,
                transaction_id = $6
          WHERE ref = $1 AND ${allowed('')}`,
        params,
      );
      return res.rowCount > 0;
    }
    const res = await this.db.query(
      `INSERT INTO sandbox_payments AS s (ref, status, paid_at, sender_name, sender_phone, transaction_id, kind, amount, expires_at)
       SELECT $1::text, $2::text, CASE WHEN $3::boolean THEN now() END, $4::text, $5::text, $6::text, $8::text, $9::bigint, $10::timestamptz
        WHERE $10::timestamptz > now() OR $7::boolean
       ON CONFLICT (ref) DO UPDATE SET status = EXCLUDED.status, paid_at = EXCLUDED.paid_at, sender_name = EXCLUDED.sender_name,
              sender_phone = EXCLUDED.sender_phone, transaction_id = EXCLUDED.transaction_id
        WHERE ${allowed('s.')}`,
      [...params, d.kind, d.amount, d.expiresAt],
    );
    return res.rowCount > 0;
  }

  async cancelInvoice(r: string): Promise<boolean> {
    return this.change(r, { status: 'Cancelled' }, true);
  }

  async refund(r: string, amount: number, refundId: string) {
    // One ledger row per refund id: a refund sent again answers its first outcome and moves nothing more.
    return this.db.tx(async (tx) => {
      const seen = await tx.query<{ provider_ref: string; status: 'completed' | 'failed' }>(
        'SELECT provider_ref, status FROM sandbox_refunds WHERE id = $1 FOR UPDATE', [refundId],
      );
      if (seen.rows[0]) return { ref: seen.rows[0].provider_ref, status: seen.rows[0].status };
      // Only a paid payment can be refunded, and a paid one has its ledger row.
      const res = await tx.query(
        `UPDATE sandbox_payments SET refunded = refunded + $2 WHERE ref = $1 AND status = 'Paid' AND refunded + $2 <= amount`,
        [r, amount],
      );
      const outcome = { ref: `${r}_rf_${randomBytes(6).toString('hex')}`, status: res.rowCount ? ('completed' as const) : ('failed' as const) };
      // A concurrent first send of the same id conflicts here and rolls this one back (the caller retries).
      await tx.query(
        'INSERT INTO sandbox_refunds (id, ref, amount, status, provider_ref) VALUES ($1, $2, $3, $4, $5)',
        [refundId, r, amount, outcome.status, outcome.ref],
      );
      return outcome;
    });
  }

  async findCustomer(phone: string) {
    return isSandboxCustomer(phone) ? { phone, name: SANDBOX_SENDER } : null;
  }

  async checkSession() {
    return true;
  }

  /**
   * What a customer does in the provider's app. Returns false when the payment is no longer waiting
   * (already paid, expired, cancelled): the provider refuses. Only a payment not past its deadline can be
   * paid or declined.
   */
  async simulate(r: string, action: 'pay' | 'expire' | 'decline', payer: { senderName?: string; phone?: string } = {}): Promise<boolean> {
    if (action === 'pay') {
      const tx = `sbx_tx_${randomBytes(8).toString('hex')}`;
      return this.change(r, { status: 'Paid', payer: { senderName: payer.senderName ?? SANDBOX_SENDER, phone: payer.phone ?? null, transactionId: tx } }, false);
    }
    return this.change(r, { status: action === 'expire' ? 'Expired' : 'Declined' }, action === 'expire');
  }
}
