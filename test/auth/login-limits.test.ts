// Issue 38 item 6: the login limits. Ten wrong passwords no longer lock an owner out: attempts are counted
// per e-mail *and address* (10 a minute, today's rate for one address), and all addresses that have not
// signed in to the e-mail lately share a slower per-e-mail budget (login_email_hourly). An address that
// has signed in to it keeps its own budget, so others' failures elsewhere do not block it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, HIGH_LIMITS, type TestApp } from '../helpers/app.ts';
import { errorOf, newMerchant, uniqueEmail, type Merchant } from '../helpers/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ rateLimits: { ...HIGH_LIMITS, login_email: 10, login_email_hourly: 20 } });
});
afterAll(() => t.close());

const login = (email: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/auth/login', remoteAddress, payload: { email, password } });

/** A fresh owner who has signed in once from `home`. */
async function owner(home: string): Promise<Merchant> {
  const m = await newMerchant(t.app);
  expect((await login(m.email, m.password, home)).statusCode).toBe(200);
  return m;
}

function expectLimited(res: Awaited<ReturnType<typeof login>>) {
  expect(res.statusCode, res.body).toBe(429);
  expect(errorOf(res)).toMatchObject({ code: 'rate_limit_exceeded', type: 'rate_limit_error', category: 'rate_limit' });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(res.headers['x-ratelimit-remaining']).toBe('0');
}

describe('login limits', () => {
  it('ten wrong passwords from one address do not lock the owner out of another', async () => {
    const m = await owner('192.0.2.10');
    for (let i = 0; i < 10; i++) expect((await login(m.email, 'wrong password', '198.51.100.7')).statusCode).toBe(401);
    // The attacking address has used its minute...
    expectLimited(await login(m.email, 'wrong password', '198.51.100.7'));
    expectLimited(await login(m.email, m.password, '198.51.100.7'));
    // ...the owner's has not.
    expect((await login(m.email, m.password, '192.0.2.10')).statusCode).toBe(200);
    // Nor has a new address of the owner's, while the e-mail's slower budget lasts.
    expect((await login(m.email, m.password, '203.0.113.99')).statusCode).toBe(200);
  });

  it('one address still gets 10 attempts a minute against one e-mail, its own home address included', async () => {
    const m = await owner('192.0.2.20');
    // The sign-in was the first attempt of the minute; nine more, then the address waits.
    for (let i = 0; i < 9; i++) expect((await login(m.email, 'wrong password', '192.0.2.20')).statusCode).toBe(401);
    expectLimited(await login(m.email, m.password, '192.0.2.20'));
    // Another e-mail from the same address is another count.
    const other = await owner('192.0.2.21');
    expect((await login(other.email, other.password, '192.0.2.20')).statusCode).toBe(200);
  });

  it(
    'many addresses together are capped by the per-e-mail budget; an ' + 'address that signed in before is not',
    async () => {
      // The owner's first sign-in from home came from a new address too: one of the hour's 20.
      const m = await owner('192.0.2.30');
      for (let i = 1; i <= 19; i++)
        expect((await login(m.email, 'wrong password', `198.51.100.${i}`)).statusCode, `attempt ${i}`).toBe(401);
      // A 21st address, even with the right password, waits: a guess from it would be tried otherwise.
      expectLimited(await login(m.email, m.password, '198.51.100.200'));
      expectLimited(await login(m.email, 'wrong password', '198.51.100.201'));
      // The owner's address signs in.
      expect((await login(m.email, m.password, '192.0.2.30')).statusCode).toBe(200);
      // The same budget holds for an e-mail that has no account (nothing tells them apart).
      const nobody = uniqueEmail('nobody');
      for (let i = 1; i <= 20; i++)
        expect((await login(nobody, 'wrong password', `198.51.100.${i}`)).statusCode).toBe(401);
      expectLimited(await login(nobody, 'wrong password', '198.51.100.202'));
    },
  );

  it('the addresses of one IPv6 /64 count as one address', async () => {
    const m = await owner('192.0.2.40');
    for (let i = 1; i <= 10; i++)
      expect((await login(m.email, 'wrong password', `2001:db8:1:2::${i.toString(16)}`)).statusCode).toBe(401);
    expectLimited(await login(m.email, 'wrong password', '2001:db8:1:2:ffff::1'));
    // Another /64 has its own count (while the e-mail's budget lasts).
    expect((await login(m.email, 'wrong password', '2001:db8:1:3::1')).statusCode).toBe(401);
    expect((await login(m.email, m.password, '192.0.2.40')).statusCode).toBe(200);
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL || !process.env.TEST_DATABASE_URL)('login limits through Redis', () => {
  it('two instances share the counts and the addresses that signed in', async () => {
    const limits = { ...HIGH_LIMITS, login_email: 10, login_email_hourly: 5 };
    const a = await buildTestApp({ rateLimits: limits, redisUrl: process.env.TEST_REDIS_URL });
    const b = await buildTestApp({ rateLimits: limits, redisUrl: process.env.TEST_REDIS_URL });
    const on = (app: TestApp, email: string, password: string, remoteAddress: string) =>
      app.app.inject({ method: 'POST', url: '/auth/login', remoteAddress, payload: { email, password } });
    try {
      const m = await newMerchant(a.app);
      // Signed in on A from home: a new address, one of the hour's five.
      expect((await on(a, m.email, m.password, '192.0.2.50')).statusCode).toBe(200);
      for (let i = 1; i <= 4; i++)
        expect((await on(i % 2 ? a : b, m.email, 'wrong password', `198.51.100.${i}`)).statusCode).toBe(401);
      expectLimited(await on(b, m.email, m.password, '198.51.100.60'));
      // B knows the home address that signed in on A.
      expect((await on(b, m.email, m.password, '192.0.2.50')).statusCode).toBe(200);
      // One address's minute is shared too.
      for (let i = 0; i < 8; i++)
        expect((await on(i % 2 ? a : b, m.email, 'wrong password', '192.0.2.50')).statusCode).toBe(401);
      expectLimited(await on(a, m.email, m.password, '192.0.2.50'));
    } finally {
      await a.close();
      await b.close();
    }
  });
});
