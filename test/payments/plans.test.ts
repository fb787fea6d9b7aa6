// Plan limits on live creates: active trial, monthly limit of live paid payments, test mode exempt.
import { describe, expect, it } from 'vitest';
import { withAdmin, type TestApp } from '../helpers/app.ts';
import { api } from '../helpers/api.ts';
import { errorOf, idem, idsOf, newMerchant, type Merchant } from '../helpers/factories.ts';
import { connectLive, createQr } from '../helpers/payments.ts';
import { pruneEvents } from '../../src/jobs/retention.ts';

let t: TestApp;
let admin: Merchant;
withAdmin((w) => ({ t, admin } = w));

const qr = (k: string) => api(t.app, { apiKey: k }).post('/v2/qr', { body: { amount: 100 }, headers: idem() });
const setPlan = (clientId: number, plan: 'starter' | 'enterprise', expires: string | null) =>
  api(t.app, admin).patch(`/admin/clients/${clientId}`, { body: { plan, plan_expires_at: expires } });

/**
 * Paid live payments straight into the table: a month of them (or of an earlier month) in one go, which the
 * provider's path would take minutes to pay and could not back-date.
 */
async function fakePaidLive(clientId: number, accountId: number, n: number, paidAt = 'now()') {
  for (let i = 0; i < n; i++) {
    await t.runtime.deps.db.query(
      `INSERT INTO operations (id, client_id, mode, type, status, amount, ` +
        `provider_account_id, provider_ref, source, expires_at, paid_at)
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
    expect((await qr(m.liveKey)).status).toBe(201);
    await fakePaidLive(clientId, accountId, 1);
    const res = await qr(m.liveKey);
    expect(res.status).toBe(429);
    expect(errorOf(res)).toMatchObject({ code: 'plan_limit_exceeded', type: 'rate_limit_error' });
    expect((await qr(m.testKey)).status).toBe(201);
  });

  it('payments of earlier months do not count', async () => {
    const m = await newMerchant(t.app);
    const accountId = await connectLive(t, m);
    const { clientId } = await idsOf(t.runtime.deps.db, m);
    await fakePaidLive(clientId, accountId, 40, `date_trunc('month', now()) - interval '1 day'`);
    expect((await qr(m.liveKey)).status).toBe(201);
  });

  it('an ended trial is 403 plan_inactive for live creates only', async () => {
    const m = await newMerchant(t.app);
    await connectLive(t, m);
    const { clientId } = await idsOf(t.runtime.deps.db, m);
    // Moving time: the trial ends.
    await t.runtime.deps.db.query(`UPDATE clients SET trial_ends_at = now() - interval '1 minute' WHERE id = $1`, [
      clientId,
    ]);
    const res = await qr(m.liveKey);
    expect(res.status).toBe(403);
    expect(errorOf(res)).toMatchObject({ code: 'plan_inactive', type: 'authorization_error' });
    expect((await qr(m.testKey)).status).toBe(201);
    const me = (await api(t.app, m).get('/me')).body;
    expect(me.plan_active).toBe(false);
  });

  it('enterprise is unlimited; starter allows 200', async () => {
    const m = await newMerchant(t.app);
    const accountId = await connectLive(t, m);
    const { clientId } = await idsOf(t.runtime.deps.db, m);
    await setPlan(clientId, 'starter', new Date(Date.now() + 30 * 86_400_000).toISOString());
    await fakePaidLive(clientId, accountId, 30);
    expect((await qr(m.liveKey)).status).toBe(201);
    await setPlan(clientId, 'enterprise', null);
    await fakePaidLive(clientId, accountId, 200);
    expect((await qr(m.liveKey)).status).toBe(201);
  });

  it('journal retention follows the plan', async () => {
    const m = await newMerchant(t.app);
    const created = await createQr(t.app, m.testKey);
    await api(t.app, { apiKey: m.testKey }).post(`/v2/test/payments/${created.operation_id}/pay`);
    const { clientId } = await idsOf(t.runtime.deps.db, m);
    // Moving time: the journal's events are 31 days old.
    await t.runtime.deps.db.query(`UPDATE events SET created_at = now() - interval '31 days' WHERE client_id = $1`, [
      clientId,
    ]);
    await pruneEvents(t.runtime.deps);
    expect((await api(t.app, { apiKey: m.testKey }).get('/v2/events')).body.data).toHaveLength(0);
  });
});
