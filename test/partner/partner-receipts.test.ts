// The partner API reads its clients' fiscal receipts (decisions 22 and 27), through HTTP: the list with the
// filters of /v2/receipts and one receipt, only for a client the partner has and in the key's mode; another
// partner's client, a merchant of its own, or a receipt of another client is 404; a client's JWT is 401.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, callAs, errorOf, idem, key, newAdmin, newMerchant, type Merchant } from '../helpers/factories.ts';
import { issueReceipts } from '../helpers/fiscal.ts';
import { createQr, pay } from '../helpers/payments.ts';

let t: TestApp;
let admin: Merchant;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await newAdmin(t.app, t.runtime.deps.db);
});
afterAll(() => t?.close());
const as = callAs(() => t.app);

/** An approved partner with both integration keys. */
async function platform() {
  const m = await newMerchant(t.app);
  const reg = await as(m, 'POST', '/partner/auth/register', { company_name: 'Platform' });
  await as(admin, 'POST', `/admin/partners/${reg.json().id}/approve`);
  const test = (await as(m, 'POST', '/partner/integration/api-keys', { mode: 'test' })).json().api_key as string;
  const live = (await as(m, 'POST', '/partner/integration/api-keys', { mode: 'live' })).json().api_key as string;
  return { ...m, test, live };
}

const papi = (pk: string, url: string) => t.app.inject({ method: 'GET', url, headers: { 'x-partner-api-key': pk } });

/** A client of the partner, with a test register set up in its cabinet (signed in by a login link). */
async function clientWithRegister(pk: string) {
  const c = (
    await t.app.inject({
      method: 'POST',
      url: '/partner/v1/clients',
      headers: { 'x-partner-api-key': pk },
      payload: { external_id: `shop-${randomUUID()}`, name: 'Shop' },
    })
  ).json() as { id: number; external_id: string; api_key: string };
  const login = await t.app.inject({
    method: 'POST',
    url: `/partner/v1/clients/${c.id}/login-link`,
    headers: { 'x-partner-api-key': pk },
    payload: {},
  });
  const pair = (
    await t.app.inject({ method: 'POST', url: '/auth/magic-exchange', payload: { token: login.json().token } })
  ).json();
  const reg = await t.app.inject({
    method: 'POST',
    url: '/me/fiscal/registers?mode=test',
    headers: { ...bearer({ access: pair.access_token }), ...idem() },
    payload: { driver: 'sandbox', credentials: {}, register_number: `P${randomUUID().slice(0, 8)}` },
  });
  expect(reg.statusCode, reg.body).toBe(201);
  return { ...c, access: pair.access_token as string };
}

async function paidAndRefunded(apiKey: string, amount: number, refund: number) {
  const qr = await createQr(t.app, apiKey, amount);
  await pay(t.app, apiKey, qr.operation_id);
  const rf = await t.app.inject({
    method: 'POST',
    url: '/v2/refunds',
    headers: { ...key(apiKey), ...idem() },
    payload: { operation_id: qr.operation_id, amount: refund },
  });
  expect(rf.statusCode, rf.body).toBe(201);
  return qr.operation_id as string;
}

describe('GET /partner/v1/clients/{client_ref}/receipts', () => {
  it("lists a client's receipts with the /v2/receipts filters, and reads one, by external_id or id", async () => {
    const p = await platform();
    const c = await clientWithRegister(p.test);
    const op1 = await paidAndRefunded(c.api_key, 3000, 1000);
    const op2 = (await createQr(t.app, c.api_key, 500)).operation_id as string;
    await pay(t.app, c.api_key, op2);
    await issueReceipts(t);
    const all = await papi(p.test, `/partner/v1/clients/${c.external_id}/receipts`);
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data).toHaveLength(3);
    // The same receipts as the client's own list shows.
    const own = (await t.app.inject({ method: 'GET', url: '/v2/receipts', headers: key(c.api_key) })).json();
    expect(all.json().data).toEqual(own.data);
    const byId = (await papi(p.test, `/partner/v1/clients/${c.id}/receipts`)).json().data;
    expect(byId.map((r: { id: string }) => r.id)).toEqual(own.data.map((r: { id: string }) => r.id));
    const returns = (await papi(p.test, `/partner/v1/clients/${c.id}/receipts?kind=return`)).json().data;
    expect(returns).toHaveLength(1);
    expect(returns[0]).toMatchObject({ kind: 'return', operation_id: op1, amount: 1000, status: 'issued' });
    const ofOp2 = (await papi(p.test, `/partner/v1/clients/${c.id}/receipts?operation_id=${op2}`)).json().data;
    expect(ofOp2).toHaveLength(1);
    expect(ofOp2[0]).toMatchObject({ kind: 'sale', amount: 500 });
    expect((await papi(p.test, `/partner/v1/clients/${c.id}/receipts?status=failed`)).json().data).toEqual([]);
    // Cursor pages.
    const first = (await papi(p.test, `/partner/v1/clients/${c.id}/receipts?limit=2`)).json();
    expect(first.data).toHaveLength(2);
    expect(first.has_more).toBe(true);
    const next = (
      await papi(p.test, `/partner/v1/clients/${c.id}/receipts?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`)
    ).json();
    expect(next.data.map((r: { id: string }) => r.id)).toEqual([own.data[2].id]);
    const one = await papi(p.test, `/partner/v1/clients/${c.external_id}/receipts/${ofOp2[0].id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(ofOp2[0]);
    // The live key reads live receipts only.
    expect((await papi(p.live, `/partner/v1/clients/${c.id}/receipts`)).json().data).toEqual([]);
    expect((await papi(p.live, `/partner/v1/clients/${c.id}/receipts/${ofOp2[0].id}`)).statusCode).toBe(404);
  });

  it("another partner's client, a plain merchant, another client's receipt: 404; no partner key: 401", async () => {
    const p = await platform();
    const c = await clientWithRegister(p.test);
    const op = (await createQr(t.app, c.api_key, 800)).operation_id as string;
    await pay(t.app, c.api_key, op);
    await issueReceipts(t);
    const [rc] = (await papi(p.test, `/partner/v1/clients/${c.id}/receipts`)).json().data;
    expect(rc.status).toBe('issued');
    const other = await platform();
    const notMine = await papi(other.test, `/partner/v1/clients/${c.id}/receipts`);
    expect(notMine.statusCode).toBe(404);
    expect(errorOf(notMine).code).toBe('client_not_found');
    expect((await papi(other.test, `/partner/v1/clients/${c.external_id}/receipts/${rc.id}`)).statusCode).toBe(404);
    const merchant = await newMerchant(t.app);
    const me = (await t.app.inject({ method: 'GET', url: '/me', headers: bearer(merchant) })).json();
    const clientId = me.id as number;
    expect(clientId).toBeGreaterThan(0);
    expect((await papi(p.test, `/partner/v1/clients/${clientId}/receipts`)).statusCode).toBe(404);
    // A receipt id of one client under another client of the same partner is not found.
    const c2 = await clientWithRegister(p.test);
    const cross = await papi(p.test, `/partner/v1/clients/${c2.id}/receipts/${rc.id}`);
    expect(cross.statusCode).toBe(404);
    expect(errorOf(cross).code).toBe('receipt_not_found');
    // A client's own credentials are not a partner key.
    const jwt = await t.app.inject({
      method: 'GET',
      url: `/partner/v1/clients/${c.id}/receipts`,
      headers: bearer({ access: c.access }),
    });
    expect(jwt.statusCode).toBe(401);
    const nokey = await t.app.inject({ method: 'GET', url: `/partner/v1/clients/${c.id}/receipts` });
    expect(nokey.statusCode).toBe(401);
  });
});
