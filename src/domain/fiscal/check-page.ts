// The sandbox register's check page (GET /fiscal/check, decisions 27): what a fiscal data operator's page
// shows of a receipt, found by the four parameters its check URL carries. The sandbox ledger answers for
// the sign, lines, total, time and shift; Tolem's receipt (the ledger's external number is its id) gives
// the register, the payment type and the client, whose requisites name the seller. Nothing is told about
// which parameter did not match: any mismatch is simply "no such receipt".
import type { DbDeps } from '../../deps.ts';
import { sandboxReceiptByCheck } from '../../fiscal/sandbox.ts';
import { vatInsideTiyn, type FiscalLine } from '../../fiscal/types.ts';
import { sellerOf, type Seller } from '../organization/organization.ts';

export interface CheckQuery {
  /** fiscal sign */
  i: string;
  /** the register's registration number (РНМ) */
  f: string;
  /** total with two decimals */
  s: string;
  /** local time yyyyMMddTHHmmss */
  t: string;
}

export interface CheckLine {
  name: string;
  quantity: number;
  price: number;
  total: number;
  /** VAT inside the line's total in tiyn; null: the line carries no VAT */
  vat_tiyn: number | null;
  vat_rate_bps: number | null;
}

export interface CheckPageReceipt {
  client_id: number;
  kind: 'sale' | 'return';
  fiscal_sign: string;
  registration_number: string;
  /** ЗНМ: the register's own (factory) number */
  unique_number: string | null;
  shift_number: number;
  number_in_shift: number;
  issued_at: Date;
  payment_type: 'mobile' | 'card';
  lines: CheckLine[];
  total: number;
  /** the receipt's VAT in tiyn when any line carries VAT, else null */
  vat_tiyn: number | null;
  ofd_name: string | null;
  seller: Seller;
}

const SHAPE = /^[0-9A-Za-z]{1,64}$/;

/** The receipt the check URL names, or null (unknown or any parameter not its own). */
export async function findCheckReceipt(deps: DbDeps, q: CheckQuery): Promise<CheckPageReceipt | null> {
  // Malformed parameters are "not found" without a query.
  if (!SHAPE.test(q.i) || !SHAPE.test(q.f) || !/^\d{1,15}\.\d{2}$/.test(q.s) || !/^\d{8}T\d{6}$/.test(q.t)) return null;
  const sb = await sandboxReceiptByCheck(deps.db, q);
  if (!sb) return null;
  const r = await deps.db.query<{
    client_id: number;
    kind: 'sale' | 'return';
    payment_type: 'mobile' | 'card';
    unique_number: string | null;
    ofd: { name?: string } | null;
  }>(
    `SELECT r.client_id, r.kind, r.payment_type, g.unique_number, g.ofd
       FROM fiscal_receipts r JOIN fiscal_registers g ON g.id = r.register_id
      WHERE r.id = $1 AND r.register_id = $2 AND r.mode = 'test'`,
    [sb.external_number, sb.register_id],
  );
  const rc = r.rows[0];
  if (!rc) return null;
  const lines = (Array.isArray(sb.lines) ? (sb.lines as FiscalLine[]) : []).map(
    (l): CheckLine => ({
      name: l.name,
      quantity: Number(l.quantity),
      price: Number(l.price),
      total: Number(l.total),
      vat_rate_bps: l.vatRateBps ?? null,
      vat_tiyn: l.vatRateBps ? vatInsideTiyn(Number(l.total), l.vatRateBps) : null,
    }),
  );
  const taxed = lines.filter((l) => l.vat_tiyn !== null);
  return {
    client_id: Number(rc.client_id),
    kind: rc.kind,
    fiscal_sign: sb.fiscal_sign,
    registration_number: q.f,
    unique_number: rc.unique_number,
    shift_number: sb.shift_number,
    number_in_shift: Number(sb.number_in_shift),
    issued_at: sb.issued_at,
    payment_type: rc.payment_type,
    lines,
    total: sb.total,
    vat_tiyn: taxed.length ? taxed.reduce((t, l) => t + (l.vat_tiyn ?? 0), 0) : null,
    ofd_name: rc.ofd?.name ?? null,
    seller: await sellerOf(deps.db, Number(rc.client_id)),
  };
}
