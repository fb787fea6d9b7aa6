// Per-instance caches (API keys, merchants' branding) are evicted in every instance when the change
// commits (NOTIFY tolem_cache): two app instances on one PostgreSQL database, a change through one,
// the effect through the other. PostgreSQL only: the embedded store serves one process.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, usingPostgres, type TestApp } from '../helpers/app.ts';
import { bearer, key, newMerchant } from '../helpers/factories.ts';
import { Browser, createLink } from '../links/helpers.ts';

let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  if (!usingPostgres) return;
  a = await buildTestApp();
  b = await buildTestApp();
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

async function eventually(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('not seen in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

it.skipIf(!usingPostgres)('a regenerated key stops working in the other instance', async () => {
  const m = await newMerchant(a.app);
  const probe = (k: string) => b.app.inject({ method: 'GET', url: '/v2/payments', headers: key(k) });
  expect((await probe(m.testKey)).statusCode).toBe(200); // cached in b
  const res = await a.app.inject({
    method: 'POST',
    url: '/me/api-key/regenerate',
    headers: bearer(m),
    payload: { mode: 'test' },
  });
  expect(res.statusCode).toBe(200);
  await eventually(async () => (await probe(m.testKey)).statusCode === 401);
  expect((await probe(res.json().api_key)).statusCode).toBe(200);
});

it.skipIf(!usingPostgres)('a branding change shows on the other instance’s checkout', async () => {
  const m = await newMerchant(a.app, { name: 'ТОО Алма' });
  const link = await createLink(a.app, m.testKey);
  const shown = async () => (await new Browser(b.app).get(`/v2/checkout/${link.token}`)).json().merchant.display_name;
  expect(await shown()).toBe('ТОО Алма'); // cached in b
  const res = await a.app.inject({
    method: 'PATCH',
    url: '/me/branding',
    headers: bearer(m),
    payload: { display_name: 'Алма Маркет' },
  });
  expect(res.statusCode).toBe(200);
  await eventually(async () => (await shown()) === 'Алма Маркет');
});
