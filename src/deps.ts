// What every domain function may use, built once in bootstrap.ts from configuration (architecture rule 5).
import type { Config } from './config.ts';
import type { Db } from './db/db.ts';
import type { Secrets } from './secrets.ts';
import type { RateLimiter } from './infra/rate-limit-store.ts';
import type { Providers } from './providers/index.ts';
import type { Caches } from './infra/cache.ts';
import type { ChannelDrivers } from './channels/index.ts';
import type { FiscalDrivers } from './fiscal/registry.ts';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface Deps {
  config: Config;
  db: Db;
  secrets: Secrets;
  clock: Clock;
  limiter: RateLimiter;
  providers: Providers;
  caches: Caches;
  /** e-mail, messenger, SMS: used by the outbox job only (domain/channels/outbox.ts) */
  channels: ChannelDrivers;
  /** cloud cash registers (decisions 27): a driver per register and call, made from its credentials */
  fiscal: FiscalDrivers;
}

/*
 * The parts of Deps a domain function takes: a function names what it reads (or what its callees read),
 * so a test or a job passes only those. Pick<Deps, ...> inline for the rarer sets.
 */
export type DbDeps = Pick<Deps, 'db'>;
export type DbClockDeps = Pick<Deps, 'db' | 'clock'>;
/** A read or write of sealed credentials or secrets. */
export type DbSecretsDeps = Pick<Deps, 'db' | 'secrets'>;
/** A call to a payment provider: the account's sealed credentials, the provider, its cached session. */
export type ProviderDeps = Pick<Deps, 'db' | 'secrets' | 'clock' | 'providers' | 'caches'>;
