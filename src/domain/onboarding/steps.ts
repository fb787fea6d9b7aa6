// The onboarding machine's two steps as its callers take them (the cabinet's /onboarding/provider/* and
// the partner API's white-label calls): one input, checked against the mechanism the mode uses.
import type { Deps } from '../../deps.ts';
import type { Tenant } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import { mechanismFor, startQrapi, startSandbox, verifyQrapi, verifySandbox, type QrapiStart } from './machine.ts';

export interface StartInput {
  phone?: string;
  org_bin?: string;
  display_name?: string;
  credentials?: unknown;
  force?: boolean;
}

function required<T>(value: T | undefined, param: string, what: string): T {
  if (value === undefined) throw new AppError('invalid_parameter', `${param} is required ${what}`, { param });
  return value;
}

export async function startOnboarding(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock' | 'providers'>,
  tenant: Tenant,
  b: StartInput,
) {
  const { clientId, mode } = tenant;
  if (mechanismFor(deps, mode) === 'sandbox') {
    const phone = required(b.phone, 'phone', 'for the one-time-code mechanism');
    if (b.credentials)
      throw new AppError(
        'invalid_parameter',
        'credentials are for the official API (PROVIDER_DRIVER=qrapi, live mode)',
        { param: 'credentials' },
      );
    return startSandbox(deps, tenant, {
      phone,
      display_name: b.display_name,
      org_bin: b.org_bin,
      force: b.force,
    });
  }
  const orgBin = required(b.org_bin, 'org_bin', 'by the official API');
  return startQrapi(deps, clientId, {
    org_bin: orgBin,
    display_name: b.display_name,
    credentials: b.credentials as QrapiStart['credentials'],
    force: b.force,
  });
}

export async function verifyOnboarding(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock' | 'providers' | 'caches'>,
  tenant: Tenant,
  b: { code?: string; trade_point_id?: number },
) {
  const { clientId, mode } = tenant;
  if (mechanismFor(deps, mode) === 'sandbox')
    return verifySandbox(deps, tenant, required(b.code, 'code', 'for the one-time-code mechanism'));
  return verifyQrapi(deps, clientId, required(b.trade_point_id, 'trade_point_id', 'by the official API'));
}
