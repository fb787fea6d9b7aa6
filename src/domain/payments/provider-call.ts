// Provider failures as the API's errors: unreachable or garbage is 502 provider_error; an expired live
// session is 503 session_expired (never in test mode) and marks the account for reconnection.
import type { Deps } from '../../deps.ts';
import type { Mode } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import { ProviderSessionExpired, ProviderUnavailable } from '../../providers/types.ts';
import { invalidate } from '../../infra/cache.ts';

export async function providerCall<T>(deps: Deps, mode: Mode, accountId: number, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ProviderSessionExpired && mode === 'live') {
      await deps.db.tx(async (tx) => {
        const r = await tx.query<{ client_id: number }>('UPDATE provider_accounts SET session_alive = false WHERE id = $1 RETURNING client_id', [accountId]);
        if (r.rows[0]) await invalidate(tx, `account:${r.rows[0].client_id}:`, deps.caches);
      });
      throw new AppError('session_expired', 'provider session expired: reconnect the provider account', { cause: err });
    }
    if (err instanceof ProviderUnavailable || err instanceof ProviderSessionExpired) {
      throw new AppError('provider_error', 'the payment provider is not answering; retry later', { cause: err });
    }
    throw err;
  }
}
