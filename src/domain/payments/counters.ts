// Counters (decisions 28): the tills of a client's trade points. The managers set one up on a provider
// account of its mode; a cashier (or a manager) makes QRs at it, each marked with the counter and the
// person; the counter's payments of the local day are read at the till. A counter is archived, never
// deleted: its payments keep naming it.
import type { Deps, DbDeps, DbSecretsDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../ids.ts';
import { page, type PageResult, type Paging } from '../pagination.ts';
import type { Receipt } from '../receipt.ts';
import type { Mode, Tenant } from '../tenant.ts';
import { createQr, type QrInput } from './create.ts';
import { ITEM_COLUMNS, type ListedOperation, type Operation } from './operations.ts';

export interface Counter {
  id: string;
  name: string;
  provider_account_id: number;
  mode: Mode;
  created_at: Date;
}

const COLUMNS = 'id, name, provider_account_id, mode, created_at';

const notFound = (id: string) => new AppError('counter_not_found', `no counter ${id}`);

/** A counter on one of the client's provider accounts of the mode (400 for any other account). */
export async function createCounter(
  deps: DbDeps,
  tenant: Tenant,
  input: { name: string; provider_account_id: number },
): Promise<Counter> {
  // One statement: the account is checked where the row is written, so a concurrent delete cannot slip
  // between a check and the insert unnoticed by both.
  const r = await deps.db.query<Counter>(
    `INSERT INTO counters (id, client_id, mode, name, provider_account_id)
     SELECT $1, $2, $3, $4, pa.id FROM provider_accounts pa
      WHERE pa.id = $5 AND pa.client_id = $2 AND pa.mode = $3 AND pa.deleted_at IS NULL
     RETURNING ${COLUMNS}`,
    [newId('ct'), tenant.clientId, tenant.mode, input.name, input.provider_account_id],
  );
  if (!r.rows[0])
    throw new AppError('invalid_parameter', `no ${tenant.mode} provider account ${input.provider_account_id}`, {
      param: 'provider_account_id',
    });
  return r.rows[0];
}

/**
 * The client's counters of the mode, newest first. Every member who may read counters sees all of them:
 * a cashier may work any till of the shop (decisions 28 assigns none to a person).
 */
export async function listCounters(deps: DbSecretsDeps, tenant: Tenant, paging: Paging): Promise<PageResult<Counter>> {
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: 'me.counters',
      filters: { mode: tenant.mode },
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after, take) => {
      const params: unknown[] = [tenant.clientId, tenant.mode];
      const where = ['client_id = $1', 'mode = $2', 'archived_at IS NULL'];
      if (after) where.push(`(created_at, id) < ($${params.push(after.createdAt)}, $${params.push(after.id)})`);
      const r = await deps.db.query<Counter>(
        `SELECT ${COLUMNS} FROM counters WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ${take}`,
        params,
      );
      return r.rows;
    },
    (c) => c.id,
  );
}

/** A live (not archived) counter of this client and mode; another tenant's is simply not found. */
export async function getCounter(deps: DbDeps, tenant: Tenant, id: string): Promise<Counter> {
  const r = await deps.db.query<Counter>(
    `SELECT ${COLUMNS} FROM counters WHERE id = $1 AND client_id = $2 AND mode = $3 AND archived_at IS NULL`,
    [id, tenant.clientId, tenant.mode],
  );
  if (!r.rows[0]) throw notFound(id);
  return r.rows[0];
}

export async function renameCounter(deps: DbDeps, tenant: Tenant, id: string, name: string): Promise<Counter> {
  const r = await deps.db.query<Counter>(
    `UPDATE counters SET name = $4 WHERE id = $1 AND client_id = $2 AND mode = $3 AND archived_at IS NULL
     RETURNING ${COLUMNS}`,
    [id, tenant.clientId, tenant.mode, name],
  );
  if (!r.rows[0]) throw notFound(id);
  return r.rows[0];
}

/** Archived: gone from the lists and closed to new QRs; its payments keep their counter_id. */
export async function archiveCounter(deps: DbDeps, tenant: Tenant, id: string): Promise<void> {
  const r = await deps.db.query(
    `UPDATE counters SET archived_at = now() WHERE id = $1 AND client_id = $2 AND mode = $3 AND archived_at IS NULL
     RETURNING id`,
    [id, tenant.clientId, tenant.mode],
  );
  if (!r.rows[0]) throw notFound(id);
}

/**
 * A QR at the counter, through the counter's provider account, marked `source: counter` with the counter
 * and the member who made it (`cashierId`, a user id). The cabinet's creation otherwise: same checks,
 * same idempotency.
 */
export async function createCounterQr(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock' | 'providers' | 'caches'>,
  tenant: Tenant,
  counterId: string,
  cashierId: number,
  input: QrInput,
  receipt?: Receipt<Operation>,
): Promise<Operation> {
  const counter = await getCounter(deps, tenant, counterId);
  return createQr(
    deps,
    {
      clientId: tenant.clientId,
      mode: tenant.mode,
      account: String(counter.provider_account_id),
      source: 'counter',
      counter: { id: counter.id, cashierId },
    },
    input,
    receipt,
  );
}

// Kazakhstan keeps UTC+5 all year (no daylight saving): the till's day is the local one.
const LOCAL_OFFSET_MS = 5 * 3_600_000;
const DAY_MS = 86_400_000;

/** The instants bounding the local (UTC+5) day of `now`: [from, to). */
export function localDayOf(now: Date): { from: Date; to: Date } {
  const from = Math.floor((now.getTime() + LOCAL_OFFSET_MS) / DAY_MS) * DAY_MS - LOCAL_OFFSET_MS;
  return { from: new Date(from), to: new Date(from + DAY_MS) };
}

/** The counter's payments of today (Almaty), newest first, in cursor pages bound to the counter and day. */
export async function listCounterPayments(
  deps: Pick<Deps, 'db' | 'secrets' | 'clock'>,
  tenant: Tenant,
  counterId: string,
  paging: Paging,
): Promise<PageResult<ListedOperation>> {
  // An archived counter's day stays readable: it is the till's past, not another tenant's.
  const exists = await deps.db.query('SELECT 1 FROM counters WHERE id = $1 AND client_id = $2 AND mode = $3', [
    counterId,
    tenant.clientId,
    tenant.mode,
  ]);
  if (!exists.rows[0]) throw notFound(counterId);
  const day = localDayOf(deps.clock.now());
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: 'me.counters.payments',
      // The day is bound to the cursor: a page asked for after midnight does not continue yesterday's list.
      filters: { mode: tenant.mode, counter: counterId, day: day.from.toISOString() },
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after, take) => {
      const params: unknown[] = [counterId, tenant.clientId, tenant.mode, day.from, day.to];
      const where = ['counter_id = $1', 'client_id = $2', 'mode = $3', 'created_at >= $4', 'created_at < $5'];
      if (after) where.push(`(created_at, id) < ($${params.push(after.createdAt)}, $${params.push(after.id)})`);
      const r = await deps.db.query<ListedOperation>(
        `SELECT ${ITEM_COLUMNS} FROM operations WHERE ${where.join(' AND ')}
          ORDER BY created_at DESC, id DESC LIMIT ${take}`,
        params,
      );
      return r.rows;
    },
    (op) => op.id,
  );
}
