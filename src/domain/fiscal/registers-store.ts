// The fiscal_registers table's statements (its owner: domain/fiscal). Every read takes the tenant; the
// sealed credentials and session are read only by the functions that open them.
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../errors.ts';
import type { FiscalDriverName, FiscalOfd, RegisterStatus } from '../../fiscal/types.ts';
import type { Mode, Tenant } from '../tenant.ts';

export interface Register {
  id: string;
  client_id: number;
  mode: Mode;
  driver: FiscalDriverName;
  display_name: string | null;
  register_number: string;
  payment_type: 'mobile' | 'card';
  vat_payer: boolean;
  vat_rate_bps: number;
  default_item_name: string;
  section_code: string | null;
  provider_account_id: number | null;
  auto: boolean;
  status: RegisterStatus;
  unique_number: string | null;
  registration_number: string | null;
  ofd: FiscalOfd | null;
  shift_number: number | null;
  shift_opened_at: Date | null;
  checked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const REGISTER_COLUMNS = `id, client_id, mode, driver, display_name, register_number, payment_type, vat_payer,
  vat_rate_bps, default_item_name, section_code, provider_account_id, auto, status, unique_number,
  registration_number, ofd, shift_number, shift_opened_at, checked_at, created_at, updated_at`;

/** A register with what opens it: only the sending job and the checks read these. */
export interface SealedRegister extends Register {
  credentials_sealed: string;
  session_sealed: string | null;
}

export async function findRegister(db: Queryable, tenant: Tenant, id: string): Promise<Register> {
  const r = await db.query<Register>(
    `SELECT ${REGISTER_COLUMNS} FROM fiscal_registers
      WHERE id = $1 AND client_id = $2 AND mode = $3 AND deleted_at IS NULL`,
    [id, tenant.clientId, tenant.mode],
  );
  if (!r.rows[0]) throw new AppError('fiscal_register_not_found', `no fiscal register ${id}`);
  return r.rows[0];
}

export async function findSealedRegister(db: Queryable, id: string): Promise<SealedRegister | null> {
  const r = await db.query<SealedRegister>(
    `SELECT ${REGISTER_COLUMNS}, credentials_sealed, session_sealed FROM fiscal_registers WHERE id = $1`,
    [id],
  );
  return r.rows[0] ?? null;
}

/**
 * The register that fiscalizes an operation of this provider account: an `auto` one of the client and mode
 * bound to that account, else one bound to none (every account), the oldest first so the choice is stable.
 */
export async function registerFor(
  tx: Queryable,
  clientId: number,
  mode: Mode,
  providerAccountId: number,
): Promise<Register | null> {
  const r = await tx.query<Register>(
    `SELECT ${REGISTER_COLUMNS} FROM fiscal_registers
      WHERE client_id = $1 AND mode = $2 AND auto AND deleted_at IS NULL
        AND (provider_account_id = $3 OR provider_account_id IS NULL)
      ORDER BY provider_account_id IS NULL, created_at, id LIMIT 1`,
    [clientId, mode, providerAccountId],
  );
  return r.rows[0] ?? null;
}

/** What a live check or a receipt learned of the register. */
export interface RegisterState {
  status: RegisterStatus;
  unique_number?: string;
  registration_number?: string;
  ofd?: FiscalOfd | null;
  shift?: { number: number; openedAt: Date } | null;
  checked?: boolean;
}

export async function saveRegisterState(db: Queryable, id: string, s: RegisterState): Promise<Register | null> {
  const shiftKnown = s.shift !== undefined;
  const r = await db.query<Register>(
    `UPDATE fiscal_registers SET status = $2,
            unique_number = COALESCE($3, unique_number),
            registration_number = COALESCE($4, registration_number),
            ofd = CASE WHEN $5::boolean THEN $6::jsonb ELSE ofd END,
            shift_number = CASE WHEN $7::boolean THEN $8::integer ELSE shift_number END,
            shift_opened_at = CASE WHEN $7::boolean THEN $9::timestamptz ELSE shift_opened_at END,
            checked_at = CASE WHEN $10::boolean THEN now() ELSE checked_at END,
            updated_at = now()
      WHERE id = $1 RETURNING ${REGISTER_COLUMNS}`,
    [
      id,
      s.status,
      s.unique_number ?? null,
      s.registration_number ?? null,
      s.ofd !== undefined,
      s.ofd ? JSON.stringify(s.ofd) : null,
      shiftKnown,
      s.shift?.number ?? null,
      s.shift?.openedAt ?? null,
      s.checked ?? false,
    ],
  );
  return r.rows[0] ?? null;
}

export async function saveSession(db: Queryable, id: string, sessionSealed: string | null): Promise<void> {
  await db.query('UPDATE fiscal_registers SET session_sealed = $2 WHERE id = $1', [id, sessionSealed]);
}

/**
 * Takes the lease of registers that have a receipt due or a shift to close, so that one job alone talks to
 * each register (the services' one-request-at-a-time rule), for `leaseS` seconds.
 */
export async function claimRegisters(
  db: Queryable,
  opts: { batch: number; leaseS: number; closeBefore: Date },
): Promise<string[]> {
  const r = await db.query<{ id: string }>(
    `UPDATE fiscal_registers SET lease_until = now() + make_interval(secs => $1)
      WHERE id IN (
        SELECT g.id FROM fiscal_registers g
         WHERE (g.lease_until IS NULL OR g.lease_until < now())
           AND (EXISTS (SELECT 1 FROM fiscal_receipts r
                         WHERE r.register_id = g.id AND r.status = 'pending' AND r.next_attempt_at <= now())
                OR (g.deleted_at IS NULL AND g.shift_opened_at IS NOT NULL AND g.shift_opened_at < $2))
         ORDER BY g.id LIMIT ${Math.trunc(opts.batch)} FOR UPDATE SKIP LOCKED)
      RETURNING id`,
    [opts.leaseS, opts.closeBefore],
  );
  return r.rows.map((x) => x.id);
}

export async function extendLease(db: Queryable, id: string, leaseS: number): Promise<void> {
  await db.query('UPDATE fiscal_registers SET lease_until = now() + make_interval(secs => $2) WHERE id = $1', [
    id,
    leaseS,
  ]);
}

export async function releaseLease(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE fiscal_registers SET lease_until = NULL WHERE id = $1', [id]);
}

/** Takes one register's lease now (a close-shift or check asked from the cabinet); false while it is held. */
export async function leaseOne(db: Queryable, id: string, leaseS: number): Promise<boolean> {
  const r = await db.query(
    `UPDATE fiscal_registers SET lease_until = now() + make_interval(secs => $2)
      WHERE id = $1 AND (lease_until IS NULL OR lease_until < now()) RETURNING id`,
    [id, leaseS],
  );
  return r.rows.length > 0;
}
