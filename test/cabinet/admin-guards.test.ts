// The admin's side of the first day (issue 41) through HTTP: disabling is refused for the admin's own
// client and the platform client (409 in the envelope, nothing changed), GET /admin/overview counts what
// waits for the operator from real rows, and a partner is told in its cabinet when it is approved.
import { describe, expect, it } from 'vitest';
import { api } from '../helpers/api.ts';
import { withAdmin, type TestApp } from '../helpers/app.ts';
import { newPartner, newWithdrawal, type Merchant } from '../helpers/actors.ts';
import { errorOf, idsOf, newMerchant } from '../helpers/factories.ts';
import { platformClientId } from '../../src/domain/accounts/clients-store.ts';

let t: TestApp;
let admin: Merchant;
withAdmin((w) => ({ t, admin } = w));

describe('PATCH /admin/clients/:id {disabled: true}', () => {
  it("refuses the admin's own client with 409 cannot_disable_self and leaves it enabled", async () => {
    const { clientId } = await idsOf(t.runtime.deps.db, admin);
    const res = await api(t.app, admin).patch(`/admin/clients/${clientId}`, { body: { disabled: true } });
    expect(res.status).toBe(409);
    expect(errorOf(res)).toMatchObject({ code: 'cannot_disable_self', type: 'api_error' });
    // Other changes to its own client stay possible; and it is still enabled.
    const plan = await api(t.app, admin).patch(`/admin/clients/${clientId}`, { body: { plan: 'starter' } });
    expect(plan.status, plan.raw.body).toBe(200);
    expect(plan.body).toMatchObject({ disabled: false, plan: 'starter', is_platform: false });
    expect((await api(t.app, admin).get('/me')).status).toBe(200);
  });

  it('refuses the platform client with 409 cannot_disable_platform_client, even to another admin', async () => {
    const platform = await platformClientId(t.runtime.deps.db);
    const res = await api(t.app, admin).patch(`/admin/clients/${platform}`, { body: { disabled: true } });
    expect(res.status).toBe(409);
    expect(errorOf(res).code).toBe('cannot_disable_platform_client');
    // By its e-mail: a store shared with other test files holds many clients whose id or e-mail has the
    // platform's id in it, and a search by the number may not list it on the first page.
    const listed = await api(t.app, admin).get('/admin/clients?q=platform@tolem.invalid');
    expect(listed.body.data.find((c) => c.id === platform)).toMatchObject({ disabled: false, is_platform: true });
    // Enabling (a no-op) is not refused: only disabling would stop the plan payments.
    expect((await api(t.app, admin).patch(`/admin/clients/${platform}`, { body: { disabled: false } })).status).toBe(
      200,
    );
  });

  it("another admin may disable a client whose user is an admin; the admin's own token still works", async () => {
    const other = await newMerchant(t.app);
    await t.runtime.deps.db.query('UPDATE users SET is_admin = true WHERE email = $1', [other.email]);
    const { clientId } = await idsOf(t.runtime.deps.db, other);
    const res = await api(t.app, admin).patch(`/admin/clients/${clientId}`, { body: { disabled: true } });
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body.disabled).toBe(true);
    // The operator's admins work on the admin API whatever the state of their own client (auth.ts).
    expect((await api(t.app, other).get('/admin/overview')).status).toBe(200);
    expect(errorOf(await api(t.app, other).get('/me')).code).toBe('account_disabled');
  });
});

describe('GET /admin/overview', () => {
  it('counts pending partners, withdrawals to pay and open tickets from the rows, and follows them', async () => {
    const before = (await api(t.app, admin).get('/admin/overview')).body;
    expect(before.capped_at).toBe(1000);

    const applicant = await newMerchant(t.app);
    const reg = await api(t.app, applicant).post('/partner/auth/register', { body: { company_name: 'Waiting Co' } });
    const ticket = await api(t.app, applicant).post('/me/tickets', { body: { subject: 'Help', body: 'Please' } });
    expect(ticket.status).toBe(201);
    const w = await newWithdrawal(t, admin);
    const sent = await t.runtime.deps.db.query<{ body_sealed: string }>(
      `SELECT body_sealed FROM outbox_messages WHERE channel = 'messenger' AND recipient = $1 ORDER BY id DESC LIMIT 1`,
      [w.chat],
    );
    const code = /(\d{6})/.exec(t.runtime.deps.secrets.sealer.open(sent.rows[0].body_sealed))![1];
    const confirmed = await api(t.app, w.partner).post(`/partner/withdrawals/${w.id}/confirm`, { body: { code } });
    expect(confirmed.body.status).toBe('processing');
    const after = (await api(t.app, admin).get('/admin/overview')).body;
    expect(after).toMatchObject({
      partners_pending: before.partners_pending + 1,
      withdrawals_processing: before.withdrawals_processing + 1,
      tickets_open: before.tickets_open + 1,
    });

    await api(t.app, admin).post(`/admin/partners/${reg.body.id}/approve`);
    await api(t.app, admin).post(`/admin/withdrawals/${w.id}/mark-paid`, { body: { reference: 'PP-1' } });
    await api(t.app, admin).post(`/admin/tickets/${ticket.body.id}/messages`, { body: { body: 'Done' } });
    expect((await api(t.app, admin).get('/admin/overview')).body).toMatchObject({
      partners_pending: before.partners_pending,
      withdrawals_processing: before.withdrawals_processing,
      tickets_open: before.tickets_open,
    });
  });

  it('is for admins only: a merchant is 403 forbidden_role, no token 401', async () => {
    const m = await newMerchant(t.app);
    const res = await api(t.app, m).get('/admin/overview');
    expect(res.status).toBe(403);
    expect(errorOf(res).code).toBe('forbidden_role');
    expect((await api(t.app).get('/admin/overview')).status).toBe(401);
  });
});

describe('the partner hears of the decision', () => {
  it('approval, and a later suspension, each leave a notification in its cabinet', async () => {
    const p = await newPartner(t.app, admin, { companyName: 'Told Co' });
    const notes = async () => (await api(t.app, p).get('/me/notifications')).body.data;
    expect((await notes()).map((n) => n.type)).toContain('partner.active');
    expect((await notes()).find((n) => n.type === 'partner.active')?.title).toBe('Partner programme: approved');
    expect((await api(t.app, admin).post(`/admin/partners/${p.partnerId}/suspend`)).status).toBe(200);
    expect((await notes()).map((n) => n.type)).toContain('partner.suspended');
    // A move the status does not allow changes nothing and tells nobody.
    const count = (await notes()).length;
    expect((await api(t.app, admin).post(`/admin/partners/${p.partnerId}/reject`)).status).toBe(409);
    expect((await notes()).length).toBe(count);
  });
});
