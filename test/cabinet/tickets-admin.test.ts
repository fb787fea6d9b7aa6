// Tickets (decisions 17) and the admin API (decisions 23) through HTTP: ticket -> admin reply
// (`answered`, notification) -> client message (`open`) -> closed -> 409 ticket_closed; the admin guard
// and its audit; a disabled client's keys and tokens stop at once; the outbox as the operator sees it.
import { describe, expect, it } from 'vitest';
import { withAdmin, type TestApp } from '../helpers/app.ts';
import { callAs, errorOf, idsOf, key, type Merchant, newMerchant } from '../helpers/factories.ts';
import { closeIdleTickets } from '../../src/domain/support/tickets.ts';

let t: TestApp;
let admin: Merchant;
withAdmin((w) => ({ t, admin } = w));

const as = callAs(() => t.app);

async function openTicket(m: Merchant, subject = 'QR does not open') {
  const res = await as(m, 'POST', '/me/tickets', { subject, body: 'It spins forever', category: 'payments' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('a ticket from open to closed', () => {
  it(
    'support answers, the client is notified and writes again, an admin ' + 'closes it, then messages are 409',
    async () => {
      const m = await newMerchant(t.app);
      const ticket = await openTicket(m);
      expect(ticket).toMatchObject({
        status: 'open',
        category: 'payments',
        messages_count: 1,
        created_by: 'Test Shop',
      });

      const reply = await as(admin, 'POST', `/admin/tickets/${ticket.id}/messages`, { body: 'Please update the app' });
      expect(reply.statusCode, reply.body).toBe(201);
      expect(reply.json()).toMatchObject({ author: 'support', body: 'Please update the app' });
      const answered = (await as(m, 'GET', `/me/tickets/${ticket.id}`)).json();
      expect(answered).toMatchObject({ status: 'answered', messages_count: 2 });
      expect(answered.messages.map((x: { author: string }) => x.author)).toEqual(['client', 'support']);
      const notes = (await as(m, 'GET', '/me/notifications')).json().data;
      expect(notes.some((n: { type: string }) => n.type === 'ticket.answered')).toBe(true);

      const again = await as(m, 'POST', `/me/tickets/${ticket.id}/messages`, { body: 'Updated, still spins' });
      expect(again.statusCode).toBe(201);
      expect((await as(m, 'GET', `/me/tickets/${ticket.id}`)).json()).toMatchObject({
        status: 'open',
        messages_count: 3,
      });

      const close = await as(admin, 'PATCH', `/admin/tickets/${ticket.id}`, { status: 'closed' });
      expect(close.json()).toMatchObject({ status: 'closed', client_id: (await idsOf(t.runtime.deps.db, m)).clientId });
      const late = await as(m, 'POST', `/me/tickets/${ticket.id}/messages`, { body: 'one more' });
      expect(late.statusCode).toBe(409);
      expect(errorOf(late).code).toBe('ticket_closed');
      expect(errorOf(await as(admin, 'POST', `/admin/tickets/${ticket.id}/messages`, { body: 'x' })).code).toBe(
        'ticket_closed',
      );
    },
  );

  it('an answered ticket idle for 14 days closes', async () => {
    const m = await newMerchant(t.app);
    const ticket = await openTicket(m);
    await as(admin, 'POST', `/admin/tickets/${ticket.id}/messages`, { body: 'Done?' });
    await t.runtime.deps.db.query(`UPDATE tickets SET answered_at = now() - interval '15 days' WHERE id = $1`, [
      ticket.id,
    ]);
    expect(await closeIdleTickets(t.runtime.deps)).toBeGreaterThanOrEqual(1);
    expect((await as(m, 'GET', `/me/tickets/${ticket.id}`)).json().status).toBe('closed');
  });

  it('lists are cursor pages filtered by status; bodies are bounded; another client sees 404', async () => {
    const m = await newMerchant(t.app);
    for (let i = 0; i < 3; i++) await openTicket(m, `T${i}`);
    const first = (await as(m, 'GET', '/me/tickets?limit=2')).json();
    expect(first.data.map((x: { subject: string }) => x.subject)).toEqual(['T2', 'T1']);
    const second = (await as(m, 'GET', `/me/tickets?limit=2&cursor=${first.next_cursor}`)).json();
    expect(second).toMatchObject({ has_more: false, data: [{ subject: 'T0' }] });
    expect((await as(m, 'GET', `/me/tickets?limit=2&status=closed&cursor=${first.next_cursor}`)).statusCode).toBe(400);
    expect((await as(m, 'POST', '/me/tickets', { subject: 'x', body: 'y'.repeat(5001) })).statusCode).toBe(400);
    expect((await as(m, 'POST', '/me/tickets', { subject: '', body: 'y' })).statusCode).toBe(400);
    const other = await newMerchant(t.app);
    expect((await as(other, 'GET', `/me/tickets/${first.data[0].id}`)).statusCode).toBe(404);
    expect((await as(other, 'POST', `/me/tickets/${first.data[0].id}/messages`, { body: 'x' })).statusCode).toBe(404);
    const adminList = (await as(admin, 'GET', '/admin/tickets?status=open&limit=100')).json();
    expect(adminList.data.every((x: { status: string }) => x.status === 'open')).toBe(true);
  });
});

describe('the admin API', () => {
  it('refuses a user without is_admin (403 forbidden_role) and audits every admin call', async () => {
    const m = await newMerchant(t.app);
    const refused = await as(m, 'GET', '/admin/clients');
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).code).toBe('forbidden_role');
    const search = await as(admin, 'GET', `/admin/clients?q=${encodeURIComponent(m.email)}`);
    expect(search.json().data).toHaveLength(1);
    // The audit log is the deployment's: other test files' admins write to it at the same time on a
    // shared PostgreSQL, so the call is found by its request id among the newest entries.
    const audit: { request_id: string }[] = (await as(admin, 'GET', '/admin/audit?limit=100')).json().data;
    const entry = audit.find((a) => a.request_id === search.headers['x-request-id']);
    expect(entry).toMatchObject({
      method: 'GET',
      path: `/admin/clients?q=${encodeURIComponent(m.email)}`,
      status: 200,
      admin_email: admin.email,
    });
  });

  it('disabling a client stops its keys and tokens at once, and enabling restores them', async () => {
    const m = await newMerchant(t.app);
    const { clientId } = await idsOf(t.runtime.deps.db, m);
    // Warm the key cache first: disabling must not wait for it to expire.
    expect((await t.app.inject({ method: 'GET', url: '/v2/payments', headers: key(m.testKey) })).statusCode).toBe(200);
    const off = await as(admin, 'PATCH', `/admin/clients/${clientId}`, { disabled: true, plan: 'starter' });
    expect(off.json()).toMatchObject({ disabled: true, plan: 'starter' });
    const byKey = await t.app.inject({ method: 'GET', url: '/v2/payments', headers: key(m.testKey) });
    expect(byKey.statusCode).toBe(403);
    expect(errorOf(byKey).code).toBe('account_disabled');
    expect(errorOf(await as(m, 'GET', '/me')).code).toBe('account_disabled');
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: m.email, password: m.password },
    });
    expect(errorOf(login).code).toBe('account_disabled');
    await as(admin, 'PATCH', `/admin/clients/${clientId}`, { disabled: false });
    expect((await t.app.inject({ method: 'GET', url: '/v2/payments', headers: key(m.testKey) })).statusCode).toBe(200);
    expect((await as(m, 'GET', '/me')).json().plan).toBe('starter');
  });

  it('bad input is 4xx: unknown client 404, bad plan 400, a non-numeric id 404', async () => {
    expect((await as(admin, 'PATCH', '/admin/clients/999999999', { disabled: true })).statusCode).toBe(404);
    expect((await as(admin, 'PATCH', '/admin/clients/abc', { disabled: true })).statusCode).toBe(404);
    const plan = await as(admin, 'PATCH', '/admin/clients/1', { plan: 'gold' });
    expect(plan.statusCode).toBe(400);
    expect(errorOf(plan).param).toBe('plan');
    expect((await as(admin, 'GET', '/admin/tickets/999999999')).statusCode).toBe(404);
    expect((await as(admin, 'PATCH', '/admin/tickets/1', { status: 'lost' })).statusCode).toBe(400);
    expect((await as(admin, 'GET', '/admin/outbox?channel=fax')).statusCode).toBe(400);
  });
});
