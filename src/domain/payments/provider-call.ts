// Provider failures as the API's errors: unreachable or garbage is 502 provider_error; an expired live
// session is 503 session_expired (never in test mode), marks the account for reconnection and tells the
// client; the provider's named refusals (decisions 24) become the API's own codes.
import type { Deps } from '../../deps.ts';
import type { Mode } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import { ProviderRejected, ProviderSessionExpired, ProviderUnavailable } from '../../providers/types.ts';
import { TxHooks } from '../tx-hooks.ts';
import { invalidate } from '../../infra/cache.ts';

/** A live provider account just lost its session (decisions 19): who is told is wired in subscribers.ts. */
export const afterSessionLost = new TxHooks<{ clientId: number; displayName: string }>('provider session lost');

export async function providerCall<T>(deps: Deps, mode: Mode, accountId: number, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ProviderSessionExpired && mode === 'live') {
      await deps.db.tx(async (tx) => {
        // Only the call that turns it false notifies: a burst of failing calls makes one notification.
        const r = await tx.query<{ client_id: number; display_name: string }>(
          'UPDATE provider_accounts SET session_alive = false WHERE id = $1 AND session_alive RETURNING client_id, display_name', [accountId]);
        const acc = r.rows[0];
        if (!acc) return;
        await invalidate(tx, `account:${acc.client_id}:`, deps.caches);
        await afterSessionLost.run(tx, { clientId: acc.client_id, displayName: acc.display_name });
      });
      throw new AppError('session_expired', 'provider session expired: reconnect the provider account', { cause: err });
    }
    if (err instanceof ProviderRejected) {
      switch (err.reason) {
        case 'invalid_amount':
          throw new AppError('invalid_parameter', 'the provider refused this amount', { param: 'amount', cause: err });
        case 'refund_amount_exceeds':
          throw new AppError('refund_amount_exceeds', 'the provider says the refund is larger than what is left of the payment', { cause: err });
        case 'payment_not_refundable':
          throw new AppError('payment_not_refundable', 'the provider cannot refund this payment (its state, a partial refund, or another trade point)', { cause: err });
        case 'not_found':
          break; // the provider does not know a payment Tolem made through it: a provider fault, below
      }
    }
    if (err instanceof ProviderUnavailable || err instanceof ProviderSessionExpired) {
      if (err instanceof ProviderUnavailable && /StatusCode/.test(err.message)) {
        throw new AppError('provider_error', `the payment provider refused the call (${err.message})`, { cause: err });
      }
      throw new AppError('provider_error', 'the payment provider is not answering; retry later', { cause: err });
    }
    throw err;
  }
}
