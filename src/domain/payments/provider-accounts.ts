// Provider accounts: which upstream account a payment goes through. Each client has a sandbox account
// for test mode from registration; live mode needs a connected account (onboarding), else 409.
import type { Queryable } from '../../db/db.ts';
import type { Deps } from '../../deps.ts';
import type { Mode, Tenant } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import type { Capability, PaymentProvider } from '../../providers/types.ts';
import type { QrapiCredentials } from '../../providers/qrapi/connection.ts';
import { invalidate } from '../../infra/cache.ts';

export interface ProviderAccount {
  id: number;
  client_id: number;
  mode: Mode;
  driver: string;
  session_alive: boolean;
}

/**
 * A new provider account of a client and mode. `isDefault` absent: the default when the client has none in
 * this mode yet. `orgBin`: the organization's BIN the provider knows the account by (qrapi).
 */
export async function createProviderAccount(
  tx: Queryable,
  a: Tenant & { driver: string; displayName: string; isDefault?: boolean; orgBin?: string | null },
): Promise<number> {
  const isDefault = a.isDefault ?? !(await defaultAccountId(tx, a, { onlyDefault: true }));
  const r = await tx.query<{ id: number }>(
    `INSERT INTO provider_accounts (client_id, mode, driver, display_name, is_default, org_bin)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [a.clientId, a.mode, a.driver, a.displayName, isDefault, a.orgBin || null],
  );
  await invalidate(tx, `account:${a.clientId}:`);
  return r.rows[0].id;
}

/**
 * The client's account in this mode that payments use when none is named: the default, else the oldest
 * (or, with `onlyDefault`, the default only). Null when there is none.
 */
export async function defaultAccountId(
  db: Queryable,
  tenant: Tenant,
  opts: { onlyDefault?: boolean } = {},
): Promise<number | null> {
  const { clientId, mode } = tenant;
  const r = await db.query<{ id: number }>(
    opts.onlyDefault
      ? 'SELECT id FROM provider_accounts WHERE client_id = $1 AND mode = $2 AND is_default AND deleted_at IS NULL'
      : `SELECT id FROM provider_accounts WHERE client_id = $1 AND mode = $2 AND deleted_at IS NULL
          ORDER BY is_default DESC, id LIMIT 1`,
    [clientId, mode],
  );
  return r.rows[0]?.id ?? null;
}

/** The organization's BIN the provider knows this account by (set when a connection completes). */
export async function setAccountOrgBin(tx: Queryable, providerAccountId: number, orgBin: string): Promise<void> {
  await tx.query('UPDATE provider_accounts SET org_bin = $2 WHERE id = $1', [providerAccountId, orgBin]);
}

/**
 * The account named by X-Provider-Account, or the default one of this client and mode.
 * `header` is the raw header value (undefined when absent).
 */
export async function resolveProviderAccount(
  deps: Pick<Deps, 'db' | 'caches'>,
  tenant: Tenant,
  header: string | undefined,
): Promise<ProviderAccount> {
  const { clientId, mode } = tenant;
  if (header !== undefined) {
    const id = Number(header);
    const r =
      Number.isSafeInteger(id) && id > 0
        ? await deps.db.query<ProviderAccount>(
            `SELECT id, client_id, mode, driver, session_alive FROM provider_accounts
            WHERE id = $1 AND client_id = $2 AND mode = $3 AND deleted_at IS NULL`,
            [id, clientId, mode],
          )
        : { rows: [] };
    if (!r.rows[0])
      throw new AppError('invalid_parameter', `no ${mode} provider account ${header} in this account`, {
        param: 'X-Provider-Account',
      });
    return r.rows[0];
  }
  const cacheKey = `${clientId}:${mode}`;
  const cached = deps.caches.accounts.get(cacheKey) as ProviderAccount | undefined;
  if (cached) return cached;
  const readAt = deps.caches.accounts.generation;
  const r = await deps.db.query<ProviderAccount>(
    `SELECT id, client_id, mode, driver, session_alive FROM provider_accounts
      WHERE client_id = $1 AND mode = $2 AND is_default AND deleted_at IS NULL`,
    [clientId, mode],
  );
  if (r.rows[0]) deps.caches.accounts.set(cacheKey, r.rows[0], readAt);
  if (!r.rows[0])
    throw new AppError('provider_not_connected', `no ${mode} provider account is connected; complete onboarding first`);
  return r.rows[0];
}

/** How provider credentials are kept: sealed JSON (decisions 19: never returned, sealed with APP_SECRET). */
type StoredCredentials =
  | { scheme: 'r1'; api_key: string }
  | { scheme: 'r2' | 'r3'; pfx_base64: string; password: string };

export function sealCredentials(deps: Pick<Deps, 'secrets'>, c: QrapiCredentials): string {
  const stored: StoredCredentials =
    c.scheme === 'r1'
      ? { scheme: 'r1', api_key: c.apiKey }
      : { scheme: c.scheme, pfx_base64: c.pfx.toString('base64'), password: c.password };
  return deps.secrets.sealer.seal(JSON.stringify(stored));
}

export function openCredentials(deps: Pick<Deps, 'secrets'>, sealed: string): QrapiCredentials {
  const s = JSON.parse(deps.secrets.sealer.open(sealed)) as StoredCredentials;
  return s.scheme === 'r1'
    ? { scheme: 'r1', apiKey: s.api_key }
    : { scheme: s.scheme, pfx: Buffer.from(s.pfx_base64, 'base64'), password: s.password };
}

/**
 * The driver of a provider account. Test mode always goes to the sandbox; a live account connected
 * through the official API gets its own qrapi driver (its credentials, BIN and device); other live
 * accounts use the configured live driver.
 */
export async function providerFor(
  deps: Pick<Deps, 'db' | 'secrets' | 'providers'>,
  mode: Mode,
  providerAccountId: number,
): Promise<PaymentProvider> {
  if (mode === 'test') return deps.providers.sandbox;
  if (!deps.providers.qrapi) return deps.providers.live;
  const r = await deps.db.query<DriverRow>(`SELECT ${DRIVER_COLUMNS} FROM provider_accounts WHERE id = $1`, [
    providerAccountId,
  ]);
  return liveDriverOf(deps, providerAccountId, r.rows[0]);
}

/**
 * The live drivers of several accounts, read in one statement: the watcher's pass asks about up to a
 * thousand QRs of a few hundred accounts, and a read per status call was a quarter of its statements.
 */
export async function liveProvidersFor(
  deps: Pick<Deps, 'db' | 'secrets' | 'providers'>,
  accountIds: number[],
): Promise<Map<number, PaymentProvider>> {
  const ids = [...new Set(accountIds)];
  const rows = new Map<number, DriverRow>();
  if (deps.providers.qrapi && ids.length) {
    const r = await deps.db.query<DriverRow & { id: number }>(
      `SELECT id, ${DRIVER_COLUMNS} FROM provider_accounts WHERE id = ANY($1::bigint[])`,
      [ids],
    );
    for (const row of r.rows) rows.set(row.id, row);
  }
  return new Map(ids.map((id) => [id, liveDriverOf(deps, id, rows.get(id))]));
}

interface DriverRow {
  driver: string;
  credentials_sealed: string | null;
  org_bin: string | null;
  device_token: string | null;
}
const DRIVER_COLUMNS = 'driver, credentials_sealed, org_bin, device_token';

function liveDriverOf(
  deps: Pick<Deps, 'secrets' | 'providers'>,
  providerAccountId: number,
  row: DriverRow | undefined,
): PaymentProvider {
  const registry = deps.providers.qrapi;
  if (!registry || !row || row.driver !== 'qrapi' || !row.credentials_sealed) return deps.providers.live;
  const sealed = row.credentials_sealed;
  return registry.driver({
    id: providerAccountId,
    version: `${sealed}|${row.device_token ?? ''}`,
    credentials: () => openCredentials(deps, sealed),
    orgBin: row.org_bin,
    deviceToken: row.device_token,
  });
}

/** 501 provider_capability_unavailable before any call, naming the account's scheme (decisions 24). */
export function requireCapability(provider: PaymentProvider, capability: Capability, what: string): void {
  if (provider.capabilities.has(capability)) return;
  const scheme = provider.scheme
    ? `the ${provider.scheme} scheme of this provider account`
    : `the ${provider.name} provider`;
  throw new AppError('provider_capability_unavailable', `${scheme} cannot ${what}`);
}

/** The client's live account of one driver (its default first, else the newest); null when it has none. */
export async function liveAccountOfDriver(db: Queryable, clientId: number, driver: string): Promise<number | null> {
  const r = await db.query<{ id: number }>(
    `SELECT id FROM provider_accounts WHERE client_id = $1 AND mode = 'live' AND driver = $2 AND deleted_at IS NULL
      ORDER BY is_default DESC, id DESC LIMIT 1`,
    [clientId, driver],
  );
  return r.rows[0]?.id ?? null;
}

/** Whether the session of the client's default account of this mode is alive; false when it has none. */
export async function defaultAccountSession(db: Queryable, tenant: Tenant): Promise<boolean> {
  const { clientId, mode } = tenant;
  const r = await db.query<{ session_alive: boolean }>(
    `SELECT session_alive FROM provider_accounts
      WHERE client_id = $1 AND mode = $2 AND is_default AND deleted_at IS NULL`,
    [clientId, mode],
  );
  return r.rows[0]?.session_alive ?? false;
}

/** A live account whose certificate ends within `days` of `now`, with the days left (certificate notices). */
export interface ExpiringCertificate {
  id: number;
  client_id: number;
  display_name: string;
  certificate_expires_at: Date;
  days: number;
}

export async function accountsWithCertificateEnding(
  db: Queryable,
  now: Date,
  days: number,
): Promise<ExpiringCertificate[]> {
  const r = await db.query<ExpiringCertificate>(
    `SELECT id, client_id, display_name, certificate_expires_at,
            floor(extract(epoch FROM certificate_expires_at - $1::timestamptz) / 86400)::int AS days
       FROM provider_accounts
      WHERE deleted_at IS NULL AND certificate_expires_at IS NOT NULL
        AND certificate_expires_at <= $1::timestamptz + make_interval(days => ${Math.trunc(days)})`,
    [now],
  );
  return r.rows;
}
