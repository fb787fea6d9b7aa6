// Provider failures as the API's errors (decisions 24, 26): an outage (no answer, garbage, -999) is 502
// provider_error; a lost live session is 503 session_expired (never in test mode), marks the account for
// reconnection and tells the client; r3's allow-list refusing this server is 503 provider_unreachable,
// marked and told the same way; every other refusal of the provider becomes the API's own named error.
import type { Deps } from '../../deps.ts';
import type { Mode } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import {
  ProviderEgressRefused,
  ProviderRejected,
  ProviderSessionExpired,
  ProviderUnavailable,
} from '../../providers/types.ts';
import { TxHooks } from '../tx-hooks.ts';
import { invalidate } from '../../infra/cache.ts';

/** Why a live account stopped working: its session (credentials, certificate, device), or r3's egress address. */
export type AccountTrouble = 'session' | 'egress';

/** A live provider account just stopped working (decisions 19, 26): who is told is wired in subscribers.ts. */
export const afterSessionLost = new TxHooks<{ clientId: number; displayName: string; trouble?: AccountTrouble }>(
  'provider session lost',
);

export async function providerCall<T>(
  deps: Pick<Deps, 'db' | 'caches'>,
  mode: Mode,
  providerAccountId: number,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw await asAppError(deps, mode, providerAccountId, err);
  }
}

async function asAppError(
  deps: Pick<Deps, 'db' | 'caches'>,
  mode: Mode,
  providerAccountId: number,
  err: unknown,
): Promise<unknown> {
  if (err instanceof ProviderSessionExpired && mode === 'live') {
    await markAccount(deps, providerAccountId, 'session');
    return new AppError('session_expired', 'provider session expired: reconnect the provider account', { cause: err });
  }
  if (err instanceof ProviderEgressRefused) {
    if (mode === 'live') await markAccount(deps, providerAccountId, 'egress');
    return new AppError('provider_unreachable', err.message, { cause: err });
  }
  if (err instanceof ProviderRejected) return rejection(err);
  if (err instanceof ProviderUnavailable || err instanceof ProviderSessionExpired) {
    return new AppError('provider_error', 'the payment provider is not answering; retry later', { cause: err });
  }
  return err;
}

/** A named refusal as the API's error; the provider's code stays in the message. */
export function rejection(err: ProviderRejected): AppError {
  const cause = { cause: err };
  switch (err.reason) {
    case 'invalid_amount':
      return new AppError('invalid_parameter', 'the provider refused this amount', { param: 'amount', ...cause });
    case 'refund_amount_exceeds':
      return new AppError(
        'refund_amount_exceeds',
        'the provider says the refund is larger than what is left of the payment',
        cause,
      );
    case 'payment_not_refundable':
      return new AppError(
        'payment_not_refundable',
        'the provider cannot refund this payment (its state, a partial refund, or another trade point)',
        cause,
      );
    case 'client_not_found':
      return new AppError('client_not_found', `the provider knows no customer with this phone (${err.message})`, cause);
    case 'device_conflict':
      return new AppError(
        'provider_device_conflict',
        `the provider has this device on another trade point of the organization (${err.message})`,
        cause,
      );
    case 'trade_point_not_found':
      return new AppError('invalid_parameter', `the provider does not know this trade point (${err.message})`, {
        param: 'trade_point_id',
        ...cause,
      });
    case 'trade_point_refused':
      return new AppError(
        'provider_trade_point_refused',
        `the provider's trade point does not take QR payments now (${err.message})`,
        cause,
      );
    case 'refused':
      return new AppError('provider_refused', `the provider refused this request (${err.message})`, cause);
    case 'not_found':
    case 'undocumented':
      // The provider does not know a payment Tolem made through it, or answers a code nobody documents:
      // a provider fault, though not an outage (the breaker stays closed).
      return new AppError('provider_error', `the payment provider refused the call (${err.message})`, cause);
  }
}

/** Marks a live account as needing attention; only the call that turns it tells the client (one notice a burst). */
async function markAccount(
  deps: Pick<Deps, 'db' | 'caches'>,
  providerAccountId: number,
  trouble: AccountTrouble,
): Promise<void> {
  await deps.db.tx(async (tx) => {
    const r = await tx.query<{ client_id: number; display_name: string }>(
      `UPDATE provider_accounts SET session_alive = false WHERE id = $1 AND session_alive
        RETURNING client_id, display_name`,
      [providerAccountId],
    );
    const acc = r.rows[0];
    if (!acc) return;
    await invalidate(tx, `account:${acc.client_id}:`, deps.caches);
    await afterSessionLost.run(tx, { clientId: acc.client_id, displayName: acc.display_name, trouble });
  });
}
