// The built-in sandbox provider: no network, no money. It keeps its own ledger (sandbox_payments) apart
// from Tolem's operations, so Tolem learns of a payment exactly as from a real provider: by asking.
// Test helpers drive it (simulate), like a customer acting in the provider's app.
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

const ref = (kind: string) => `sbx_${kind}_${randomBytes(12).toString('hex')}`;

export const SANDBOX_SENDER = 'Sandbox Customer';

export function isSandboxCustomer(phone: string): boolean {
  return !phone.endsWith('0000');
}

export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox';

  constructor(private db: Db, private publicBaseUrl: string) {}

  // Creations commit relaxed (Db.relaxed): the operation that records the ref commits synchronously
  // right after, which makes this row durable too.
  async createQr(input: { amount: number; lifetimeS: number }) {
    const r = ref('qr');
    const res = await this.db.relaxed.query<{ expires_at: Date }>(
      `INSERT INTO sandbox_payments (ref, kind, amount, status, expires_at)
       VALUES ($1, 'qr', $2, 'QrTokenCreated', now() + make_interval(secs => $3)) RETURNING expires_at`,
      [r, input.amount, input.lifetimeS],
    );
    return { ref: r, qrToken: `${this.publicBaseUrl}/sandbox/qr/${r}`, deepLink: `https://sandbox.tolem.kz/pay?ref=${r}`, expiresAt: res.rows[0].expires_at };
  }

  async createInvoice(input: { phone: string; amount: number; lifetimeS: number }) {
    const r = ref('inv');
    const res = await this.db.relaxed.query<{ expires_at: Date }>(
      `INSERT INTO sandbox_payments (ref, kind, amount, phone, status, expires_at)
       VALUES ($1, 'invoice', $2, $3, 'InvoiceCreated', now() + make_interval(secs => $4)) RETURNING expires_at`,
      [r, input.amount, input.phone, input.lifetimeS],
    );
    return { ref: r, expiresAt: res.rows[0].expires_at };
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
    if (!row) return { status: 'expired', raw: 'NotFound' };
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

  async cancelInvoice(r: string): Promise<boolean> {
    const res = await this.db.query(
      `UPDATE sandbox_payments SET status = 'Cancelled' WHERE ref = $1 AND status IN ('InvoiceCreated', 'Cancelled')`,
      [r],
    );
    return res.rowCount > 0;
  }

  async refund(r: string, amount: number) {
    const res = await this.db.query(
      `UPDATE sandbox_payments SET refunded = refunded + $2 WHERE ref = $1 AND status = 'Paid' AND refunded + $2 <= amount`,
      [r, amount],
    );
    return { ref: `${r}_rf_${randomBytes(6).toString('hex')}`, status: res.rowCount ? ('completed' as const) : ('failed' as const) };
  }

  async findCustomer(phone: string) {
    return isSandboxCustomer(phone) ? { phone, name: SANDBOX_SENDER } : null;
  }

  async checkSession() {
    return true;
  }

  /**
   * What a customer does in the provider's app. Returns false when the payment is no longer waiting
   * (already paid, expired, cancelled): the provider refuses.
   */
  async simulate(r: string, action: 'pay' | 'expire' | 'decline', payer: { senderName?: string; phone?: string } = {}): Promise<boolean> {
    const sets: Record<typeof action, string> = {
      pay: `status = 'Paid', paid_at = now(), sender_name = $2, sender_phone = $3, transaction_id = $4`,
      expire: `status = 'Expired'`,
      decline: `status = 'Declined'`,
    };
    const params = action === 'pay'
      ? [r, payer.senderName ?? SANDBOX_SENDER, payer.phone ?? null, `sbx_tx_${randomBytes(8).toString('hex')}`]
      : [r];
    // Only a payment still waiting and not past its expiry can change.
    const res = await this.db.query(
      `UPDATE sandbox_payments SET ${sets[action]} WHERE ref = $1 AND status IN ('QrTokenCreated', 'InvoiceCreated')
          AND (expires_at > now() OR $${params.length + 1}::boolean)`,
      [...params, action === 'expire'],
    );
    return res.rowCount > 0;
  }
}
