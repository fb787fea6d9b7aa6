// Picks the provider drivers once, from configuration (architecture rule 5). Test mode always uses the
// sandbox. Live mode: `sandbox`, `gateway` (one driver for every account), or `qrapi` (a driver per
// provider account, from its own credentials: the registry).
import type { Config } from '../config.ts';
import type { Db } from '../db/db.ts';
import type { RateLimiter } from '../infra/rate-limit-store.ts';
import { SandboxProvider } from './sandbox.ts';
import { GatewayProvider } from './gateway.ts';
import { QrapiRegistry } from './qrapi/registry.ts';
import type { PaymentProvider } from './types.ts';
import { tracedProvider } from './traced.ts';

export interface Providers {
  sandbox: SandboxProvider;
  /** the live driver of accounts that are not qrapi's */
  live: PaymentProvider;
  /** present with PROVIDER_DRIVER=qrapi */
  qrapi?: QrapiRegistry;
}

export function createProviders(config: Config, db: Db, limiter: RateLimiter): Providers {
  // Each driver as spans of its calls when tracing is on (traced.ts); itself otherwise.
  const sandbox = tracedProvider(new SandboxProvider(db, config.publicBaseUrl), 'sandbox');
  if (config.providerDriver === 'gateway') {
    if (!config.providerGatewayUrl) throw new Error('PROVIDER_DRIVER=gateway needs PROVIDER_GATEWAY_URL');
    const gateway = new GatewayProvider(config.providerGatewayUrl, config.providerTimeoutMs);
    return { sandbox, live: tracedProvider(gateway, 'gateway') };
  }
  if (config.providerDriver === 'qrapi') {
    return { sandbox, live: sandbox, qrapi: new QrapiRegistry(config.qrapi, config.providerTimeoutMs, limiter) };
  }
  return { sandbox, live: sandbox };
}
