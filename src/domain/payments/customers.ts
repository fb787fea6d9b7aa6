// Is this phone a customer of the provider (v2 GET /v2/client, v1 GET /v1/client/{phone})? Asked through
// the provider account the caller names, or its default one; 501 where the account's scheme has no lookup.
import type { Deps } from '../../deps.ts';
import type { Tenant } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import type { ProviderCustomer } from '../../providers/types.ts';
import { normalizePhone } from './input.ts';
import { providerCall } from './provider-call.ts';
import { providerFor, requireCapability, resolveProviderAccount } from './provider-accounts.ts';

export async function lookupCustomer(
  deps: Pick<Deps, 'db' | 'secrets' | 'providers' | 'caches'>,
  tenant: Tenant,
  accountHeader: string | undefined,
  rawPhone: string,
): Promise<ProviderCustomer> {
  const { mode } = tenant;
  const phone = normalizePhone(rawPhone);
  const account = await resolveProviderAccount(deps, tenant, accountHeader);
  const provider = await providerFor(deps, mode, account.id);
  requireCapability(provider, 'customer_lookup', 'look customers up by phone');
  const c = await providerCall(deps, mode, account.id, () => provider.findCustomer(phone));
  if (!c) throw new AppError('client_not_found', `${phone} is not a customer of the provider`);
  return c;
}
