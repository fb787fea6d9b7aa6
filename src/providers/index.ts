// Picks the provider drivers once, from configuration (architecture rule 5).
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import { SandboxProvider } from './sandbox.ts';
import { GatewayProvider } from './gateway.ts';
import type { PaymentProvider } from './types.ts';

export function createProviders(config: Config, db: Db): { sandbox: SandboxProvider; live: PaymentProvider } {
  const sandbox = new SandboxProvider(db, config.publicBaseUrl);
  if (config.providerDriver === 'gateway') {
    if (!config.providerGatewayUrl) throw new Error('PROVIDER_DRIVER=gateway needs PROVIDER_GATEWAY_URL');
    return { sandbox, live: new GatewayProvider(config.providerGatewayUrl, config.providerTimeoutMs) };
  }
  return { sandbox, live: sandbox };
}
