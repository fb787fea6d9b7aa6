// The sandbox provider's own books (sandbox_payments, sandbox_refunds): every SQL statement the sandbox
// runs lives here, so sandbox.ts reads as the provider's behaviour alone. Each write is one statement
// (or one transaction, for refunds), so concurrent changes of one payment cannot both succeed.
import type { Db } from '../db/db.ts';

export interface LedgerRow {
  ref: string;
  kind: string;
  amount: number;
  status: string;
  sender_name: string | null;
  sender_phone: string | null;
  transaction_id: string | null;
  paid_at: Date | null;
  refunded: number;
  /** Past its deadline by the database's clock. */
  expired: boolean;
}

/** What a payment's row is created from at its first change: what its ref describes. */
export interface Terms {
  kind: 'qr' | 'invoice';
  amount: number;
  expiresAt: Date;
}

export interface Change {
  status: 'Paid' | 'Expired' | 'Declined' | 'Cancelled';
  payer?: { senderName: string; phone: string | null; transactionId: string };
}

export class SandboxLedger {
  constructor(private db: Db) {}

  async find(r: string): Promise<LedgerRow | undefined> {
    const res = await this.db.query<LedgerRow>(
      `SELECT ref, kind, amount, status, sender_name, sender_phone, transaction_id, paid_at, refunded,
              expires_at <= now() AS expired
         FROM sandbox_payments WHERE ref = $1`,
      [r],
    );
    return res.rows[0];
  }

  /**
   * Moves a payment still waiting to `next`. With `terms`, the row is created from them at this first
   * change (or changed if it exists); without, only an existing row changes. `pastDeadline` lets the
   * change happen after the deadline (expiring it, cancelling an invoice). One statement, so two
   * concurrent changes of one payment cannot both succeed. Returns whether it changed.
   */
  async change(r: string, next: Change, pastDeadline: boolean, terms: Terms | null): Promise<boolean> {
    // An invoice may be cancelled twice (the second is a no-op success); nothing else changes twice.
    const from = next.status === 'Cancelled' ? `'InvoiceCreated', 'Cancelled'` : `'QrTokenCreated', 'InvoiceCreated'`;
    const allowed = (t: string) => `${t}status IN (${from}) AND (${t}expires_at > now() OR $7::boolean)`;
    const params = [
      r,
      next.status,
      Boolean(next.payer),
      next.payer?.senderName ?? null,
      next.payer?.phone ?? null,
      next.payer?.transactionId ?? null,
      pastDeadline,
    ];
    if (!terms) {
      const res = await this.db.query(
        `UPDATE sandbox_payments SET status = $2, paid_at = CASE WHEN $3::boolean THEN now() END, sender_name = $4,
                sender_phone = $5, transaction_id = $6
          WHERE ref = $1 AND ${allowed('')}`,
        params,
      );
      return res.rowCount > 0;
    }
    const res = await this.db.query(
      `INSERT INTO sandbox_payments AS s
              (ref, status, paid_at, sender_name, sender_phone, transaction_id, kind, amount, expires_at)
       SELECT $1::text, $2::text, CASE WHEN $3::boolean THEN now() END, $4::text, $5::text, $6::text,
              $8::text, $9::bigint, $10::timestamptz
        WHERE $10::timestamptz > now() OR $7::boolean
       ON CONFLICT (ref) DO UPDATE SET status = EXCLUDED.status, paid_at = EXCLUDED.paid_at,
              sender_name = EXCLUDED.sender_name, sender_phone = EXCLUDED.sender_phone,
              transaction_id = EXCLUDED.transaction_id
        WHERE ${allowed('s.')}`,
      [...params, terms.kind, terms.amount, terms.expiresAt],
    );
    return res.rowCount > 0;
  }

  /**
   * Refunds `amount` of a paid payment once per refund id, recording the outcome under `providerRef`.
   * One ledger row per refund id: a refund sent again answers its first outcome and moves nothing more.
   */
  async refundOnce(refundId: string, r: string, amount: number, providerRef: string) {
    return this.db.tx(async (tx) => {
      const seen = await tx.query<{ provider_ref: string; status: 'completed' | 'failed' }>(
        'SELECT provider_ref, status FROM sandbox_refunds WHERE id = $1 FOR UPDATE',
        [refundId],
      );
      if (seen.rows[0]) return { ref: seen.rows[0].provider_ref, status: seen.rows[0].status };
      // Only a paid payment can be refunded, and a paid one has its ledger row.
      const res = await tx.query(
        `UPDATE sandbox_payments SET refunded = refunded + $2
          WHERE ref = $1 AND status = 'Paid' AND refunded + $2 <= amount`,
        [r, amount],
      );
      const outcome = { ref: providerRef, status: res.rowCount ? ('completed' as const) : ('failed' as const) };
      // A concurrent first send of the same id conflicts here and rolls this one back (the caller retries).
      await tx.query(
        'INSERT INTO sandbox_refunds (id, ref, amount, status, provider_ref) VALUES ($1, $2, $3, $4, $5)',
        [refundId, r, amount, outcome.status, outcome.ref],
      );
      return outcome;
    });
  }
}
