// What the dashboard's first screens read (issue 41) through HTTP: GET /me's `permissions` (the policy table
// for the caller: each role, and a partner acting in the account), an invitation's details before
// registering with it (the shop and role, or the partner; every token that would not register is 400
// invite_invalid), and the integrations board naming the client's partner.
import { describe, expect, it } from 'vitest';
import { api } from '../helpers/api.ts';
import { withAdmin, type TestApp } from '../helpers/app.ts';
import { newMember, newPartner, newPartnerClient, type Merchant } from '../helpers/actors.ts';
import { errorOf, impersonationToken, newMerchant, uniqueEmail } from '../helpers/factories.ts';
import { ACTIONS, can, type Action } from '../../src/domain/access/policy.ts';
import { ROLES } from '../../src/domain/access/principal.ts';

let t: TestApp;
let admin: Merchant;
withAdmin((w) => ({ t, admin } = w));

describe("GET /me's permissions", () => {
  it("lists, for each role, exactly the table's actions that role may do", async () => {
    const owner = await newMerchant(t.app);
    for (const role of ROLES) {
      const who = role === 'owner' ? owner : await newMember(t.app, owner, role);
      const me = await api(t.app, who).get('/me');
      expect(me.status, me.raw.body).toBe(200);
      const expected = (Object.keys(ACTIONS) as Action[]).filter((a) =>
        can({ kind: 'user', clientId: 1, mode: 'live', plan: 'trial', userId: 1, role }, a),
      );
      expect(me.body.permissions, role).toEqual(expected);
    }
  });

  it('an accountant may not manage API keys, the owner may; no team role gets the admin or partner API', async () => {
    const owner = await newMerchant(t.app);
    const accountant = await newMember(t.app, owner, 'accountant');
    const mine = (await api(t.app, owner).get('/me')).body.permissions;
    const theirs = (await api(t.app, accountant).get('/me')).body.permissions;
    expect(mine).toContain('api_keys.manage');
    expect(theirs).not.toContain('api_keys.manage');
    expect(theirs).toEqual(expect.arrayContaining(['payments.refund', 'logs.read', 'payments.read']));
    expect(theirs).not.toContain('links.write');
    for (const list of [mine, theirs])
      expect(list.filter((a) => /^(admin\.|partner_api\.|metrics\.)/.test(a))).toEqual([]);
  });

  it('a partner acting in the account gets the admin role less what is blocked under impersonation', async () => {
    const m = await newMerchant(t.app);
    const { access } = await impersonationToken(t.runtime.deps, m);
    const me = await api(t.app, { access }).get('/me');
    expect(me.status, me.raw.body).toBe(200);
    expect(me.body.permissions).toContain('links.write');
    for (const blocked of ['messenger.link', 'webhooks.rotate_secret', 'partner.read', 'account.password'])
      expect(me.body.permissions).not.toContain(blocked);
  });
});

describe('POST /auth/invite-details', () => {
  it('names the shop and the role of a team invitation, and the invited address; it is spent by joining', async () => {
    const owner = await newMerchant(t.app, { name: 'Кофейня «Алма»' });
    const email = uniqueEmail('acc');
    const inv = await api(t.app, owner).post('/me/team/invite', { body: { email, role: 'accountant' } });
    expect(inv.status).toBe(201);
    const res = await api(t.app).post('/auth/invite-details', { body: { invite_token: inv.body.invite_token } });
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body).toMatchObject({
      kind: 'team',
      shop_name: 'Кофейня «Алма»',
      role: 'accountant',
      partner_name: null,
      email,
    });
    expect(new Date(res.body.expires_at).getTime()).toBeGreaterThan(Date.now() + 6 * 86400_000);

    const joined = await api(t.app).post('/auth/register', {
      body: { name: 'Aigerim', password: 'a long password 1', invite_token: inv.body.invite_token },
    });
    expect(joined.status).toBe(201);
    const spent = await api(t.app).post('/auth/invite-details', { body: { invite_token: inv.body.invite_token } });
    expect(spent.status).toBe(400);
    expect(errorOf(spent)).toMatchObject({ code: 'invite_invalid', param: 'invite_token' });
  });

  it("names the partner of a partner's invitation; a revoked team invitation no longer answers", async () => {
    const partner = await newPartner(t.app, admin, { companyName: 'Digital Agency' });
    const email = uniqueEmail('shop');
    const inv = await api(t.app, partner).post('/partner/clients/invite', { body: { email } });
    expect(inv.status).toBe(201);
    const res = await api(t.app).post('/auth/invite-details', { body: { invite_token: inv.body.invite_token } });
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body).toMatchObject({
      kind: 'partner',
      partner_name: 'Digital Agency',
      shop_name: null,
      role: null,
      email,
    });

    const owner = await newMerchant(t.app);
    const team = await api(t.app, owner).post('/me/team/invite', { body: { email: uniqueEmail(), role: 'viewer' } });
    expect((await api(t.app, owner).delete(`/me/team/${team.body.id}`)).status).toBe(204);
    const revoked = await api(t.app).post('/auth/invite-details', { body: { invite_token: team.body.invite_token } });
    expect(errorOf(revoked).code).toBe('invite_invalid');
  });

  it('an expired invitation, an unknown token and a bad body are 4xx in the envelope', async () => {
    const owner = await newMerchant(t.app);
    const inv = await api(t.app, owner).post('/me/team/invite', { body: { email: uniqueEmail(), role: 'viewer' } });
    // Time moves below the API: the invitation's seven days have passed.
    await t.runtime.deps.db.query(`UPDATE users SET invite_expires_at = now() - interval '1 minute' WHERE id = $1`, [
      inv.body.id,
    ]);
    const expired = await api(t.app).post('/auth/invite-details', { body: { invite_token: inv.body.invite_token } });
    expect(errorOf(expired).code).toBe('invite_invalid');
    for (const token of ['inv_nothing_like_this', 'pinv_nothing_like_this']) {
      const res = await api(t.app).post('/auth/invite-details', { body: { invite_token: token } });
      expect(res.status).toBe(400);
      expect(errorOf(res).code).toBe('invite_invalid');
    }
    const empty = await api(t.app).post('/auth/invite-details', { payload: { invite_token: '' } });
    expect(errorOf(empty)).toMatchObject({ code: 'invalid_parameter' });
    const missing = await api(t.app).post('/auth/invite-details', { payload: {} });
    expect(missing.status).toBe(400);
  });
});

describe("the integrations board's partner", () => {
  it('is off without a partner, and names the partner of an invited client', async () => {
    const alone = await newMerchant(t.app);
    const board = async (who: { access: string }) =>
      (await api(t.app, who).get('/me/integrations')).body.data.find((i) => i.id === 'partner');
    expect(await board(alone)).toMatchObject({ status: 'off', details: { partner_name: null } });
    const partner = await newPartner(t.app, admin, { companyName: 'Agency One' });
    const client = await newPartnerClient(t.app, partner);
    expect(await board(client)).toMatchObject({
      status: 'connected',
      details: { partner_name: 'Agency One', impersonation_allowed: false },
    });
  });
});
