// A client's cash registers (decisions 27): set up with the service's credentials (checked live before
// anything is stored, then sealed and never returned), listed, edited, deleted once nothing waits on them,
// checked, and their shift closed on demand. Test mode takes only the sandbox driver.
import type { DbDeps, DbSecretsDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { FiscalError, type FiscalDriverName, type RegisterInfo } from '../../fiscal/types.ts';
import { newId } from '../ids.ts';
import { decodeCursor, encodeCursor, page, type PageResult, type Paging } from '../pagination.ts';
import type { Receipt } from '../receipt.ts';
import type { Tenant } from '../tenant.ts';
import { RegisterConnection, type FiscalDeps } from './connection.ts';
import {
  findRegister,
  findSealedRegister,
  leaseOne,
  REGISTER_COLUMNS,
  releaseLease,
  saveRegisterState,
  type Register,
} from './registers-store.ts';
import { pendingCount } from './receipts-store.ts';
import { closeShift, LEASE_S } from './send.ts';
import { shiftsOf, type Shift } from './shifts-store.ts';

export interface RegisterInput {
  driver: string;
  display_name?: string | null;
  credentials: Record<string, unknown>;
  register_number: string;
  payment_type?: string;
  vat_payer?: boolean;
  vat_rate_bps?: number;
  default_item_name?: string;
  section_code?: string | null;
  provider_account_id?: number | null;
  auto?: boolean;
}

export type RegisterPatch = Partial<Omit<RegisterInput, 'driver' | 'register_number'>>;

const bad = (param: string, message: string) => new AppError('invalid_parameter', message, { param });

/** The credentials a driver takes, as strings; anything else named is refused, not ignored. */
function credentialsFor(deps: Pick<FiscalDeps, 'fiscal'>, driver: FiscalDriverName, raw: Record<string, unknown>) {
  const spec = deps.fiscal.spec(driver).credentials;
  const known = new Set([...spec.required, ...spec.optional]);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (!known.has(k)) throw bad(`credentials.${k}`, `the ${driver} driver takes no credential ${k}`);
    if (typeof v !== 'string' || !v || v.length > 500)
      throw bad(`credentials.${k}`, `credentials.${k} must be a non-empty string of at most 500 characters`);
    out[k] = v;
  }
  for (const k of spec.required)
    if (!out[k]) throw bad(`credentials.${k}`, `the ${driver} driver needs credentials.${k}`);
  return out;
}

async function checkAccount(deps: DbDeps, tenant: Tenant, id: number | null | undefined): Promise<void> {
  if (id == null) return;
  const r = await deps.db.query(
    'SELECT 1 FROM provider_accounts WHERE id = $1 AND client_id = $2 AND mode = $3 AND deleted_at IS NULL',
    [id, tenant.clientId, tenant.mode],
  );
  if (!r.rows[0]) throw bad('provider_account_id', `no provider account ${id} in ${tenant.mode} mode`);
}

/** A service's answer to a live probe, in the API's words. */
function probeError(err: unknown): AppError {
  if (err instanceof FiscalError) {
    if (['auth_failed', 'blocked', 'rejected', 'offline_expired'].includes(err.kind))
      return new AppError('fiscal_register_refused', `the cash-register service refused: ${err.message}`, {
        cause: err,
      });
    return new AppError('fiscal_service_unavailable', `the cash-register service did not answer: ${err.message}`, {
      cause: err,
    });
  }
  return new AppError('fiscal_service_unavailable', 'the cash-register service did not answer', { cause: err });
}

const stateOf = (info: RegisterInfo) => ({
  status: info.status,
  unique_number: info.uniqueNumber,
  registration_number: info.registrationNumber,
  ofd: info.ofd,
  shift: info.shift,
  checked: true,
});

export async function createRegister(
  deps: FiscalDeps,
  tenant: Tenant,
  input: RegisterInput,
  receipt?: Receipt<Register>,
): Promise<Register> {
  if (!deps.fiscal.has(input.driver)) throw bad('driver', `unknown fiscal driver ${input.driver}`);
  const driver = input.driver;
  if (deps.fiscal.spec(driver).testMode !== (tenant.mode === 'test'))
    throw bad(
      'driver',
      tenant.mode === 'test'
        ? 'test mode takes only the sandbox driver'
        : `the ${driver} driver issues no legal receipts: live mode takes webkassa or rekassa`,
    );
  const credentials = credentialsFor(deps, driver, input.credentials);
  await checkAccount(deps, tenant, input.provider_account_id);
  const id = newId('fr');
  const sealed = deps.secrets.sealer.seal(JSON.stringify(credentials));
  // The live check before anything is stored: wrong credentials are told now, not at the first payment.
  const d = deps.fiscal.driver(driver, { registerId: id, registerNumber: input.register_number, credentials });
  let info: RegisterInfo;
  let session: string;
  try {
    const s = await d.authorize();
    session = deps.secrets.sealer.seal(JSON.stringify(s));
    info = await d.registerInfo(s);
  } catch (err) {
    throw probeError(err);
  }
  return deps.db.tx(async (tx) => {
    const r = await tx.query<Register>(
      `INSERT INTO fiscal_registers (id, client_id, mode, driver, display_name, credentials_sealed, register_number,
              payment_type, vat_payer, vat_rate_bps, default_item_name, section_code, provider_account_id, auto,
              status, unique_number, registration_number, ofd, shift_number, shift_opened_at, checked_at,
              session_sealed)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18::jsonb, $19, $20,
               now(), $21)
       ON CONFLICT (client_id, mode, driver, register_number) WHERE deleted_at IS NULL DO NOTHING
       RETURNING ${REGISTER_COLUMNS}`,
      [
        id,
        tenant.clientId,
        tenant.mode,
        driver,
        input.display_name ?? null,
        sealed,
        input.register_number,
        input.payment_type ?? 'mobile',
        input.vat_payer ?? false,
        input.vat_rate_bps ?? 1600,
        input.default_item_name ?? 'Оплата',
        input.section_code ?? null,
        input.provider_account_id ?? null,
        input.auto ?? true,
        info.status,
        info.uniqueNumber,
        info.registrationNumber,
        info.ofd ? JSON.stringify(info.ofd) : null,
        info.shift?.number ?? null,
        info.shift?.openedAt ?? null,
        session,
      ],
    );
    if (!r.rows[0])
      throw new AppError('fiscal_register_exists', `a ${driver} register ${input.register_number} is already set up`);
    if (receipt) await receipt.save(tx, r.rows[0]);
    return r.rows[0];
  });
}

export async function listRegisters(
  deps: DbSecretsDeps,
  tenant: Tenant,
  paging: Paging,
): Promise<PageResult<Register & { pending_receipts: number }>> {
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: 'me.fiscal.registers',
      filters: { mode: tenant.mode },
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after, take) => {
      const params: unknown[] = [tenant.clientId, tenant.mode];
      const where = ['client_id = $1', 'mode = $2', 'deleted_at IS NULL'];
      if (after) where.push(`(created_at, id) < ($${params.push(after.createdAt)}, $${params.push(after.id)})`);
      const r = await deps.db.query<Register & { pending_receipts: number }>(
        `SELECT ${REGISTER_COLUMNS}, (SELECT count(*)::int FROM fiscal_receipts rc
                 WHERE rc.register_id = g.id AND rc.status = 'pending') AS pending_receipts
           FROM fiscal_registers g WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ${take}`,
        params,
      );
      return r.rows;
    },
    (g) => g.id,
  );
}

export async function getRegister(deps: DbDeps, tenant: Tenant, id: string) {
  const g = await findRegister(deps.db, tenant, id);
  return { ...g, pending_receipts: await pendingCount(deps.db, id) };
}

export async function patchRegister(
  deps: FiscalDeps,
  tenant: Tenant,
  id: string,
  patch: RegisterPatch,
): Promise<Register> {
  const g = await findRegister(deps.db, tenant, id);
  if (patch.provider_account_id !== undefined) await checkAccount(deps, tenant, patch.provider_account_id);
  const credentials = patch.credentials ? credentialsFor(deps, g.driver, patch.credentials) : undefined;
  const sets: string[] = [];
  const params: unknown[] = [id];
  const set = (col: string, v: unknown) => sets.push(`${col} = $${params.push(v)}`);
  for (const k of [
    'display_name',
    'payment_type',
    'vat_payer',
    'vat_rate_bps',
    'default_item_name',
    'section_code',
    'provider_account_id',
    'auto',
  ] as const)
    if (patch[k] !== undefined) set(k, patch[k]);
  if (credentials) {
    // New credentials are checked like new ones at set-up, and drop the old session.
    const d = deps.fiscal.driver(g.driver, { registerId: id, registerNumber: g.register_number, credentials });
    try {
      const s = await d.authorize();
      const info = await d.registerInfo(s);
      set('credentials_sealed', deps.secrets.sealer.seal(JSON.stringify(credentials)));
      set('session_sealed', deps.secrets.sealer.seal(JSON.stringify(s)));
      set('status', info.status);
    } catch (err) {
      throw probeError(err);
    }
  }
  if (!sets.length) return g;
  const r = await deps.db.query<Register>(
    `UPDATE fiscal_registers SET ${sets.join(', ')}, updated_at = now() WHERE id = $1 RETURNING ${REGISTER_COLUMNS}`,
    params,
  );
  return r.rows[0];
}

/** Deleted once no receipt waits on it; its issued receipts keep pointing at it (the row stays, marked). */
export async function deleteRegister(deps: DbDeps, tenant: Tenant, id: string): Promise<void> {
  await findRegister(deps.db, tenant, id);
  await deps.db.tx(async (tx) => {
    const r = await tx.query(
      `UPDATE fiscal_registers SET deleted_at = now(), auto = false, credentials_sealed = '', session_sealed = NULL,
              updated_at = now()
        WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM fiscal_receipts WHERE register_id = $1 AND status = 'pending')
        RETURNING id`,
      [id],
    );
    if (!r.rows[0])
      throw new AppError('fiscal_receipts_pending', 'receipts of this register are still pending; retry after them');
  });
}

/** Runs `fn` with the register's lease (one request at a time), or 409 while its receipts are being sent. */
async function withLease<T>(deps: FiscalDeps, tenant: Tenant, id: string, fn: (c: RegisterConnection) => Promise<T>) {
  await findRegister(deps.db, tenant, id);
  if (!(await leaseOne(deps.db, id, LEASE_S)))
    throw new AppError('fiscal_register_busy', 'the register is sending receipts; try again in a moment');
  try {
    const reg = await findSealedRegister(deps.db, id);
    return await fn(new RegisterConnection(deps, reg!));
  } finally {
    await releaseLease(deps.db, id);
  }
}

/** The live probe: the service's view of the register, stored. */
export async function checkRegister(deps: FiscalDeps, tenant: Tenant, id: string): Promise<Register> {
  return withLease(deps, tenant, id, async (c) => {
    let info: RegisterInfo;
    try {
      info = await c.call((s) => c.driver.registerInfo(s));
    } catch (err) {
      const e = probeError(err);
      if (e.code === 'fiscal_register_refused') return findRegister(deps.db, tenant, id);
      throw e;
    }
    return (await saveRegisterState(deps.db, id, stateOf(info)))!;
  });
}

/** The Z-report now (an accountant's end of day); null when no shift was open. */
export async function closeShiftNow(deps: FiscalDeps, tenant: Tenant, id: string) {
  return withLease(deps, tenant, id, async (c) => {
    try {
      return await closeShift(deps, c);
    } catch (err) {
      throw probeError(err);
    }
  });
}

/** A register's shifts, newest first: keyset pages by shift number, signed like every cursor. */
export async function listShifts(
  deps: DbSecretsDeps,
  tenant: Tenant,
  id: string,
  paging: Paging,
): Promise<PageResult<Shift>> {
  await findRegister(deps.db, tenant, id);
  const opts = { endpoint: 'me.fiscal.shifts', filters: { register: id } };
  const before = paging.cursor
    ? Number(decodeCursor(deps.secrets.appSecret, opts.endpoint, opts.filters, paging.cursor).id)
    : null;
  const rows = await shiftsOf(deps.db, id, before, paging.limit + 1);
  const has_more = rows.length > paging.limit;
  const data = rows.slice(0, paging.limit);
  const last = data[data.length - 1];
  return {
    data,
    has_more,
    next_cursor:
      has_more && last
        ? encodeCursor(deps.secrets.appSecret, opts.endpoint, opts.filters, {
            createdAt: new Date(0),
            id: String(last.number),
          })
        : null,
  };
}
