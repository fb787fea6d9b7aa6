// One rule for every v2 list: an API key lists its own mode; the cabinet's JWT lists live mode, or test
// mode with ?mode=test (GET /v2/payments refused JWTs while /v2/events and /v2/payment-links took them).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, idem, key, newMerchant } from '../helpers/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

it('every v2 list: an API key its mode; a JWT live, or test with ?mode=test', async () => {
  const m = await newMerchant(t.app);
  const op = (
    await t.app.inject({
      method: 'POST',
      url: '/v2/qr',
      headers: { ...key(m.testKey), ...idem() },
      payload: { amount: 700 },
    })
  ).json().operation_id;
  await t.app.inject({ method: 'POST', url: `/v2/test/payments/${op}/pay`, headers: key(m.testKey) });
  await t.app.inject({
    method: 'POST',
    url: '/v2/payment-links',
    headers: key(m.testKey),
    payload: { amount: 900, description: 'x' },
  });
  const lists = ['/v2/payments', '/v2/events', '/v2/payment-links'];
  for (const url of lists) {
    const byKey = await t.app.inject({ method: 'GET', url, headers: key(m.testKey) });
    expect(byKey.statusCode, url).toBe(200);
    expect(byKey.json().data.length, url).toBeGreaterThan(0);
    const jwtTest = await t.app.inject({ method: 'GET', url: `${url}?mode=test`, headers: bearer(m) });
    expect(jwtTest.statusCode, `${url} ${jwtTest.body}`).toBe(200);
    expect(jwtTest.json().data.length, url).toBe(byKey.json().data.length);
    const jwtLive = await t.app.inject({ method: 'GET', url, headers: bearer(m) });
    expect(jwtLive.statusCode, url).toBe(200);
    expect(jwtLive.json().data, url).toEqual([]);
  }
});
