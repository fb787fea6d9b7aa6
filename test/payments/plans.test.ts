// Plan limits on live creates: active trial, monthly limit of live paid payments, test mode exempt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { errorOf, idem, idsOf, key, newMerchant } from '../helpers/factories.ts';
import { connectLive, createQr } from '../helpers/payments.ts';
import { pruneEvents } from '../../src/jobs/retention.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const post = (k: string) =>
  t.app.inject({ method: 'POST', url: '/v2/qr', headers: { ...key(k), ...idem() }, payload: { amount: 100 } });

async function fakePaidLive(clientId: number, accountId: number, n: number, paidAt = 'now()') {
  for (let i = 0; i < n; i++) {
    await t.runtime.deps.db.query(
      `INSERT INTO operations (id, client_id, mode, type, status, amount, provider_account_id, provider_ref, source, expires_at, paid_at)
       VALUES ($1, $2, 'live', 'qr', 'paid', 100, $3, 'x', 'api', now(), ${paidAt})`,
      [`op_TEST${clientId}X${i}X${Date.now()}`, clientId, accountId],
    );
  }
}

describe('plans', () => {
  it('trial: 30 live paid payments a month, then 429 plan_limit_exceeded; test mode unaffected', async () => {
    const m = await newMerchant(t.app);
    const accountId = await connectLive(t, m);
    const { clientId } = await idsOf(t.runtime.deps.db, m);
    await fakePaidLive(clientId, accountId, 29);
    expect((await post(m.liveKey)).statusCode).toBe(201);
    await fakePaidLive(clientId, accountId, 1);
    const res = await post(m.liveKey);
    expect(res.statusCode).toBe(429);
    expect(errorOf(res)).toMatchObject({ code: 'plan_limit_exceeded', type: 'rate_limit_error' });
    expect((await post(m.testKey)).statusCode).toBe(201);
  });

  it('payments of earlier months do not count', async () => {
    const m = await newMerchant(t.app);
    const accountId = await connectLive(t, m);
    const { clientId } = await idsOf(t.runtime.deps.db, m);
    await fakePaidLive(clientId, accountId, 40, `date_trunc('month', now()) - interval '1 day'`);
    expect((await post(m.liveKey)).statusCode).toBe(201);
  });

  it('an ended trial is 403 plan_inactive for live creates only', async () => {
    const m = await newMerchant(t.app);
    await connectLive(t, m);
    const { clientId } = await idsOf(t.runtime.deps.db, m);
    await t.runtime.deps.db.query(`UPDATE clients SET trial_ends_at = now() - interval '1 minute' WHERE id = $1`, [
      clientId,
    ]);
    const res = await post(m.liveKey);
    expect(res.statusCode).toBe(403);
    expect(errorOf(res)).toMatchObject({ code: 'plan_inactive', type: 'authorization_error' });
    expect((await post(m.testKey)).statusCode).toBe(201);
    const me = (
      await t.app.inject({ method: 'GET', url: '/me', headers: { authorization: `Bearer ${m.access}` } })
    ).json();
    expect(me.plan_active).toBe(false);
  });

  it('enterprise is unlimited; starter allows 200', async () => {
    const m = await newMerchant(t.app);
    const accountId = await connectLive(t, m);
    const { clientId } = await idsOf(t.runtime.deps.db, m);
    await t.runtime.deps.db.query(
      `UPDATE clients SET plan = 'starter', plan_expires_at = now() + interval '30 days' WHERE id = $1`,
      [clientId],
    );
    await fakePaidLive(clientId, accountId, 30);
    expect((await post(m.liveKey)).statusCode).toBe(201);
    await t.runtime.deps.db.query(`UPDATE clients SET plan = 'enterprise', plan_expires_at = NULL WHERE id = $1`, [
      clientId,
    ]);
    await fakePaidLive(clientId, accountId, 200);
    expect((await post(m.liveKey)).statusCode).toBe(201);
  });

  it('journal retention follows the plan', async () => {
    const m = await newMerchant(t.app);
    const qr = await createQr(t.app, m.testKey);
    await t.app.inject({ method: 'POST', url: `/v2/test/payments/${qr.operation_id}/pay`, headers: key(m.testKey) });
    const { clientId } = await idsOf(t.runtime.deps.db, m);
    await t.runtime.deps.db.query(`UPDATE events SET created_at = now() - interval '31 days' WHERE client_id = $1`, [
      clientId,
    ]);
    await pruneEvents(t.runtime.deps);
    expect(
      (await t.app.inject({ method: 'GET', url: '/v2/events', headers: key(m.testKey) })).json().data,
    ).toHaveLength(0);
  });
});
