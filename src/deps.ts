// What every domain function may use, built once in app.ts from configuration (architecture rule 5).
import type { Config } from './config.ts';
import type { Db } from './db/db.ts';
import type { Secrets } from './secrets.ts';
import type { RateLimiter } from './http/plugins/rate-limit-store.ts';
import type { PaymentProvider } from './providers/types.ts';
import type { SandboxProvider } from './providers/sandbox.ts';
import type { Caches } from './domain/cache.ts';

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
  providers: { sandbox: SandboxProvider; live: PaymentProvider };
  caches: Caches;
}

export type Mode = 'live' | 'test';

/** Who is calling, resolved from one credential. */
export interface Principal {
  kind: 'api_key' | 'jwt' | 'partner';
  clientId: number;
  mode: Mode;
  plan: string;
  userId?: number;
  role?: string;
  apiKeyId?: number;
  keyPrefix?: string;
  /** set when a partner acts inside the client's account */
  actor?: Record<string, unknown>;
}
