// The harness's factories (test/helpers/actors.ts) make what they say through the public API: each actor
// can do what its role may, and each thing is visible where its owner looks for it.
import { describe, expect, it } from 'vitest';
import { withAdmin, type TestApp } from '../helpers/app.ts';
import {
  newApiKey,
  newMember,
  newPaidPayment,
  newPartner,
  newPartnerClient,
  newPartnerKey,
  newRefund,
  newWebhook,
  newWithdrawal,
  newOwner,
  type Merchant,
} from '../helpers/actors.ts';
import { api, apiError } from '../helpers/api.ts';

let t: TestApp;
let admin: Merchant;
withAdmin((w) => ({ t, admin } = w));

describe('actors', () => {
  it('an owner and a member of each role, each signed in with its role', async () => {
    const owner = await newOwner(t.app);
    expect((await api(t.app, owner).get('/me')).body.role).toBe('owner');
    for (const role of ['admin', 'accountant', 'support', 'viewer'] as const) {
      const m = await newMember(t.app, owner, role);
      const me = await api(t.app, m).get('/me');
      expect(me.status).toBe(200);
      expect(me.body.role).toBe(role);
    }
    const viewer = await newMember(t.app, owner, 'viewer');
    const refused = await api(t.app, viewer).post('/me/team/invite', {
      body: { email: 'x@example.kz', role: 'viewer' },
    });
    expect(refused.status).toBe(403);
    expect(apiError(refused).code).toBe('not_owner');
  });

  it('a partner, a member of its team, a client of it and its integration key', async () => {
    const p = await newPartner(t.app, admin);
    expect((await api(t.app, p).get('/partner/me')).body.status).toBe('active');
    const member = await newMember(t.app, p, 'viewer');
    expect((await api(t.app, member).get('/partner/me')).status).toBe(200);
    const client = await newPartnerClient(t.app, p);
    const clients = (await api(t.app, p).get('/partner/clients')).body.data;
    expect(clients.map((c) => c.id)).toContain(client.clientId);
    const pk = await newPartnerKey(t.app, p);
    expect((await api(t.app, { partnerKey: pk }).get('/partner/v1/ping')).status).toBe(200);
  });

  it("a merchant's new API key replaces the old one of its mode", async () => {
    const m = await newOwner(t.app);
    const k = await newApiKey(t.app, m, 'test');
    expect((await api(t.app, { apiKey: k }).get('/v2/payments')).status).toBe(200);
    expect((await api(t.app, { apiKey: m.testKey }).get('/v2/payments')).status).toBe(401);
  });

  it('a paid payment, a refund of it and a webhook', async () => {
    const m = await newOwner(t.app);
    const paid = await newPaidPayment(t.app, m.testKey, 7000);
    const c = api(t.app, { apiKey: m.testKey });
    expect((await c.get(`/v2/qr/${paid.operation_id}`)).body.status).toBe('paid');
    const refund = await newRefund(t.app, m.testKey, { operationId: paid.operation_id, amount: 500 });
    expect(refund.operation_id).toBe(paid.operation_id);
    const hook = await newWebhook(t.app, m);
    expect((await api(t.app, m).get(`/me/webhooks/${hook.id}?mode=test`)).body.id).toBe(hook.id);
  });

  it('a withdrawal awaiting its code', async () => {
    const w = await newWithdrawal(t, admin);
    const list = (await api(t.app, w.partner).get('/partner/withdrawals')).body.data;
    expect(list.find((x) => x.id === w.id)).toMatchObject({ amount: 30000, status: 'confirmation_required' });
  });
});
