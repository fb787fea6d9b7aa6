// A released account's device is deleted at the provider as a durable job (decisions 26): a deleted
// account that no waiting payment or pending refund needs any more is scheduled; each attempt goes through
// a connection of its own, so the account's circuit breaker (open, maybe, from whatever made the merchant
// leave) never skips it; a failure is tried again with back-off (30 s doubling to 6 h) until the provider
// confirms, or says it has no such device. Only then are the credentials wiped: they are what the call
// needs.
import type { Deps } from '../../deps.ts';
import { QrapiDriver } from '../../providers/qrapi/driver.ts';
import { openCredentials } from './provider-accounts.ts';

const MAX_BACKOFF_S = 6 * 3600;

interface Due {
  id: number;
  credentials_sealed: string;
  org_bin: string | null;
  device_token: string;
  scheme: string | null;
}

/** Claims up to `batch` due deletions (pushing each one's next attempt out first) and tries each once. */
export async function deleteReleasedDevices(
  deps: Pick<Deps, 'db' | 'secrets' | 'providers'>,
  batch = 20,
  onlyId?: number,
): Promise<number> {
  const due = await deps.db.query<Due>(
    `UPDATE provider_accounts SET device_delete_attempts = device_delete_attempts + 1,
            device_delete_next_at =
              now() + make_interval(secs => LEAST(${MAX_BACKOFF_S}, 30 * power(2, LEAST(device_delete_attempts, 12))))
      WHERE id IN (SELECT id FROM provider_accounts
                    WHERE device_delete_next_at <= now() ${onlyId ? 'AND id = $2' : ''}
                    ORDER BY device_delete_next_at LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING id, credentials_sealed, org_bin, device_token, scheme`,
    onlyId ? [batch, onlyId] : [batch],
  );
  for (const row of due.rows) await deleteOne(deps, row);
  return due.rows.length;
}

async function deleteOne(deps: Pick<Deps, 'db' | 'secrets' | 'providers'>, row: Due): Promise<void> {
  const registry = deps.providers.qrapi;
  if (registry && row.credentials_sealed && row.device_token) {
    const credentials = openCredentials(deps, row.credentials_sealed);
    const connection = registry.connectionFor(credentials);
    try {
      const driver = new QrapiDriver({
        connection,
        orgBin: credentials.scheme === 'r3' ? row.org_bin : null,
        deviceToken: row.device_token,
        allowClientInfo: async () => false,
      });
      await driver.deleteDevice();
    } catch {
      return; // tried again at its next attempt, already scheduled
    } finally {
      await connection.close();
    }
  }
  // Confirmed (or nothing to delete here: no qrapi driver configured any more): the credentials go.
  await deps.db.query(
    `UPDATE provider_accounts SET credentials_sealed = NULL, device_token = NULL, device_delete_next_at = NULL
      WHERE id = $1`,
    [row.id],
  );
}
