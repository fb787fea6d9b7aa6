// Fixed-window counters per bucket, one minute long: in memory for one instance, in Redis when
// REDIS_URL is set so that several instances share them (rate-limiter-flexible does the counting).
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
  consume(bucket: string, limit: number, key: string): Promise<RateDecision>;
}

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
  const redis = new IORedis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
  // Errors reach the limiter through the failed command (and its fallback); the client reconnects itself.
  redis.on('error', () => {});
  return redis;
}

export function createRateLimiter(redis?: Redis, namespace = ''): RateLimiter {
  const limiters = new Map<string, RateLimiterAbstract>();
  const get = (bucket: string, points: number) => {
    const id = `${bucket}:${points}`;
    let l = limiters.get(id);
    if (!l) {
      const opts = { points, duration: 60, keyPrefix: `tolem:${namespace}:rl:${bucket}` };
      // Redis failures must not turn every request into a 500: fall back to local counting.
      l = redis
        ? new RateLimiterRedis({ ...opts, storeClient: redis, insuranceLimiter: new RateLimiterMemory(opts) })
        : new RateLimiterMemory(opts);
      limiters.set(id, l);
    }
    return l;
  };
  return {
    async consume(bucket, limit, key) {
      try {
        const r = await get(bucket, limit).consume(key);
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
