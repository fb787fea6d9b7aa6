// Fixed-window counters per bucket, one minute long unless a call names another window: in memory for
// one instance, in Redis when REDIS_URL is set so that several instances share them (rate-limiter-flexible
// does the counting). The same store remembers keys for a while (the addresses a login succeeded from).
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** seconds until the window resets */
  reset: number;
}

export interface RateLimiter {
  /** one request of `key` against `limit` per window of `windowSeconds` (60 unless given) */
  consume(bucket: string, limit: number, key: string, windowSeconds?: number): Promise<RateDecision>;
  /** keeps `key` in `bucket` for `seconds` from now (at most MAX_REMEMBER_SECONDS) */
  remember(bucket: string, key: string, seconds: number): Promise<void>;
  /** whether `key` is kept in `bucket` (false when the store cannot tell) */
  remembers(bucket: string, key: string, seconds: number): Promise<boolean>;
}

/** The in-memory store forgets a key with a timer, and Node's timers stop at 2^31 - 1 ms (24.8 days). */
export const MAX_REMEMBER_SECONDS = 20 * 86400;

/**
 * The shared Redis for rate limits. Every request waits for its counter, so a Redis that hangs must not
 * hang requests: a command unanswered after REDIS_COMMAND_TIMEOUT_MS fails, and the limiter falls back to
 * counting in this process (as it does when Redis is down). A second, not less: on a loaded machine a
 * healthy Redis's answer can take a few hundred milliseconds to be handled, and the counts must stay shared.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 1000;

export async function connectRedis(url: string): Promise<Redis> {
  // Loaded only when REDIS_URL is set (~0.1 s of a start-up otherwise).
  const { Redis: IORedis } = await import('ioredis');
  const redis = new IORedis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  });
  // Errors reach the limiter through the failed command (and its fallback); the client reconnects itself.
  redis.on('error', () => {});
  return redis;
}

export function createRateLimiter(redis?: Redis, namespace = ''): RateLimiter {
  const limiters = new Map<string, RateLimiterAbstract>();
  const get = (bucket: string, points: number, duration = 60) => {
    const id = `${bucket}:${points}:${duration}`;
    let l = limiters.get(id);
    if (!l) {
      const opts = { points, duration, keyPrefix: `tolem:${namespace}:rl:${bucket}` };
      // Redis failures must not turn every request into a 500: fall back to local counting.
      l = redis
        ? new RateLimiterRedis({ ...opts, storeClient: redis, insuranceLimiter: new RateLimiterMemory(opts) })
        : new RateLimiterMemory(opts);
      limiters.set(id, l);
    }
    return l;
  };
  const kept = (bucket: string, seconds: number) => {
    if (!(seconds > 0 && seconds <= MAX_REMEMBER_SECONDS))
      throw new Error(`remember for 1 to ${MAX_REMEMBER_SECONDS} seconds, not ${seconds}`);
    return get(bucket, 1, seconds);
  };
  return {
    async remember(bucket, key, seconds) {
      await kept(bucket, seconds).set(key, 1, seconds);
    },
    async remembers(bucket, key, seconds) {
      try {
        return ((await kept(bucket, seconds).get(key))?.consumedPoints ?? 0) > 0;
      } catch {
        return false;
      }
    },
    async consume(bucket, limit, key, windowSeconds = 60) {
      try {
        const r = await get(bucket, limit, windowSeconds).consume(key);
        return { allowed: true, limit, remaining: r.remainingPoints, reset: Math.ceil(r.msBeforeNext / 1000) };
      } catch (err) {
        if (err instanceof RateLimiterRes) {
          return { allowed: false, limit, remaining: 0, reset: Math.max(1, Math.ceil(err.msBeforeNext / 1000)) };
        }
        throw err;
      }
    },
  };
}
