// A client's provider accounts (decisions 19): the record (credentials never shown), edits, the default
// flip, deletion and health checks. Health: the sandbox is always well; a qrapi account is pinged, its
// certificate read, its trade point looked up and its device registered again (idempotent at the
// provider: the same token means the device is where it should be), through the port's onboarding calls.
import type { Deps, DbDeps } from '../../deps.ts';
import type { Mode, Tenant } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import { invalidate } from '../../infra/cache.ts';
import { afterSessionLost } from './provider-call.ts';
import { openCredentials, providerFor } from './provider-accounts.ts';
import { checkCertificate } from './qrapi-connect.ts';
import { checkBin } from '../organization/requisites.ts';
import { deleteReleasedDevices } from './device-deletion.ts';

export const HEALTH_CHECKS_PER_MINUTE = 6;

interface Row {
  id: number;
  client_id: number;
  mode: Mode;
  driver: string;
  display_name: string;
  org_type: string | null;
  org_bin: string | null;
  is_default: boolean;
  session_alive: boolean;
  scheme: string | null;
  trade_point_id: number | null;
  trade_point_name: string | null;
  certificate_expires_at: Date | null;
  last_health: LastHealth | string | null;
  created_at: Date;
  credentials_sealed: string | null;
  device_id: string | null;
  device_token: string | null;
}

export interface AccountRecord {
  id: number;
  mode: Mode;
  driver: string;
  display_name: string;
  org_type: string | null;
  org_bin: string | null;
  is_default: boolean;
  session_alive: boolean;
  status: 'connected' | 'needs_reconnect';
  scheme: string | null;
  trade_point: { id: number; name: string } | null;
  certificate_expires_at: Date | null;
  last_health: LastHealth | null;
  created_at: Date;
}

export interface LastHealth {
  ok: boolean;
  checked_at: string;
  latency_ms: number;
  error_code: string | null;
}

const toRecord = (r: Row): AccountRecord => ({
  id: r.id,
  mode: r.mode,
  driver: r.driver,
  display_name: r.display_name,
  org_type: r.org_type,
  org_bin: r.org_bin,
  is_default: r.is_default,
  session_alive: r.session_alive,
  status: r.session_alive ? 'connected' : 'needs_reconnect',
  scheme: r.scheme,
  trade_point: r.trade_point_id === null ? null : { id: Number(r.trade_point_id), name: r.trade_point_name ?? '' },
  certificate_expires_at: r.certificate_expires_at,
  // jsonb comes back parsed from PostgreSQL and PGlite alike; text from older drivers is parsed here.
  last_health: typeof r.last_health === 'string' ? JSON.parse(r.last_health) : (r.last_health ?? null),
  created_at: r.created_at,
});

export async function listAccounts(deps: DbDeps, tenant: Tenant): Promise<AccountRecord[]> {
  const { clientId, mode } = tenant;
  const r = await deps.db.query<Row>(
    `SELECT * FROM provider_accounts WHERE client_id = $1 AND mode = $2 AND deleted_at IS NULL
      ORDER BY is_default DESC, id LIMIT 100`,
    [clientId, mode],
  );
  return r.rows.map(toRecord);
}

async function find(deps: DbDeps, clientId: number, id: number): Promise<Row> {
  const r = await deps.db.query<Row>(
    'SELECT * FROM provider_accounts WHERE id = $1 AND client_id = $2 AND deleted_at IS NULL',
    [id, clientId],
  );
  if (!r.rows[0]) throw new AppError('provider_account_not_found', `provider account ${id} not found`);
  return r.rows[0];
}

export const getAccount = async (deps: DbDeps, clientId: number, id: number) =>
  toRecord(await find(deps, clientId, id));

export async function patchAccount(
  deps: DbDeps,
  tenant: Tenant,
  id: number,
  p: { display_name?: string; org_type?: string | null; org_bin?: string | null },
): Promise<AccountRecord> {
  const { clientId } = tenant;
  await find(deps, clientId, id);
  let bin: string | null | undefined = p.org_bin;
  if (bin) {
    const c = checkBin(bin);
    if (!c.ok) throw new AppError('invalid_parameter', `org_bin ${c.why}`, { param: 'org_bin' });
    bin = c.value;
  }
  const sets: string[] = [];
  const params: unknown[] = [id];
  if (p.display_name !== undefined) sets.push(`display_name = $${params.push(p.display_name)}`);
  if (p.org_type !== undefined) sets.push(`org_type = $${params.push(p.org_type)}`);
  if (bin !== undefined) sets.push(`org_bin = $${params.push(bin)}`);
  if (sets.length) await deps.db.query(`UPDATE provider_accounts SET ${sets.join(', ')} WHERE id = $1`, params);
  return getAccount(deps, clientId, id);
}

/** One default per client and mode, flipped in one transaction. */
export async function setDefault(
  deps: Pick<Deps, 'db' | 'caches'>,
  clientId: number,
  id: number,
): Promise<AccountRecord> {
  const a = await find(deps, clientId, id);
  await deps.db.tx(async (tx) => {
    await tx.query('SELECT id FROM provider_accounts WHERE client_id = $1 AND mode = $2 FOR UPDATE', [
      clientId,
      a.mode,
    ]);
    await tx.query(
      'UPDATE provider_accounts SET is_default = false WHERE client_id = $1 AND mode = $2 AND is_default AND id <> $3',
      [clientId, a.mode, id],
    );
    await tx.query('UPDATE provider_accounts SET is_default = true WHERE id = $1', [id]);
    await invalidate(tx, `account:${clientId}:`, deps.caches);
  });
  return getAccount(deps, clientId, id);
}

/**
 * Soft delete. The test-mode sandbox account stays (test mode always works); the default account goes
 * only when it is the last of its mode. Credentials are wiped at once when no waiting payment or pending
 * refund still needs them, else by wipeReleasedCredentials later.
 */
export async function deleteAccount(
  deps: Pick<Deps, 'db' | 'secrets' | 'providers' | 'caches'>,
  tenant: Tenant,
  id: number,
): Promise<void> {
  const { clientId } = tenant;
  const a = await find(deps, clientId, id);
  if (a.mode === 'test' && a.driver === 'sandbox')
    throw new AppError('sandbox_account_required', 'the test-mode sandbox account cannot be deleted');
  await deps.db.tx(async (tx) => {
    if (a.is_default) {
      const others = await tx.query(
        'SELECT 1 FROM provider_accounts WHERE client_id = $1 AND mode = $2 AND deleted_at IS NULL AND id <> $3',
        [clientId, a.mode, id],
      );
      if (others.rows.length) throw new AppError('default_account', 'make another account the default first');
    }
    await tx.query('UPDATE provider_accounts SET deleted_at = now(), is_default = false WHERE id = $1', [id]);
    await invalidate(tx, `account:${clientId}:`, deps.caches);
  });
  await wipeReleasedCredentials(deps, id);
}

/**
 * Deleted accounts that nothing waits on any more lose their credentials: at once when they have no
 * device at the provider, else after the device's deletion, which is scheduled here and tried once now
 * (device-deletion.ts retries it until the provider confirms).
 */
export async function wipeReleasedCredentials(
  deps: Pick<Deps, 'db' | 'secrets' | 'providers'>,
  onlyId?: number,
): Promise<number> {
  const r = await deps.db.query<{ id: number; device: boolean }>(
    `SELECT a.id, (a.device_token IS NOT NULL) AS device FROM provider_accounts a
      WHERE a.deleted_at IS NOT NULL AND a.credentials_sealed IS NOT NULL
        AND a.device_delete_next_at IS NULL ${onlyId ? 'AND a.id = $1' : ''}
        AND NOT EXISTS (SELECT 1 FROM operations o WHERE o.provider_account_id = a.id AND o.status = 'created')
        AND NOT EXISTS (SELECT 1 FROM refunds f JOIN operations o ON o.id = f.operation_id
                         WHERE o.provider_account_id = a.id AND f.status = 'pending')
      LIMIT 100`,
    onlyId ? [onlyId] : [],
  );
  for (const { id, device } of r.rows) {
    if (!device) {
      await deps.db.query('UPDATE provider_accounts SET credentials_sealed = NULL WHERE id = $1', [id]);
      continue;
    }
    await deps.db.query(
      'UPDATE provider_accounts SET device_delete_next_at = now() WHERE id = $1 AND device_delete_next_at IS NULL',
      [id],
    );
    await deleteReleasedDevices(deps, 1, id);
  }
  return r.rows.length;
}

export interface Health {
  ok: boolean;
  session_alive: boolean;
  checked_at: Date;
  latency_ms: number;
  checks: { name: 'ping' | 'credentials' | 'certificate' | 'trade_point' | 'device'; ok: boolean; detail: string }[];
}

export async function healthCheck(
  deps: Pick<Deps, 'db' | 'secrets' | 'clock' | 'limiter' | 'providers' | 'caches'>,
  tenant: Tenant,
  id: number,
): Promise<Health> {
  const { clientId } = tenant;
  const a = await find(deps, clientId, id);
  const limit = await deps.limiter.consume('provider_health', HEALTH_CHECKS_PER_MINUTE, String(id));
  if (!limit.allowed)
    throw new AppError(
      'rate_limit_exceeded',
      `at most ${HEALTH_CHECKS_PER_MINUTE} health checks a minute per account`,
      { headers: { 'Retry-After': limit.reset } },
    );
  const started = Date.now();
  const checks: Health['checks'] = [];
  const check = async (name: Health['checks'][number]['name'], fn: () => Promise<string>) => {
    try {
      checks.push({ name, ok: true, detail: await fn() });
    } catch (err) {
      checks.push({ name, ok: false, detail: err instanceof Error ? err.message : String(err) });
    }
  };
  const provider = await providerFor(deps, a.mode, id);
  const calls = provider.onboarding;
  if (calls && a.credentials_sealed) {
    const creds = openCredentials(deps, a.credentials_sealed);
    await check('ping', async () => (await calls.checkSession(), 'the provider answers'));
    await check('certificate', async () => {
      const until = checkCertificate(deps, creds);
      return until ? `valid until ${until.toISOString()}` : 'r1: an API key, no certificate';
    });
    let points: { id: number; name: string }[] = [];
    await check('credentials', async () => ((points = await calls.tradePoints()), 'accepted'));
    await check('trade_point', async () => {
      if (!points.some((p) => p.id === Number(a.trade_point_id)))
        throw new Error(`trade point ${a.trade_point_id} is not among the organization's`);
      return `${a.trade_point_name} (${a.trade_point_id})`;
    });
    await check('device', async () => {
      const token = await calls.registerDevice(a.device_id ?? `tolem-${id}`, Number(a.trade_point_id));
      if (token !== a.device_token)
        await deps.db.query('UPDATE provider_accounts SET device_token = $2 WHERE id = $1', [id, token]);
      return 'registered on the trade point';
    });
  } else {
    const alive = await provider.checkSession().catch(() => false);
    for (const name of ['ping', 'credentials', 'certificate', 'trade_point', 'device'] as const) {
      checks.push({
        name,
        ok: alive,
        detail: alive ? `${provider.name}: nothing to check` : `${provider.name}: no session`,
      });
    }
  }
  const ok = checks.every((c) => c.ok);
  const health: Health = { ok, session_alive: ok, checked_at: new Date(), latency_ms: Date.now() - started, checks };
  await deps.db.tx(async (tx) => {
    // Turning false tells the client (once: only the check that turns it).
    const turned = await tx.query(
      `UPDATE provider_accounts SET session_alive = $2, last_health = $3
        WHERE id = $1 AND session_alive IS DISTINCT FROM $2 RETURNING id`,
      [
        id,
        ok,
        JSON.stringify({
          ok,
          checked_at: health.checked_at,
          latency_ms: health.latency_ms,
          error_code: ok ? null : (checks.find((c) => !c.ok)?.name ?? null),
        }),
      ],
    );
    if (!turned.rows.length) {
      await tx.query('UPDATE provider_accounts SET last_health = $2 WHERE id = $1', [
        id,
        JSON.stringify({
          ok,
          checked_at: health.checked_at,
          latency_ms: health.latency_ms,
          error_code: ok ? null : (checks.find((c) => !c.ok)?.name ?? null),
        }),
      ]);
    } else if (!ok) {
      await afterSessionLost.run(tx, { clientId, displayName: a.display_name });
    }
    await invalidate(tx, `account:${clientId}:`, deps.caches);
  });
  return health;
}
