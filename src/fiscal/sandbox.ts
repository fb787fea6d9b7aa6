// The sandbox register (test mode, decisions 27): well-formed receipts with no outside call. It keeps what a
// cloud register keeps (its registration number, the open shift, the receipts by external number) in its own
// tables and follows the same rules the real services do, so the domain's handling of them is exercised in
// test mode too: the first receipt opens a shift, a shift older than 24 hours refuses until its Z-report, an
// external number is accepted once, a return needs its sale. Its check page is Tolem's own (/fiscal/check),
// addressed like a fiscal data operator's: i = fiscal sign, f = registration number, s = total, t = time.
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/db.ts';
import type { DriverContext, DriverSpec, RegisterBinding } from './registry.ts';
import {
  FiscalError,
  type FiscalDriver,
  type FiscalReceiptRequest,
  type IssuedFiscalReceipt,
  type RegisterInfo,
  type ZReport,
} from './types.ts';

const DAY_MS = 24 * 3600_000;
const ALMATY_MS = 5 * 3600_000;

/** The OFD-style time parameter: local time (UTC+5) as yyyyMMddTHHmmss. */
export function checkTime(at: Date): string {
  const d = new Date(at.getTime() + ALMATY_MS).toISOString();
  return `${d.slice(0, 4)}${d.slice(5, 7)}${d.slice(8, 10)}T${d.slice(11, 13)}${d.slice(14, 16)}${d.slice(17, 19)}`;
}

export function sandboxCheckUrl(publicUrl: string, sign: string, rnm: string, total: number, at: Date): string {
  const q = new URLSearchParams({ i: sign, f: rnm, s: total.toFixed(2), t: checkTime(at) });
  return `${publicUrl.replace(/\/+$/, '')}/fiscal/check?${q}`;
}

/** A stable 12-digit registration number per register, as the tax authority would give one. */
function registrationNumber(registerId: string): string {
  const n = BigInt(`0x${createHash('sha256').update(registerId).digest('hex').slice(0, 15)}`) % 10n ** 11n;
  return `9${n.toString().padStart(11, '0')}`;
}

interface LedgerRow {
  registration_number: string;
  shift_number: number;
  shift_opened_at: Date | null;
}

interface ReceiptRow {
  fiscal_sign: string;
  kind: string;
  total: number;
  shift_number: number;
  issued_at: Date;
}

class SandboxRegister implements FiscalDriver {
  readonly name = 'sandbox' as const;
  constructor(
    private readonly ctx: DriverContext,
    private readonly b: RegisterBinding,
  ) {}

  private async ledger(tx: Queryable, lock: boolean): Promise<LedgerRow> {
    await tx.query(
      `INSERT INTO fiscal_sandbox_registers (register_id, registration_number) VALUES ($1, $2)
       ON CONFLICT (register_id) DO NOTHING`,
      [this.b.registerId, registrationNumber(this.b.registerId)],
    );
    const r = await tx.query<LedgerRow>(
      `SELECT registration_number, shift_number, shift_opened_at FROM fiscal_sandbox_registers
        WHERE register_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [this.b.registerId],
    );
    return r.rows[0];
  }

  private issued(row: ReceiptRow, rnm: string): IssuedFiscalReceipt {
    return {
      fiscalSign: row.fiscal_sign,
      registrationNumber: rnm,
      shiftNumber: row.shift_number,
      issuedAt: row.issued_at,
      offline: false,
      checkUrl: sandboxCheckUrl(this.ctx.publicUrl, row.fiscal_sign, rnm, Number(row.total), row.issued_at),
      ticketUrl: null,
      ref: row.fiscal_sign,
    };
  }

  async authorize() {
    return {};
  }

  async registerInfo(): Promise<RegisterInfo> {
    const l = await this.ledger(this.ctx.db, false);
    return {
      uniqueNumber: this.b.registerNumber,
      registrationNumber: l.registration_number,
      ofd: { name: 'Tolem sandbox', code: null, host: this.ctx.publicUrl },
      status: 'active',
      shift: l.shift_opened_at ? { number: l.shift_number, openedAt: l.shift_opened_at } : null,
    };
  }

  issue(_session: unknown, req: FiscalReceiptRequest): Promise<IssuedFiscalReceipt> {
    return this.ctx.db.tx(async (tx) => {
      const l = await this.ledger(tx, true);
      const now = this.ctx.clock.now();
      const dup = await tx.query(
        'SELECT 1 FROM fiscal_sandbox_receipts WHERE register_id = $1 AND external_number = $2',
        [this.b.registerId, req.externalNumber],
      );
      if (dup.rows[0]) throw new FiscalError('duplicate', 'a receipt with this external number exists', '14');
      if (req.lines.some((x) => x.name.length > 128 || x.total !== x.price * x.quantity) || req.total <= 0)
        throw new FiscalError('rejected', 'lines are not well formed', '9');
      if (req.lines.reduce((t, x) => t + x.total, 0) !== req.total)
        throw new FiscalError('rejected', 'lines do not add up to the total', '9');
      if (l.shift_opened_at && now.getTime() - l.shift_opened_at.getTime() > DAY_MS)
        throw new FiscalError('shift_expired', 'the shift is open longer than 24 hours', '11');
      if (req.kind === 'return') await this.checkBasis(tx, req, l.registration_number);
      let shift = l.shift_number;
      if (!l.shift_opened_at) {
        shift += 1;
        await tx.query(
          'UPDATE fiscal_sandbox_registers SET shift_number = $2, shift_opened_at = $3 WHERE register_id = $1',
          [this.b.registerId, shift, now],
        );
      }
      const r = await tx.query<ReceiptRow>(
        `INSERT INTO fiscal_sandbox_receipts (register_id, external_number, kind, fiscal_sign, total, shift_number,
                issued_at, lines, basis_sign)
         VALUES ($1, $2, $3, nextval('fiscal_sandbox_sign')::text, $4, $5, $6, $7::jsonb, $8)
         RETURNING fiscal_sign, kind, total, shift_number, issued_at`,
        [
          this.b.registerId,
          req.externalNumber,
          req.kind,
          req.total,
          shift,
          now,
          JSON.stringify(req.lines),
          req.basis?.fiscalSign ?? null,
        ],
      );
      return this.issued(r.rows[0], l.registration_number);
    });
  }

  /** A return names a sale of this ledger by its sign, register and total, and returns no more than is left. */
  private async checkBasis(tx: Queryable, req: FiscalReceiptRequest, rnm: string): Promise<void> {
    const b = req.basis;
    if (!b) throw new FiscalError('basis_missing', 'a return needs the sale it returns', '255');
    const sale = await tx.query<{ total: number; returned: number }>(
      `SELECT s.total, (SELECT COALESCE(SUM(r.total), 0) FROM fiscal_sandbox_receipts r
                          WHERE r.kind = 'return' AND r.basis_sign = s.fiscal_sign) AS returned
         FROM fiscal_sandbox_receipts s JOIN fiscal_sandbox_registers g ON g.register_id = s.register_id
        WHERE s.fiscal_sign = $1 AND s.kind = 'sale' AND g.registration_number = $2`,
      [b.fiscalSign, b.registrationNumber],
    );
    const s = sale.rows[0];
    if (!s || Number(s.total) !== b.total || b.registrationNumber !== rnm)
      throw new FiscalError('basis_missing', 'no sale with that fiscal sign, register and total', '9');
    if (Number(s.returned) + req.total > Number(s.total))
      throw new FiscalError('rejected', 'the return exceeds what is left of the sale', '9');
  }

  async lookup(_session: unknown, externalNumber: string): Promise<IssuedFiscalReceipt | null> {
    const l = await this.ledger(this.ctx.db, false);
    const r = await this.ctx.db.query<ReceiptRow>(
      `SELECT fiscal_sign, kind, total, shift_number, issued_at FROM fiscal_sandbox_receipts
        WHERE register_id = $1 AND external_number = $2`,
      [this.b.registerId, externalNumber],
    );
    return r.rows[0] ? this.issued(r.rows[0], l.registration_number) : null;
  }

  closeShift(): Promise<ZReport | null> {
    return this.ctx.db.tx(async (tx) => {
      const l = await this.ledger(tx, true);
      if (!l.shift_opened_at) return null;
      const t = await tx.query<{ kind: string; n: number; total: number }>(
        `SELECT kind, count(*)::int AS n, COALESCE(SUM(total), 0) AS total FROM fiscal_sandbox_receipts
          WHERE register_id = $1 AND shift_number = $2 GROUP BY kind`,
        [this.b.registerId, l.shift_number],
      );
      await tx.query('UPDATE fiscal_sandbox_registers SET shift_opened_at = NULL WHERE register_id = $1', [
        this.b.registerId,
      ]);
      const of = (k: string) => t.rows.find((x) => x.kind === k);
      return {
        shiftNumber: l.shift_number,
        openedAt: l.shift_opened_at,
        closedAt: this.ctx.clock.now(),
        saleCount: of('sale')?.n ?? 0,
        saleTotal: Number(of('sale')?.total ?? 0),
        returnCount: of('return')?.n ?? 0,
        returnTotal: Number(of('return')?.total ?? 0),
        offlineCount: 0,
      };
    });
  }
}

/** What the check page shows of a sandbox receipt, found by the OFD-style parameters. */
export async function sandboxReceiptByCheck(
  db: Queryable,
  q: { i: string; f: string; s: string; t: string },
): Promise<{
  fiscal_sign: string;
  kind: string;
  total: number;
  shift_number: number;
  issued_at: Date;
  lines: unknown;
} | null> {
  const r = await db.query<ReceiptRow & { lines: unknown }>(
    `SELECT s.fiscal_sign, s.kind, s.total, s.shift_number, s.issued_at, s.lines FROM fiscal_sandbox_receipts s
       JOIN fiscal_sandbox_registers g ON g.register_id = s.register_id
      WHERE s.fiscal_sign = $1 AND g.registration_number = $2`,
    [q.i, q.f],
  );
  const row = r.rows[0];
  if (!row || Number(row.total).toFixed(2) !== q.s || checkTime(row.issued_at) !== q.t) return null;
  return { ...row, total: Number(row.total) };
}

export const sandboxSpec: DriverSpec = {
  factory: (ctx, binding) => new SandboxRegister(ctx, binding),
  credentials: { required: [], optional: [] },
  testMode: true,
};
