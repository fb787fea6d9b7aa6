// Partner analytics (decisions 21) over a seeded fixture whose numbers are worked out by hand below:
// three clicks, three clients registered through the link today (one connected, paying live and on a
// plan; one connected only; one idle), and one client of 40 days ago who bought professional then.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { callAs, idem, key, newAdmin, newMerchant, uniqueEmail, type Merchant } from '../helpers/factories.ts';
import { payAtProvider } from '../helpers/payments.ts';

let t: TestApp;
let admin: Merchant;
let p: Merchant;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await newAdmin(t.app, t.runtime.deps.db);
  p = await newMerchant(t.app);
  const reg = await as(p, 'POST', '/partner/auth/register', { company_name: 'Numbers' });
  await as(admin, 'POST', `/admin/partners/${reg.json().id}/approve`);
  // The partner existed before the old client came.
  await t.runtime.deps.db.query(`UPDATE partners SET created_at = now() - interval '100 days' WHERE id = $1`, [
    reg.json().id,
  ]);
  const link = (await as(p, 'POST', '/partner/links')).json();
  for (let i = 0; i < 3; i++) await t.app.inject({ method: 'GET', url: `/r/${link.code}` });
  const client = async () =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/auth/register',
        payload: { name: 'C', email: uniqueEmail('an'), password: 'a long password 1', referral_code: link.code },
      })
    ).json();
  const [c1, c2] = [await client(), await client()];
  await client(); // idle
  for (const c of [c1, c2]) {
    await as({ access: c.access_token }, 'POST', '/onboarding/provider/start', { phone: '+77015550123' });
    await as({ access: c.access_token }, 'POST', '/onboarding/provider/verify', { code: '000000' });
  }
  const live = await t.app.inject({
    method: 'POST',
    url: '/v2/qr',
    headers: { ...key(c1.api_keys.live), ...idem() },
    payload: { amount: 777 },
  });
  await payAtProvider(t, live.json().operation_id);
  await t.app.inject({ method: 'GET', url: `/v2/qr/${live.json().operation_id}`, headers: key(c1.api_keys.live) });
  await buy({ access: c1.access_token }, 'starter');
  // The old client: registered and paying 40 days ago.
  const old = await client();
  const oldOp = await buy({ access: old.access_token }, 'professional');
  const oldEmail = (await as({ access: old.access_token }, 'GET', '/me')).json().email;
  await t.runtime.deps.db.query(`UPDATE clients SET created_at = now() - interval '40 days' WHERE email = $1`, [
    oldEmail,
  ]);
  await t.runtime.deps.db.query(`UPDATE operations SET paid_at = paid_at - interval '40 days' WHERE id = $1`, [oldOp]);
  await t.runtime.deps.db.query(
    `UPDATE commissions SET created_at = created_at - interval '40 days' WHERE operation_id = $1`,
    [oldOp],
  );
}, 60_000);
afterAll(() => t?.close());
const as = callAs(() => t.app);

async function buy(c: { access: string }, plan: string): Promise<string> {
  const q = await t.app.inject({
    method: 'POST',
    url: '/v1/subscription/pay',
    headers: { authorization: `Bearer ${c.access}`, ...idem() },
    payload: { plan },
  });
  await as(admin, 'POST', `/admin/sandbox/payments/${q.json().operation_id}/pay`);
  return q.json().operation_id;
}

describe('analytics', () => {
  it('summary of 30 days and of 90 days', async () => {
    const s30 = (await as(p, 'GET', '/partner/analytics/summary')).json();
    expect(s30).toMatchObject({
      period: '30d',
      clients_total: 4,
      clients_new: 3,
      clients_active: 2,
      clients_paying: 1,
      revenue_kzt: 10000,
      commissions_kzt: 2000,
      balance: { available_kzt: 0, pending_kzt: 8000 },
    });
    const from = new Date(s30.from);
    expect(from.getUTCHours() + from.getUTCMinutes()).toBe(0);
    expect(Math.round((Date.now() - from.getTime()) / 86400_000)).toBeLessThanOrEqual(30);
    const s90 = (await as(p, 'GET', '/partner/analytics/summary?period=90d')).json();
    expect(s90).toMatchObject({
      clients_total: 4,
      clients_new: 4,
      clients_paying: 2,
      revenue_kzt: 40000,
      commissions_kzt: 8000,
    });
  });

  it('the funnel of the 30 days never rises after the clicks', async () => {
    const f = (await as(p, 'GET', '/partner/analytics/funnel')).json();
    expect(f).toEqual([
      { step: 'link_clicks', value: 3 },
      { step: 'registered', value: 3 },
      { step: 'provider_connected', value: 2 },
      { step: 'first_live_payment', value: 1 },
      { step: 'paid_subscription', value: 1 },
    ]);
    const all = (await as(p, 'GET', '/partner/analytics/funnel?period=all'))
      .json()
      .map((x: { value: number }) => x.value);
    for (let i = 2; i < all.length; i++) expect(all[i]).toBeLessThanOrEqual(all[i - 1]);
  });

  it('the income graph is zero-filled per day, and sums the same by week and month', async () => {
    const days = (await as(p, 'GET', '/partner/analytics/income-graph?period=7d')).json().data;
    expect(days).toHaveLength(7);
    expect(days[6]).toMatchObject({
      date: new Date().toISOString().slice(0, 10),
      commissions_kzt: 2000,
      revenue_kzt: 10000,
    });
    expect(
      days
        .slice(0, 6)
        .every((d: { commissions_kzt: number; revenue_kzt: number }) => d.commissions_kzt === 0 && d.revenue_kzt === 0),
    ).toBe(true);
    const sum = (rows: { commissions_kzt: number; revenue_kzt: number }[]) =>
      rows.reduce((a, r) => [a[0] + r.commissions_kzt, a[1] + r.revenue_kzt], [0, 0]);
    for (const interval of ['week', 'month']) {
      const rows = (await as(p, 'GET', `/partner/analytics/income-graph?period=90d&interval=${interval}`)).json().data;
      expect(sum(rows), interval).toEqual([8000, 40000]);
    }
    expect((await as(p, 'GET', '/partner/analytics/income-graph?interval=year')).statusCode).toBe(400);
    expect((await as(p, 'GET', '/partner/analytics/summary?period=2d')).statusCode).toBe(400);
  });

  it('another partner sees only its own (zeros)', async () => {
    const other = await newMerchant(t.app);
    const reg = await as(other, 'POST', '/partner/auth/register', { company_name: 'Other' });
    await as(admin, 'POST', `/admin/partners/${reg.json().id}/approve`);
    expect((await as(other, 'GET', '/partner/analytics/summary')).json()).toMatchObject({
      clients_total: 0,
      revenue_kzt: 0,
      commissions_kzt: 0,
    });
    expect(
      (await as(other, 'GET', '/partner/analytics/funnel')).json().every((x: { value: number }) => x.value === 0),
    ).toBe(true);
  });
});
