// The built-in sandbox provider: no network, no money. It keeps its own ledger (sandbox_payments) apart
// from Tolem's operations, so Tolem learns of a payment exactly as from a real provider: by asking.
// Test helpers drive it (simulate), like a customer acting in the provider's app.
//
// A payment nobody has acted on yet is described by its ref alone (kind, amount, deadline, then 12 random
// bytes): the ledger gets its row at the first change (paid, declined, expired, cancelled). Creating a QR
// or an invoice therefore writes nothing here, as a real provider's costs Tolem's database nothing; before,
// the ledger insert was one of the three transactions of every test-mode creation. Rows written before
// refs described themselves are still read and changed as rows. The SQL lives in sandbox-ledger.ts.
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/db.ts';
import { SandboxLedger, type Change, type Terms } from './sandbox-ledger.ts';
import { ALL_CAPABILITIES, type PaymentProvider, type ProviderStatus } from './types.ts';

const REF_KIND = { qr: 'qr', invoice: 'inv' } as const;
/** The provider's word for a payment still waiting, per kind. */
const WAITING = { qr: 'QrTokenCreated', invoice: 'InvoiceCreated' } as const;

/** A ref describes exactly what the ledger row is later created from. */
export type DescribedRef = Terms;

export function sandboxRef(d: DescribedRef): string {
  const expiry = d.expiresAt.getTime().toString(36);
  return `sbx_${REF_KIND[d.kind]}_${d.amount.toString(36)}_${expiry}_${randomBytes(12).toString('hex')}`;
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

export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox';
  readonly capabilities = ALL_CAPABILITIES;

  private ledger: SandboxLedger;

  constructor(
    db: Db,
    private publicBaseUrl: string,
  ) {
    this.ledger = new SandboxLedger(db);
  }

  // The deadline comes from this process's clock, the ledger's now() from the database's: one machine's
  // clock wherever the sandbox runs.
  async createQr(input: { amount: number; lifetimeS: number }) {
    const expiresAt = new Date(Date.now() + input.lifetimeS * 1000);
    const r = sandboxRef({ kind: 'qr', amount: input.amount, expiresAt });
    // The QR and its deep link both open the sandbox payer's page: a phone that scans a test QR lands there.
    const payerPage = `${this.publicBaseUrl}/sandbox/qr/${r}`;
    return { ref: r, qrToken: payerPage, deepLink: payerPage, expiresAt };
  }

  async createInvoice(input: { phone: string; amount: number; lifetimeS: number }) {
    const expiresAt = new Date(Date.now() + input.lifetimeS * 1000);
    return { ref: sandboxRef({ kind: 'invoice', amount: input.amount, expiresAt }), expiresAt };
  }

  async getStatus(r: string): Promise<ProviderStatus> {
    const row = await this.ledger.find(r);
    if (!row) {
      const d = describeRef(r);
      if (!d) return { status: 'expired', raw: 'NotFound' };
      return d.expiresAt.getTime() <= Date.now()
        ? { status: 'expired', raw: 'Expired' }
        : { status: 'waiting', raw: WAITING[d.kind] };
    }
    switch (row.status) {
      case 'Paid':
        return {
          status: 'paid',
          raw: 'Paid',
          senderName: row.sender_name,
          senderPhone: row.sender_phone,
          transactionId: row.transaction_id,
          paidAt: row.paid_at,
        };
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
   * Moves a payment still waiting to `next` (see SandboxLedger.change), creating its ledger row from the
   * ref at its first change. Returns whether it changed.
   */
  private async change(r: string, next: Change, pastDeadline: boolean): Promise<boolean> {
    const d = describeRef(r);
    // An older ref has had its row since creation, and only an invoice can be cancelled: neither creates
    // a row, they change an existing one or nothing.
    const terms = !d || (next.status === 'Cancelled' && d.kind !== 'invoice') ? null : d;
    return this.ledger.change(r, next, pastDeadline, terms);
  }

  async cancelInvoice(r: string): Promise<boolean> {
    return this.change(r, { status: 'Cancelled' }, true);
  }

  async refund(r: string, amount: number, refundId: string) {
    return this.ledger.refundOnce(refundId, r, amount, `${r}_rf_${randomBytes(6).toString('hex')}`);
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
  async simulate(
    r: string,
    action: 'pay' | 'expire' | 'decline',
    payer: { senderName?: string; phone?: string } = {},
  ): Promise<boolean> {
    if (action === 'pay') {
      const tx = `sbx_tx_${randomBytes(8).toString('hex')}`;
      return this.change(
        r,
        {
          status: 'Paid',
          payer: { senderName: payer.senderName ?? SANDBOX_SENDER, phone: payer.phone ?? null, transactionId: tx },
        },
        false,
      );
    }
    return this.change(r, { status: action === 'expire' ? 'Expired' : 'Declined' }, action === 'expire');
  }
}
