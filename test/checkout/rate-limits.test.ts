// Public checkout rate limits (decisions 10): per token and client IP, one bucket per endpoint kind,
// with the usual headers; the page shares the GET budget.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, HIGH_LIMITS, type TestApp } from '../helpers/app.ts';
import { errorOf, newMerchant } from '../helpers/factories.ts';
import { Browser, createLink } from '../links/helpers.ts';
import { DEFAULT_RATE_LIMITS } from '../../src/config.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    rateLimits: { ...HIGH_LIMITS, checkout_get: 3, checkout_status: 4, checkout_refresh: 2, checkout_email: 2 },
  });
});
afterAll(() => t.close());

describe('checkout rate limits', () => {
  it('the defaults are 60, 120, 10 and 20 per minute', () => {
    expect(DEFAULT_RATE_LIMITS).toMatchObject({
      checkout_get: 60,
      checkout_status: 120,
      checkout_refresh: 10,
      checkout_email: 20,
    });
  });

  it('GET counts per token and IP: the 4th is 429; another IP or token has its own budget', async () => {
    const m = await newMerchant(t.app);
    const a = await createLink(t.app, m.testKey);
    const b = await createLink(t.app, m.testKey);
    const payer = new Browser(t.app, '192.0.2.10');
    const remaining = [];
    for (let i = 0; i < 3; i++) {
      const res = await payer.get(`/v2/checkout/${a.token}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('3');
      remaining.push(res.headers['x-ratelimit-remaining']);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const over = await payer.get(`/v2/checkout/${a.token}`);
    expect(over.statusCode).toBe(429);
    expect(errorOf(over)).toMatchObject({ code: 'rate_limit_exceeded', type: 'rate_limit_error' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(over.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(60);
    // The HTML page shares the budget and answers a page, not JSON.
    const page = await payer.get(`/checkout/${a.token}`);
    expect(page.statusCode).toBe(429);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['x-ratelimit-remaining']).toBe('0');
    expect((await new Browser(t.app, '192.0.2.11').get(`/v2/checkout/${a.token}`)).statusCode).toBe(200);
    expect((await payer.get(`/v2/checkout/${b.token}`)).statusCode).toBe(200);
    // Status polling is a separate bucket.
    const status = await payer.get(`/v2/checkout/${a.token}/status`);
    expect(status.statusCode).toBe(200);
    expect(status.headers['x-ratelimit-limit']).toBe('4');
  });

  it('refresh-qr (with the simulate button) and e-mail have their own, smaller budgets', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey, { allow_repeat: true });
    const payer = new Browser(t.app, '192.0.2.20');
    expect((await payer.post(`/v2/checkout/${link.token}/refresh-qr`)).statusCode).toBe(200);
    expect((await payer.post(`/v2/checkout/${link.token}/refresh-qr`)).statusCode).toBe(200);
    const over = await payer.post(`/v2/checkout/${link.token}/refresh-qr`);
    expect(over.statusCode).toBe(429);
    expect(over.headers['x-ratelimit-limit']).toBe('2');
    expect((await payer.post(`/v2/checkout/${link.token}/simulate-payment`)).statusCode).toBe(429);
    for (let i = 0; i < 2; i++)
      expect((await payer.post(`/v2/checkout/${link.token}/email`, { email: 'x@y.kz' })).statusCode).toBe(200);
    expect((await payer.post(`/v2/checkout/${link.token}/email`, { email: 'x@y.kz' })).statusCode).toBe(429);
  });

  it('status polling: 4 per minute here, then 429', async () => {
    const m = await newMerchant(t.app);
    const link = await createLink(t.app, m.testKey);
    const payer = new Browser(t.app, '192.0.2.30');
    const op = (await payer.get(`/v2/checkout/${link.token}`)).json().qr.operation_id;
    for (let i = 0; i < 4; i++)
      expect((await payer.get(`/v2/checkout/${link.token}/status?op=${op}`)).statusCode).toBe(200);
    expect((await payer.get(`/v2/checkout/${link.token}/status?op=${op}`)).statusCode).toBe(429);
  });
});
