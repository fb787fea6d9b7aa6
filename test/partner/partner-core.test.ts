// The partner cabinet, part one (decisions 21) through HTTP: the profile and its approval, clients from a
// referral link and from an invite with their derived statuses, isolation between partners, and
// impersonation as the client allows it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import {
  bearer,
  callAs,
  errorOf,
  idsOf,
  newAdmin,
  newMerchant,
  uniqueEmail,
  type Merchant,
} from '../helpers/factories.ts';

let t: TestApp;
let admin: Merchant;
beforeAll(async () => {
  t = await buildTestApp({ dashboardUrl: 'https://pay.example.kz/dashboard' });
  admin = await newAdmin(t.app, t.runtime.deps.db);
});
afterAll(() => t?.close());
const as = callAs(() => t.app);

async function activePartner(name = 'Agency'): Promise<Merchant & { partnerId: number }> {
  const m = await newMerchant(t.app);
  const reg = await as(m, 'POST', '/partner/auth/register', { company_name: name });
  expect(reg.statusCode, reg.body).toBe(201);
  expect((await as(admin, 'POST', `/admin/partners/${reg.json().id}/approve`)).json().status).toBe('active');
  return { ...m, partnerId: reg.json().id };
}

async function register(body: object) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: { name: 'Client shop', password: 'a long password 1', ...body },
  });
  return res;
}

describe('the profile', () => {
  it('pending: 403 partner_not_active on all but the profile; approved: 200; one per client', async () => {
    const m = await newMerchant(t.app);
    const reg = await as(m, 'POST', '/partner/auth/register', { company_name: 'Pending Co', website: 'https://p.kz' });
    expect(reg.json()).toMatchObject({
      company_name: 'Pending Co',
      status: 'pending',
      commission_rate_bps: 2000,
      messenger_linked: false,
      bank_details_set: false,
    });
    for (const url of ['/partner/clients', '/partner/links']) {
      const r = await as(m, 'GET', url);
      expect(r.statusCode, url).toBe(403);
      expect(errorOf(r).code).toBe('partner_not_active');
    }
    expect((await as(m, 'GET', '/partner/me')).json().status).toBe('pending');
    expect(errorOf(await as(m, 'POST', '/partner/auth/register', { company_name: 'Again' })).code).toBe(
      'partner_exists',
    );
    const pending = (await as(admin, 'GET', '/admin/partners?status=pending&limit=100')).json().data;
    expect(pending.some((p: { id: number }) => p.id === reg.json().id)).toBe(true);
    await as(admin, 'POST', `/admin/partners/${reg.json().id}/approve`);
    expect((await as(m, 'GET', '/partner/clients')).statusCode).toBe(200);
    expect(
      (await as(admin, 'PATCH', `/admin/partners/${reg.json().id}`, { commission_rate_bps: 2500 })).json()
        .commission_rate_bps,
    ).toBe(2500);
    expect((await as(admin, 'POST', `/admin/partners/${reg.json().id}/suspend`)).json().status).toBe('suspended');
    expect(errorOf(await as(m, 'GET', '/partner/clients')).code).toBe('partner_not_active');
    expect(errorOf(await as(admin, 'POST', `/admin/partners/${reg.json().id}/reject`)).code).toBe('partner_state');
    expect((await as(m, 'GET', '/partner/me')).statusCode).toBe(200);
    const none = await newMerchant(t.app);
    expect((await as(none, 'GET', '/partner/me')).statusCode).toBe(404);
  });

  it('PARTNER_AUTO_APPROVE makes it active at once', async () => {
    const auto = await buildTestApp({ partnerAutoApprove: true });
    try {
      const m = await newMerchant(auto.app);
      const reg = await auto.app.inject({
        method: 'POST',
        url: '/partner/auth/register',
        headers: bearer(m),
        payload: { company_name: 'Auto' },
      });
      expect(reg.json().status).toBe('active');
    } finally {
      await auto.close();
    }
  });
});

describe('clients', () => {
  it(
    'a click on /r/{code}, a registration with the code: a pending referral ' +
      'client; onboarding: active; a lapsed plan: restricted',
    async () => {
      const p = await activePartner();
      const link = (await as(p, 'POST', '/partner/links', { name: 'Instagram' })).json();
      expect(link.url).toMatch(/\/r\/[A-Za-z0-9_-]{10}$/);
      const click = await t.app.inject({ method: 'GET', url: `/r/${link.code}` });
      expect(click.statusCode).toBe(302);
      expect(click.headers.location).toBe(`https://pay.example.kz/dashboard/register?referral_code=${link.code}`);
      const email = uniqueEmail('ref');
      const reg = await register({ email, referral_code: link.code });
      expect(reg.statusCode, reg.body).toBe(201);
      expect((await as(p, 'GET', `/partner/links/${link.id}`)).json()).toMatchObject({ clicks: 1, registrations: 1 });

      const list = (await as(p, 'GET', '/partner/clients')).json().data;
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({
        email,
        origin: 'referral',
        status: 'pending',
        status_reason: null,
        provider_connected: false,
        onboarding_state: 'idle',
      });
      const client = { access: reg.json().access_token };
      await as(client, 'POST', '/onboarding/provider/start', { phone: '+77015550123' });
      await as(client, 'POST', '/onboarding/provider/verify', { code: '000000' });
      expect((await as(p, 'GET', `/partner/clients/${list[0].id}`)).json()).toMatchObject({
        status: 'active',
        provider_connected: true,
        onboarding_state: 'connected',
        payments: [],
        commissions: [],
      });
      await t.runtime.deps.db.query(`UPDATE clients SET trial_ends_at = now() - interval '1 day' WHERE id = $1`, [
        list[0].id,
      ]);
      expect((await as(p, 'GET', '/partner/clients?status=restricted')).json().data[0]).toMatchObject({
        id: list[0].id,
        status: 'restricted',
        status_reason: 'plan_inactive',
      });
      expect((await as(p, 'GET', '/partner/clients?status=active')).json().data).toHaveLength(0);
    },
  );

  it(
    "an invite: the token registers the invited e-mail as the partner's " +
      'client; a switched-off link and a bad code refuse',
    async () => {
      const p = await activePartner();
      const email = uniqueEmail('inv');
      const inv = await as(p, 'POST', '/partner/clients/invite', { email, name: 'Shop' });
      expect(inv.statusCode, inv.body).toBe(201);
      expect(inv.json()).toMatchObject({ email, status: 'invited' });
      expect(inv.json().invite_url).toContain(inv.json().invite_token);
      expect(errorOf(await register({ email: uniqueEmail('other'), invite_token: inv.json().invite_token })).code).toBe(
        'invite_invalid',
      );
      const reg = await register({ email, invite_token: inv.json().invite_token });
      expect(reg.statusCode, reg.body).toBe(201);
      expect(reg.json().api_keys).toBeDefined();
      expect((await as(p, 'GET', '/partner/clients')).json().data[0]).toMatchObject({ email, origin: 'invite' });
      expect(errorOf(await register({ email: uniqueEmail('again'), invite_token: inv.json().invite_token })).code).toBe(
        'invite_invalid',
      );

      const link = (await as(p, 'POST', '/partner/links')).json();
      await as(p, 'PATCH', `/partner/links/${link.id}`, { is_active: false });
      expect((await t.app.inject({ method: 'GET', url: `/r/${link.code}` })).statusCode).toBe(404);
      expect(errorOf(await register({ email: uniqueEmail('off'), referral_code: link.code })).param).toBe(
        'referral_code',
      );
      expect((await as(p, 'DELETE', `/partner/links/${link.id}`)).statusCode).toBe(204);
      expect((await as(p, 'GET', `/partner/links/${link.id}`)).statusCode).toBe(404);
    },
  );

  it("partner B never sees partner A's clients or links", async () => {
    const a = await activePartner('A');
    const b = await activePartner('B');
    const link = (await as(a, 'POST', '/partner/links')).json();
    const reg = await register({ email: uniqueEmail('a-client'), referral_code: link.code });
    const { clientId } = await idsOf(t.runtime.deps.db, {
      email: (await as({ access: reg.json().access_token }, 'GET', '/me')).json().email,
    } as Merchant);
    expect((await as(b, 'GET', '/partner/clients')).json().data).toHaveLength(0);
    expect(errorOf(await as(b, 'GET', `/partner/clients/${clientId}`)).code).toBe('client_not_found');
    expect((await as(b, 'GET', `/partner/links/${link.id}`)).statusCode).toBe(404);
    expect((await as(b, 'PATCH', `/partner/links/${link.id}`, { name: 'x' })).statusCode).toBe(404);
    expect((await as(b, 'POST', `/partner/clients/${clientId}/impersonate`)).statusCode).toBe(404);
    expect((await as(b, 'GET', '/partner/links')).json().data).toHaveLength(0);
  });
});

describe('impersonation', () => {
  it(
    "refused until the client allows it; the token reads the client's " +
      'payments; blocked actions 403; turning it off: 401; the client sees ' +
      'the session',
    async () => {
      const p = await activePartner();
      const link = (await as(p, 'POST', '/partner/links')).json();
      const reg = await register({ email: uniqueEmail('imp'), referral_code: link.code });
      const client = { access: reg.json().access_token };
      const id = (await as(p, 'GET', '/partner/clients')).json().data[0].id;
      const refused = await as(p, 'POST', `/partner/clients/${id}/impersonate`);
      expect(refused.statusCode).toBe(403);
      expect(errorOf(refused).code).toBe('impersonation_blocked_action');

      await as(client, 'PATCH', '/me/allow-partner-impersonation', { allow: true });
      const entered = await as(p, 'POST', `/partner/clients/${id}/impersonate`);
      expect(entered.statusCode, entered.body).toBe(201);
      expect(entered.json()).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
      expect(entered.json()).not.toHaveProperty('refresh_token');
      const inside = { access: entered.json().access_token };
      expect((await as(inside, 'GET', '/me/payments?mode=test')).statusCode).toBe(200);
      expect(errorOf(await as(inside, 'POST', '/me/api-key/regenerate')).code).toBe('impersonation_blocked_action');
      expect(errorOf(await as(inside, 'GET', '/partner/clients')).code).toBe('impersonation_blocked_action');

      const sessions = (await as(client, 'GET', '/me/partner-impersonation/sessions')).json().data;
      expect(sessions[0]).toMatchObject({
        partner_id: p.partnerId,
        partner_name: 'Agency',
        actor_email: p.email,
        requests: 3,
        ended_at: null,
      });
      await as(client, 'PATCH', '/me/allow-partner-impersonation', { allow: false });
      expect(errorOf(await as(inside, 'GET', '/me')).code).toBe('impersonation_session_expired');
    },
  );
});

describe('integration keys', () => {
  it("one per mode, shown once, stored as a hash; a new one revokes the old; the owner's alone", async () => {
    const p = await activePartner();
    const live = await as(p, 'POST', '/partner/integration/api-keys');
    expect(live.statusCode, live.body).toBe(201);
    expect(live.json()).toMatchObject({ mode: 'live' });
    expect(live.json().api_key).toMatch(/^pk_live_[0-9A-Za-z]{40}$/);
    expect(live.json().prefix).toBe(live.json().api_key.slice(0, 12));
    const test = (await as(p, 'POST', '/partner/integration/api-keys', { mode: 'test' })).json();
    expect(test.api_key).toMatch(/^pk_test_/);
    const again = (await as(p, 'POST', '/partner/integration/api-keys', { mode: 'live' })).json();
    const rows = (
      await t.runtime.deps.db.query<{ mode: string; revoked: boolean; key_hash: string }>(
        'SELECT mode, revoked_at IS NOT NULL AS revoked, key_hash FROM partner_api_keys ' +
          'WHERE partner_id = $1 ORDER BY id',
        [p.partnerId],
      )
    ).rows;
    expect(rows.map((r) => [r.mode, r.revoked])).toEqual([
      ['live', true],
      ['test', false],
      ['live', false],
    ]);
    expect(JSON.stringify(rows)).not.toContain(again.api_key);
    // The list shows the keys in force, never a key.
    const listed = await as(p, 'GET', '/partner/integration/api-keys');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toEqual([
      { mode: 'live', prefix: again.prefix, created_at: new Date(again.created_at).toISOString() },
      { mode: 'test', prefix: test.prefix, created_at: new Date(test.created_at).toISOString() },
    ]);
    expect(listed.body).not.toContain(again.api_key);
    expect((await as(p, 'POST', '/partner/integration/api-keys', { mode: 'sandbox' })).statusCode).toBe(400);
  });
});
