// Plan notifications: nearing and reaching the monthly live limit (written when a live payment is paid,
// once a month), and a trial or paid plan ending soon (the worker's pass, once per end date).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, idsOf, key, newMerchant, type Merchant } from '../helpers/factories.ts';
import { connectLive, createQr, payAtProvider } from '../helpers/payments.ts';
import { noticeEndingPlans } from '../../src/domain/notifications/plan-notices.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const notices = async (m: Merchant) =>
  (await t.app.inject({ method: 'GET', url: '/me/notifications', headers: bearer(m) })).json().data as {
    type: string;
    body: string;
    params: Record<string, unknown>;
  }[];

/** Live paid payments of this month written straight to the table (the plan counts paid_at only). */
async function paidLive(clientId: number, accountId: number, n: number) {
  for (let i = 0; i < n; i++) {
    await t.runtime.deps.db.query(
      `INSERT INTO operations (id, client_id, mode, type, status, amount, ` +
        `provider_account_id, provider_ref, source, expires_at, paid_at)
       VALUES ($1, $2, 'live', 'qr', 'paid', 100, $3, 'x', 'api', now(), now())`,
      [`op_PN${clientId}X${i}X${Date.now()}`, clientId, accountId],
    );
  }
}

/** A live QR paid at the provider and read back, so the real paid transition runs. */
async function payLive(m: Merchant) {
  const qr = await createQr(t.app, m.liveKey, 100);
  await payAtProvider(t, qr.operation_id);
  const res = await t.app.inject({ method: 'GET', url: `/v2/qr/${qr.operation_id}`, headers: key(m.liveKey) });
  expect(res.json().status).toBe('paid');
}

describe('plan limit notifications', () => {
  it('the payment that reaches 80 % sends plan.limit_near once; the 30th sends plan.limit_reached', async () => {
    const m = await newMerchant(t.app);
    const accountId = await connectLive(t, m);
    const { clientId } = await idsOf(t.runtime.deps.db, m);
    await paidLive(clientId, accountId, 22);
    await payLive(m); // 23rd of 30: below 24
    expect(await notices(m)).toEqual([]);
    await payLive(m); // 24th: 80 %
    await payLive(m); // 25th: no second notice this month
    const near = await notices(m);
    expect(near.map((n) => n.type)).toEqual(['plan.limit_near']);
    expect(near[0].body).toContain('24 of the 30');
    // The facts the dashboard words it from in the reader's language.
    const month = new Date().toISOString().slice(0, 7);
    expect(near[0].params).toEqual({ plan: 'trial', used: 24, limit: 30, month });
    await paidLive(clientId, accountId, 4);
    await payLive(m); // 30th
    expect((await notices(m)).map((n) => n.type)).toEqual(['plan.limit_reached', 'plan.limit_near']);
  });

  it('two payments recorded at once that reach the limit together still send plan.limit_reached', async () => {
    // Each transaction counts the other's payment only once it commits: without a lock both counted 29,
    // and no later payment could send the notice (new live payments are refused at the limit).
    for (let round = 0; round < 3; round++) {
      const m = await newMerchant(t.app);
      const accountId = await connectLive(t, m);
      const { clientId } = await idsOf(t.runtime.deps.db, m);
      await paidLive(clientId, accountId, 28);
      const qrs = [await createQr(t.app, m.liveKey, 100), await createQr(t.app, m.liveKey, 100)];
      for (const qr of qrs) await payAtProvider(t, qr.operation_id);
      await Promise.all(
        qrs.map((qr) => t.app.inject({ method: 'GET', url: `/v2/qr/${qr.operation_id}`, headers: key(m.liveKey) })),
      );
      expect((await notices(m)).map((n) => n.type)).toContain('plan.limit_reached');
    }
  });

  it('test-mode payments and unlimited plans send nothing', async () => {
    const m = await newMerchant(t.app);
    const accountId = await connectLive(t, m);
    const { clientId } = await idsOf(t.runtime.deps.db, m);
    for (let i = 0; i < 3; i++) {
      const qr = await createQr(t.app, m.testKey, 100);
      await t.app.inject({ method: 'POST', url: `/v2/test/payments/${qr.operation_id}/pay`, headers: key(m.testKey) });
    }
    await t.runtime.deps.db.query(`UPDATE clients SET plan = 'enterprise', plan_expires_at = NULL WHERE id = $1`, [
      clientId,
    ]);
    await paidLive(clientId, accountId, 40);
    await payLive(m);
    expect(await notices(m)).toEqual([]);
  });
});

describe('plan ending notifications', () => {
  it('a trial ending within 3 days is noticed once; a later trial or a far one is not', async () => {
    const m = await newMerchant(t.app);
    const far = await newMerchant(t.app);
    const { clientId } = await idsOf(t.runtime.deps.db, m);
    const now = new Date();
    await t.runtime.deps.db.query(
      `UPDATE clients SET trial_ends_at = $2::timestamptz + interval '2 days' WHERE id = $1`,
      [clientId, now],
    );
    expect(await noticeEndingPlans(t.runtime.deps.db, now)).toBeGreaterThanOrEqual(1);
    await noticeEndingPlans(t.runtime.deps.db, now);
    const list = await notices(m);
    expect(list.map((n) => n.type)).toEqual(['trial.ending']);
    expect(list[0].body).toMatch(/^The 14-day trial ends on \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    const ends = await t.runtime.deps.db.query<{ trial_ends_at: Date }>(
      'SELECT trial_ends_at FROM clients WHERE id = $1',
      [clientId],
    );
    expect(list[0].params).toEqual({ ends_at: ends.rows[0].trial_ends_at.toISOString() });
    expect(await notices(far)).toEqual([]); // a new trial has 14 days left
  });

  it('a paid plan expiring soon gets plan.expiring; an expired one gets nothing', async () => {
    const m = await newMerchant(t.app);
    const gone = await newMerchant(t.app);
    const now = new Date();
    const set = async (x: Merchant, offset: string) =>
      t.runtime.deps.db.query(
        `UPDATE clients SET plan = 'starter', plan_expires_at = $2::timestamptz + $3::interval WHERE id = $1`,
        [(await idsOf(t.runtime.deps.db, x)).clientId, now, offset],
      );
    await set(m, '1 day');
    await set(gone, '-1 day');
    await noticeEndingPlans(t.runtime.deps.db, now);
    const expiring = await notices(m);
    expect(expiring.map((n) => n.type)).toEqual(['plan.expiring']);
    expect(expiring[0].params).toEqual({ plan: 'starter', ends_at: expect.stringMatching(/^\d{4}-.+Z$/) });
    expect(await notices(gone)).toEqual([]);
  });
});
