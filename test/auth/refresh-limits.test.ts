// Decisions 30: /auth/refresh is limited per refresh-token family, not per address. Many tabs and page loads
// of one shop behind one address never spend the address's sign-in allowance (the `auth` bucket), one
// family's storm does not stop another's refresh, and a token nobody issued still counts against the
// address like a sign-in attempt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, HIGH_LIMITS, type TestApp } from '../helpers/app.ts';
import { errorOf, newMerchant } from '../helpers/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ rateLimits: { ...HIGH_LIMITS, auth: 5, refresh: 12 } });
});
afterAll(() => t.close());

const SHOP = '203.0.113.40';
const refresh = (token: string, remoteAddress = SHOP) =>
  t.app.inject({ method: 'POST', url: '/auth/refresh', remoteAddress, payload: { refresh_token: token } });
const signIn = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/auth/login', remoteAddress: SHOP, payload: { email, password } });

/** A fresh owner signed in from the shop's address; its refresh token. */
async function session(): Promise<{ email: string; password: string; token: string }> {
  const m = await newMerchant(t.app);
  const res = await signIn(m.email, m.password);
  expect(res.statusCode, res.body).toBe(200);
  return { email: m.email, password: m.password, token: res.json().refresh_token };
}

describe('POST /auth/refresh is limited per token family', () => {
  it('more refreshes than the address may sign in, all in one family, go through; the family then waits', async () => {
    let { token } = await session();
    // 12 refreshes of one family: more than the address's auth allowance of 5 a minute.
    for (let i = 0; i < 12; i++) {
      const res = await refresh(token);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('12');
      token = res.json().refresh_token;
    }
    const over = await refresh(token);
    expect(over.statusCode).toBe(429);
    expect(errorOf(over).code).toBe('rate_limit_exceeded');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Another family from the same address is not held by it.
    const other = await session();
    expect((await refresh(other.token)).statusCode).toBe(200);
  });

  it('unknown tokens count against the address, like sign-in attempts', async () => {
    const from = '198.51.100.99';
    for (let i = 0; i < 5; i++) expect((await refresh(`rt_unknown_${i}`, from)).statusCode).toBe(401);
    const limited = await refresh('rt_unknown_again', from);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['x-ratelimit-limit']).toBe('5');
    // A known family from that address is still served.
    const s = await session();
    expect((await refresh(s.token, from)).statusCode).toBe(200);
  });
});
