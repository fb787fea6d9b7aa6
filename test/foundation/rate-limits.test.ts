// Rate limits (decisions 10): per key by mode, per user for the cabinet, and shared through Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, HIGH_LIMITS, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, key, newMerchant } from '../helpers/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ rateLimits: { ...HIGH_LIMITS, live: 3, test: 5, cabinet: 4 } });
});
afterAll(() => t.close());

describe('rate limits', () => {
  it('live keys have their own per-key budget; the request over it is 429 with the headers', async () => {
    const m = await newMerchant(t.app);
    const other = await newMerchant(t.app);
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/v2/payments', headers: key(m.liveKey) });
      expect(res.statusCode).toBe(200);
      seen.push(res.headers['x-ratelimit-remaining'] as string);
    }
    expect(seen).toEqual(['2', '1', '0']);
    const over = await t.app.inject({ method: 'GET', url: '/v2/payments', headers: key(m.liveKey) });
    expect(over.statusCode).toBe(429);
    expect(errorOf(over)).toMatchObject({
      code: 'rate_limit_exceeded',
      type: 'rate_limit_error',
      category: 'rate_limit',
    });
    expect(over.headers['x-ratelimit-limit']).toBe('3');
    expect(Number(over.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    expect(Number(over.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(60);
    // Test keys and other clients are separate budgets.
    expect(
      (await t.app.inject({ method: 'GET', url: '/v2/payments', headers: key(m.testKey) })).headers[
        'x-ratelimit-limit'
      ],
    ).toBe('5');
    expect((await t.app.inject({ method: 'GET', url: '/v2/payments', headers: key(other.liveKey) })).statusCode).toBe(
      200,
    );
  });

  it('the cabinet counts per user', async () => {
    const m = await newMerchant(t.app);
    for (let i = 0; i < 4; i++)
      expect((await t.app.inject({ method: 'GET', url: '/me', headers: bearer(m) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/me', headers: bearer(m) })).statusCode).toBe(429);
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('rate limits through Redis', () => {
  it('two instances share one counter', async () => {
    const limits = { ...HIGH_LIMITS, live: 4 };
    const a = await buildTestApp({ rateLimits: limits, redisUrl: process.env.TEST_REDIS_URL });
    const b = await buildTestApp({ rateLimits: limits, redisUrl: process.env.TEST_REDIS_URL });
    try {
      // Both apps must see the same merchant: only possible when they share the database too.
      if (!process.env.TEST_DATABASE_URL) return;
      const m = await newMerchant(a.app);
      const codes = [];
      for (let i = 0; i < 5; i++) {
        const app = i % 2 ? b.app : a.app;
        codes.push((await app.inject({ method: 'GET', url: '/v2/payments', headers: key(m.liveKey) })).statusCode);
      }
      expect(codes).toEqual([200, 200, 200, 200, 429]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
