// POST /v1/history, GET /v1/client/{phone}, GET /v1/status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';
import { idsOf, newAdmin, newMerchant } from '../helpers/factories.ts';
import { connectLive, createQr, pay, payAtProvider } from '../helpers/payments.ts';
import { buildV1App, dataOf, expectV1Error, expectV1Headers, v1, v1Idem, v2OpOf } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildV1App();
});
afterAll(() => t.close());

const history = (k: string, body: unknown) => v1(t.app, 'POST', '/v1/history', k, body);
const DAY = 86_400_000;

/** Moves an operation's creation back in time (below the API: history is by creation day). */
async function backdate(opId: string, ms: number) {
  await t.runtime.deps.db.query(
    `UPDATE operations SET created_at = created_at - make_interval(secs => $2) WHERE id = $1`,
    [opId, ms / 1000],
  );
}

describe('POST /v1/history', () => {
  it('lists the operations of a period newest first, v1 and v2 alike, with the total of the period', async () => {
    const m = await newMerchant(t.app);
    const a = dataOf(await v1Idem(t.app, '/v1/qr/create', m.testKey, { amount: 111 }));
    const v2 = await createQr(t.app, m.testKey, 222); // made in v2, the same operations in v1
    const inv = dataOf(
      await v1Idem(t.app, '/v1/invoice/create', m.testKey, { phone: '+77012345678', amount: 333, comment: 'c' }),
    );
    await pay(t.app, m.testKey, v2.operation_id, { sender_name: 'Ерлан' });

    const res = await history(m.testKey, { page_size: 2, period: 0 });
    expectV1Headers(res, '/v2/payments');
    const d = dataOf(res);
    expect(d.Total).toBe(3);
    expect(d.Items.map((i: { Amount: number }) => i.Amount)).toEqual([333, 222]);
    expect(d.Items[0]).toMatchObject({
      OperationId: inv.OperationId,
      Type: 'Invoice',
      Status: 'InvoiceCreated',
      Phone: '+77012345678',
      Comment: 'c',
      PaidAt: null,
    });
    expect(d.Items[1]).toMatchObject({ Type: 'Qr', Status: 'Paid', SenderName: 'Ерлан', RefundedAmount: 0 });
    expect(Date.parse(d.Items[1].PaidAt)).toBeGreaterThan(0);
    const all = dataOf(await history(m.testKey, { period: 0 })); // page_size defaults to 20
    expect(all.Items.map((i: { OperationId: number }) => i.OperationId).at(-1)).toBe(a.QrOperationId);
    expect(all.Items).toHaveLength(3);
  });

  it('periods are UTC calendar days: today, yesterday, last 7 and last 30 days', async () => {
    const m = await newMerchant(t.app);
    for (const amount of [1, 2, 3, 4]) await v1Idem(t.app, '/v1/qr/create', m.testKey, { amount });
    await backdate((await v2OpOf(t.app, m.testKey, 2)).operation_id, DAY); // always in the previous UTC day
    await backdate((await v2OpOf(t.app, m.testKey, 3)).operation_id, 10 * DAY);
    await backdate((await v2OpOf(t.app, m.testKey, 4)).operation_id, 40 * DAY);
    const amounts = async (period: number) => {
      const d = dataOf(await history(m.testKey, { period, page_size: 100 }));
      expect(d.Total).toBe(d.Items.length);
      return d.Items.map((i: { Amount: number }) => i.Amount).sort();
    };
    expect(await amounts(0)).toEqual([1]);
    expect(await amounts(1)).toEqual([2]);
    expect(await amounts(7)).toEqual([1, 2]);
    expect(await amounts(30)).toEqual([1, 2, 3]);
  });

  it('-400 for a missing or unknown period, a bad page_size or unknown fields; -401 without a key', async () => {
    const m = await newMerchant(t.app);
    for (const body of [
      {},
      { period: 3 },
      { period: '0' },
      { period: 0, page_size: 0 },
      { period: 0, page_size: 101 },
      { period: 0, page_size: 2.5 },
      { period: 0, page: 2 },
    ]) {
      const res = await history(m.testKey, body);
      expectV1Error(res, 400, -400);
      expectV1Headers(res, '/v2/payments');
    }
    expectV1Error(await history('', { period: 0 }), 401, -401);
  });

  it('is per merchant and per mode', async () => {
    const m = await newMerchant(t.app);
    const other = await newMerchant(t.app);
    await v1Idem(t.app, '/v1/qr/create', other.testKey, { amount: 10 });
    expect(dataOf(await history(m.testKey, { period: 30 }))).toEqual({ Items: [], Total: 0 });
    expect(dataOf(await history(other.liveKey, { period: 30 }))).toEqual({ Items: [], Total: 0 });
  });
});

describe('GET /v1/client/{phone}', () => {
  it('finds a provider customer by any spelling; -404 when not a customer; -400 for a bad phone', async () => {
    const m = await newMerchant(t.app);
    const res = await v1(t.app, 'GET', `/v1/client/${encodeURIComponent('+7 701 234 56 78')}`, m.testKey);
    expectV1Headers(res, '/v2/client');
    expect(dataOf(res)).toMatchObject({ Phone: '+77012345678', Exists: true });
    expectV1Error(await v1(t.app, 'GET', '/v1/client/87012340000', m.testKey), 404, -404);
    for (const bad of ['123', 'abc', '%2B1%20202%20555%200100'])
      expectV1Error(await v1(t.app, 'GET', `/v1/client/${bad}`, m.testKey), 400, -400);
  });

  it('-409 in live mode before a provider account is connected', async () => {
    const m = await newMerchant(t.app);
    expectV1Error(await v1(t.app, 'GET', '/v1/client/87012345678', m.liveKey), 409, -409);
    await connectLive(t, m);
    expect(dataOf(await v1(t.app, 'GET', '/v1/client/87012345678', m.liveKey)).Exists).toBe(true);
  });
});

describe('GET /v1/status', () => {
  it('reports the session, the plan and its monthly live usage', async () => {
    const m = await newMerchant(t.app);
    const res = await v1(t.app, 'GET', '/v1/status', m.testKey);
    expectV1Headers(res, '/me');
    expect(res.json()).toEqual({
      Data: { session_alive: true, plan: 'trial', payments_used: 0, payments_limit: 30 },
      StatusCode: 0,
    });
    // Live: no provider account yet means no live session.
    expect(dataOf(await v1(t.app, 'GET', '/v1/status', m.liveKey)).session_alive).toBe(false);

    await connectLive(t, m);
    const d = dataOf(await v1Idem(t.app, '/v1/qr/create', m.liveKey, { amount: 4000 }));
    const { operation_id } = await v2OpOf(t.app, m.liveKey, 4000);
    await payAtProvider(t, operation_id);
    expect(dataOf(await v1(t.app, 'GET', `/v1/qr/status/${d.QrOperationId}`, m.liveKey)).Status).toBe('Paid');
    expect(dataOf(await v1(t.app, 'GET', '/v1/status', m.liveKey))).toEqual({
      session_alive: true,
      plan: 'trial',
      payments_used: 1,
      payments_limit: 30,
    });
    // The counter is the plan's: test-mode keys see the same live usage; test payments never count.
    expect(dataOf(await v1(t.app, 'GET', '/v1/status', m.testKey)).payments_used).toBe(1);
  });

  it('shows 999999 for an unlimited plan', async () => {
    const m = await newMerchant(t.app);
    const { clientId } = await idsOf(t.runtime.deps.db, m);
    const admin = await newAdmin(t.app, t.runtime.deps.db);
    const set = await api(t.app, admin).patch(`/admin/clients/${clientId}`, {
      body: { plan: 'enterprise', plan_expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString() },
    });
    if (set.status !== 200) throw new Error(`PATCH /admin/clients: ${set.status} ${set.raw.body}`);
    expect(dataOf(await v1(t.app, 'GET', '/v1/status', m.testKey))).toMatchObject({
      plan: 'enterprise',
      payments_limit: 999999,
    });
  });
});
