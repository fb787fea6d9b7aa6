// Provider accounts: which upstream account a payment goes through. Each client has a sandbox account
// for test mode from registration; live mode needs a connected account (onboarding), else 409.
import type { Queryable } from '../../db/db.ts';
import type { Deps } from '../../deps.ts';
import type { Mode } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import type { PaymentProvider } from '../../providers/types.ts';
import { invalidate } from '../../infra/cache.ts';

export interface ProviderAccount {
  id: number;
  client_id: number;
  mode: Mode;
  driver: string;
  session_alive: boolean;
}

export async function createProviderAccount(
  tx: Queryable,
  a: { clientId: number; mode: Mode; driver: string; displayName: string; isDefault: boolean },
): Promise<number> {
  const r = await tx.query<{ id: number }>(
    `INSERT INTO provider_accounts (client_id, mode, driver, display_name, is_default) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [a.clientId, a.mode, a.driver, a.displayName, a.isDefault],
  );
  await invalidate(tx, `account:${a.clientId}:`);
  return r.rows[0].id;
}

/**
 * The account named by X-Provider-Account, or the default one of this client and mode.
 * `header` is the raw header value (undefined when absent).
 */
export async function resolveProviderAccount(deps: Deps, clientId: number, mode: Mode, header: string | undefined): Promise<ProviderAccount> {
  if (header !== undefined) {
    const id = Number(header);
    const r = Number.isSafeInteger(id) && id > 0
      ? await deps.db.query<ProviderAccount>(
          `SELECT id, client_id, mode, driver, session_alive FROM provider_accounts
            WHERE id = $1 AND client_id = $2 AND mode = $3 AND deleted_at IS NULL`,
          [id, clientId, mode],
        )
      : { rows: [] };
    if (!r.rows[0]) throw new AppError('invalid_parameter', `no ${mode} provider account ${header} in this account`, { param: 'X-Provider-Account' });
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
  if (!r.rows[0]) throw new AppError('provider_not_connected', `no ${mode} provider account is connected; complete onboarding first`);
  return r.rows[0];
}

/** Test mode always goes to the sandbox, whatever the configured live driver. */
export function providerFor(deps: Deps, mode: Mode): PaymentProvider {
  return mode === 'test' ? deps.providers.sandbox : deps.providers.live;
}
