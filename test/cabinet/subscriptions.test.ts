// Buying a plan (decisions 20) through HTTP: the plan QR on the platform client, paid by an admin with the
// sandbox live driver, the plan activated in the paid transition (plan.changed, a notification), the
// check, the rules; and these routes live outside v1's envelope and sunset.
import { describe, expect, it } from 'vitest';
import { buildTestApp, withAdmin, type TestApp } from '../helpers/app.ts';
import { bearer, callAs, errorOf, idem, key, type Merchant, newMerchant } from '../helpers/factories.ts';

let t: TestApp;
let admin: Merchant;
withAdmin((w) => ({ t, admin } = w));
const as = callAs(() => t.app);
const pay = (m: Merchant, plan: string, k = idem()) =>
  t.app.inject({ method: 'POST', url: '/v1/subscription/pay', headers: { ...bearer(m), ...k }, payload: { plan } });
const adminPay = (opId: string) => as(admin, 'POST', `/admin/sandbox/payments/${opId}/pay`);

describe('buying a plan', () => {
  it(
    'starter: pay -> admin sandbox pay -> activated; /me shows it; plan.changed; ' +
      'the limit applies; check is idempotent',
    async () => {
      const plans = await t.app.inject({ method: 'GET', url: '/v1/subscription/plans' });
      expect(plans.json().data).toEqual([
        { plan: 'starter', amount: 10000, period_days: 30 },
        { plan: 'professional', amount: 30000, period_days: 30 },
      ]);
      const m = await newMerchant(t.app);
      const q = await pay(m, 'starter');
      expect(q.statusCode, q.body).toBe(201);
      expect(q.json()).toMatchObject({ plan: 'starter', amount: 10000, status: 'created' });
      expect(q.headers.deprecation).toBeUndefined();
      expect(q.headers.sunset).toBeUndefined();
      const opId = q.json().operation_id;
      expect((await as(m, 'GET', `/v1/subscription/check/${opId}`)).json()).toMatchObject({
        status: 'created',
        activated: false,
        plan: 'starter',
      });

      const paid = await adminPay(opId);
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json().status).toBe('paid');
      const check = (await as(m, 'GET', `/v1/subscription/check/${opId}`)).json();
      expect(check).toMatchObject({
        operation_id: opId,
        status: 'paid',
        plan: 'starter',
        activated: true,
        plan_active: true,
      });
      const expires = new Date(check.plan_expires_at).getTime();
      expect(expires - Date.now()).toBeGreaterThan(29.9 * 86400_000);
      expect((await as(m, 'GET', `/v1/subscription/check/${opId}`)).json()).toEqual(check);

      const me = (await as(m, 'GET', '/me')).json();
      expect(me).toMatchObject({ plan: 'starter', plan_active: true });
      const events = (await t.app.inject({ method: 'GET', url: '/v2/events?limit=5', headers: key(m.liveKey) })).json()
        .data;
      expect(events.find((e: { type: string }) => e.type === 'plan.changed').data).toMatchObject({
        from: 'trial',
        to: 'starter',
      });
      const notes = (await as(m, 'GET', '/me/notifications')).json().data;
      expect(notes.some((n: { type: string }) => n.type === 'plan.changed')).toBe(true);
    },
  );

  it('the same plan extends from its expiry; another plan starts now', async () => {
    const m = await newMerchant(t.app);
    await adminPay((await pay(m, 'starter')).json().operation_id);
    const first = new Date((await as(m, 'GET', '/me')).json().plan_expires_at).getTime();
    await adminPay((await pay(m, 'starter')).json().operation_id);
    const second = new Date((await as(m, 'GET', '/me')).json().plan_expires_at).getTime();
    expect(second - first).toBe(30 * 86400_000);
    await adminPay((await pay(m, 'professional')).json().operation_id);
    const pro = (await as(m, 'GET', '/me')).json();
    expect(pro.plan).toBe('professional');
    expect(new Date(pro.plan_expires_at).getTime() - Date.now()).toBeLessThan(30.1 * 86400_000);
  });

  it("the rules: trial 409, enterprise 409, unknown 400, the key replays, another client's operation 404", async () => {
    const m = await newMerchant(t.app);
    expect(errorOf(await pay(m, 'trial')).code).toBe('trial_already_used');
    expect(errorOf(await pay(m, 'enterprise')).code).toBe('plan_not_purchasable');
    expect(errorOf(await pay(m, 'gold')).param).toBe('plan');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/v1/subscription/pay',
          headers: bearer(m),
          payload: { plan: 'starter' },
        })
      ).statusCode,
    ).toBe(400);
    const k = idem();
    const a = await pay(m, 'starter', k);
    const b = await pay(m, 'starter', k);
    expect(b.json().operation_id).toBe(a.json().operation_id);
    expect(b.headers['idempotent-replayed']).toBe('true');
    const other = await newMerchant(t.app);
    expect((await as(other, 'GET', `/v1/subscription/check/${a.json().operation_id}`)).statusCode).toBe(404);
    // The plan QR is the platform's operation: not in the buyer's own payments.
    const list = (await t.app.inject({ method: 'GET', url: '/v2/payments', headers: key(m.liveKey) })).json().data;
    expect(list).toHaveLength(0);
  });

  it('a live payment of a real provider account cannot be paid by the admin; a non-admin cannot at all', async () => {
    const m = await newMerchant(t.app);
    expect(errorOf(await as(m, 'POST', '/admin/sandbox/payments/op_x/pay')).code).toBe('forbidden_role');
    expect((await adminPay('op_01NOTHING0000000000000000')).statusCode).toBe(404);
    const test = await t.app.inject({
      method: 'POST',
      url: '/v2/qr',
      headers: { ...key(m.testKey), ...idem() },
      payload: { amount: 100 },
    });
    expect((await adminPay(test.json().operation_id)).statusCode).toBe(400);
  });
});

describe('the plan applies', () => {
  it('a lapsed trial refuses live payments (403 plan_inactive); a bought plan lets them through at once', async () => {
    const m = await newMerchant(t.app);
    await t.runtime.deps.db.query(`UPDATE clients SET trial_ends_at = now() - interval '1 day' WHERE email = $1`, [
      m.email,
    ]);
    const qr = () =>
      t.app.inject({
        method: 'POST',
        url: '/v2/qr',
        headers: { ...key(m.liveKey), ...idem() },
        payload: { amount: 100 },
      });
    expect(errorOf(await qr()).code).toBe('plan_inactive');
    await adminPay((await pay(m, 'starter')).json().operation_id);
    // Past the plan check (read at each creation): now only the missing provider account stops it.
    expect(errorOf(await qr()).code).toBe('provider_not_connected');
  });
});

describe('outside v1', () => {
  it('works after the v1 sunset, while v1 itself answers 410', async () => {
    const late = await buildTestApp({ v1SunsetAt: new Date(Date.now() - 1000) });
    try {
      const m = await newMerchant(late.app);
      const q = await late.app.inject({
        method: 'POST',
        url: '/v1/subscription/pay',
        headers: { ...bearer(m), ...idem() },
        payload: { plan: 'starter' },
      });
      expect(q.statusCode, q.body).toBe(201);
      expect((await late.app.inject({ method: 'GET', url: '/v1/subscription/plans' })).statusCode).toBe(200);
      // Their wrong methods and unknown paths answer as the rest of the API, not v1's 410.
      const wrong = await late.app.inject({ method: 'POST', url: '/v1/subscription/plans' });
      expect(wrong.statusCode).toBe(405);
      expect(errorOf(wrong).code).toBe('method_not_allowed');
      expect((await late.app.inject({ method: 'GET', url: '/v1/subscription/nothing' })).statusCode).toBe(404);
      const v1 = await late.app.inject({
        method: 'POST',
        url: '/v1/qr/create',
        headers: { ...key(m.testKey), ...idem() },
        payload: { amount: 100 },
      });
      expect(v1.statusCode).toBe(410);
    } finally {
      await late.close();
    }
  });
});
