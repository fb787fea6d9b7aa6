// Commissions and the ledger-backed balance (decisions 21) through HTTP: a referred client buys a plan ->
// a pending commission -> the hold passes -> available; refunds take it back, pending or available; the
// balance equals the sum of the ledger after every step.
import { describe, expect, it } from 'vitest';
import { withAdmin, type TestApp } from '../helpers/app.ts';
import { callAs, idem, newMerchant, uniqueEmail, type Merchant } from '../helpers/factories.ts';
import { releaseDueCommissions } from '../../src/domain/partners/commissions.ts';
import { ledgerMismatch } from '../../src/domain/partners/ledger.ts';
import { refundPayment } from '../../src/domain/payments/refund.ts';
import { platformClientId } from '../../src/domain/subscriptions/subscriptions.ts';

let t: TestApp;
let admin: Merchant;
withAdmin((w) => ({ t, admin } = w));
const as = callAs(() => t.app);

async function partnerWithClient(): Promise<{ p: Merchant & { partnerId: number }; client: { access: string } }> {
  const m = await newMerchant(t.app);
  const reg = await as(m, 'POST', '/partner/auth/register', { company_name: 'Money Co' });
  await as(admin, 'POST', `/admin/partners/${reg.json().id}/approve`);
  const link = (await as(m, 'POST', '/partner/links')).json();
  const c = await t.app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: { name: 'Client', email: uniqueEmail('cc'), password: 'a long password 1', referral_code: link.code },
  });
  return { p: { ...m, partnerId: reg.json().id }, client: { access: c.json().access_token } };
}

async function buy(client: { access: string }, plan: string): Promise<string> {
  const q = await t.app.inject({
    method: 'POST',
    url: '/v1/subscription/pay',
    headers: { authorization: `Bearer ${client.access}`, ...idem() },
    payload: { plan },
  });
  expect(q.statusCode, q.body).toBe(201);
  await as(admin, 'POST', `/admin/sandbox/payments/${q.json().operation_id}/pay`);
  return q.json().operation_id;
}

const invariant = async (partnerId: number) => expect(await ledgerMismatch(t.runtime.deps.db, partnerId)).toBeNull();

describe('commissions', () => {
  it(
    'a paid plan QR of a referred client: 20% pending, then available ' +
      'after the hold; the ledger explains every tenge',
    async () => {
      const { p, client } = await partnerWithClient();
      const opId = await buy(client, 'starter');
      const list = (await as(p, 'GET', '/partner/commissions')).json().data;
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({
        operation_id: opId,
        plan: 'starter',
        base_amount: 10000,
        rate_bps: 2000,
        amount: 2000,
        status: 'pending',
        client_name: 'Client',
      });
      expect(new Date(list[0].available_at).getTime() - Date.now()).toBeGreaterThan(13.9 * 86400_000);
      expect((await as(p, 'GET', '/partner/balance')).json()).toMatchObject({ available_kzt: 0, pending_kzt: 2000 });
      await invariant(p.partnerId);

      await t.runtime.deps.db.query(
        `UPDATE commissions SET available_at = now() - interval '1 second' WHERE operation_id = $1`,
        [opId],
      );
      expect(await releaseDueCommissions(t.runtime.deps)).toBeGreaterThanOrEqual(1);
      expect((await as(p, 'GET', '/partner/balance')).json()).toMatchObject({ available_kzt: 2000, pending_kzt: 0 });
      expect((await as(p, 'GET', '/partner/commissions?status=available')).json().data).toHaveLength(1);
      const tx = (await as(p, 'GET', '/partner/balance/transactions')).json().data;
      expect(
        tx.map((e: { type: string; amount: number; available_after: number; pending_after: number }) => [
          e.type,
          e.amount,
          e.available_after,
          e.pending_after,
        ]),
      ).toEqual([
        ['release', 2000, 2000, 0],
        ['commission', 2000, 0, 2000],
      ]);
      await invariant(p.partnerId);
      const clientId = (await as(p, 'GET', '/partner/clients')).json().data[0].id;
      expect((await as(p, 'GET', `/partner/clients/${clientId}`)).json().commissions).toHaveLength(1);
    },
  );

  it(
    'refunds take the commission back: from pending (reversed when whole), ' + 'from available (an adjustment)',
    async () => {
      const { p, client } = await partnerWithClient();
      const platform = await platformClientId(t.runtime.deps.db);
      const refund = (opId: string, amount: number) =>
        refundPayment(t.runtime.deps, { clientId: platform, mode: 'live' }, { operation_id: opId, amount });
      const first = await buy(client, 'starter');
      await refund(first, 5000); // half: 1000 of the 2000 comes back from pending
      expect((await as(p, 'GET', '/partner/balance')).json()).toMatchObject({ available_kzt: 0, pending_kzt: 1000 });
      await refund(first, 5000); // the rest: reversed
      expect((await as(p, 'GET', '/partner/commissions?status=reversed')).json().data).toHaveLength(1);
      expect((await as(p, 'GET', '/partner/balance')).json()).toMatchObject({ available_kzt: 0, pending_kzt: 0 });
      await invariant(p.partnerId);

      const second = await buy(client, 'professional');
      await t.runtime.deps.db.query(`UPDATE commissions SET available_at = now() WHERE operation_id = $1`, [second]);
      await releaseDueCommissions(t.runtime.deps);
      expect((await as(p, 'GET', '/partner/balance')).json()).toMatchObject({ available_kzt: 6000, pending_kzt: 0 });
      await refund(second, 30000);
      expect((await as(p, 'GET', '/partner/balance')).json()).toMatchObject({ available_kzt: 0, pending_kzt: 0 });
      const last = (await as(p, 'GET', '/partner/balance/transactions?limit=1')).json().data[0];
      expect(last).toMatchObject({ type: 'adjustment', amount: -6000 });
      await invariant(p.partnerId);
    },
  );

  it('a client without a partner earns nobody anything; another partner sees none of it', async () => {
    const loner = await newMerchant(t.app);
    await buy(loner, 'starter');
    const { p: other } = await partnerWithClient();
    expect((await as(other, 'GET', '/partner/commissions')).json().data).toHaveLength(0);
    expect((await as(other, 'GET', '/partner/balance')).json()).toMatchObject({ available_kzt: 0, pending_kzt: 0 });
    await invariant(other.partnerId);
  });
});
