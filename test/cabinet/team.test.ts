// The team (decisions 16, 17) through HTTP, with invites e-mailed to a real SMTP receiver: invite ->
// e-mail -> register with the token -> the member works with its role -> revoked -> its next call 401.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { callAs, errorOf, type Merchant, newMerchant, uniqueEmail } from '../helpers/factories.ts';
import { channels, smtpReceiver } from '../helpers/fakes.ts';
import { sendDueMessages } from '../../src/domain/channels/outbox.ts';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof smtpReceiver>>;
beforeAll(async () => {
  smtp = await smtpReceiver();
  t = await buildTestApp({
    channels: channels({ smtpUrl: smtp.url, mailFrom: 'Tolem <no-reply@tolem.test>' }),
    dashboardUrl: 'https://pay.example.kz/dashboard',
  });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const as = callAs(() => t.app);

async function invite(owner: Merchant, role = 'accountant', email = uniqueEmail('member')) {
  const res = await as(owner, 'POST', '/me/team/invite', { email, role });
  expect(res.statusCode, res.body).toBe(201);
  return { ...res.json(), email };
}

async function join(token: string, name = 'Aigerim') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: { name, password: 'a long password 1', invite_token: token },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { access_token: string; refresh_token: string; api_keys?: unknown };
}

describe('invite, join, work, revoke', () => {
  it('the invite is e-mailed, the invitee joins with its role, and revocation stops it at once', async () => {
    const owner = await newMerchant(t.app);
    const inv = await invite(owner, 'accountant');
    expect(inv).toMatchObject({ email: inv.email, role: 'accountant', status: 'invited' });
    expect(inv.invite_token).toMatch(/^inv_/);
    expect(inv.invite_url).toBe(`https://pay.example.kz/dashboard/register?invite_token=${inv.invite_token}`);

    // The e-mail goes out through the outbox and the SMTP driver, not inside the request.
    expect(smtp.mails.some((m) => m.to.includes(inv.email))).toBe(false);
    // A store shared with other test files may hold more due messages than one batch: send batches until
    // this one has gone out (bounded), as the outbox job's next passes would.
    for (let i = 0; i < 20 && !smtp.mails.some((m) => m.to.includes(inv.email)); i++)
      if (!(await sendDueMessages(t.runtime.deps))) break;
    const mail = smtp.mails.find((m) => m.to.includes(inv.email));
    expect(mail, 'invite e-mail received').toBeDefined();
    expect(mail!.raw.replace(/=\r?\n/g, '')).toContain(inv.invite_token);

    const member = await join(inv.invite_token);
    expect(member.api_keys).toBeUndefined();
    const m = { access: member.access_token };
    const me = await as(m, 'GET', '/me');
    expect(me.json()).toMatchObject({ role: 'accountant', messenger_linked: false });
    // An accountant reads payments and the log, and may not create payments or manage the team.
    expect((await as(m, 'GET', '/me/logs')).statusCode).toBe(200);
    const create = await as(m, 'POST', '/me/payments/create-qr', { amount: 1000 });
    expect(create.statusCode).toBe(403);
    expect(errorOf(create).code).toBe('forbidden_role');
    const manage = await as(m, 'POST', '/me/team/invite', { email: uniqueEmail('x'), role: 'viewer' });
    expect(errorOf(manage).code).toBe('not_owner');

    const team = (await as(owner, 'GET', '/me/team')).json().data;
    const row = team.find((x: { email: string }) => x.email === inv.email);
    expect(row).toMatchObject({ status: 'active', role: 'accountant', name: 'Aigerim' });

    // A role change applies to the member's very next call.
    expect((await as(owner, 'PATCH', `/me/team/${row.id}`, { role: 'viewer' })).json().role).toBe('viewer');
    expect((await as(m, 'GET', '/me/logs')).statusCode).toBe(403);

    expect((await as(owner, 'DELETE', `/me/team/${row.id}`)).statusCode).toBe(204);
    const after = await as(m, 'GET', '/me');
    expect(after.statusCode).toBe(401);
    expect(errorOf(after).code).toBe('token_revoked');
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/auth/refresh',
      payload: { refresh_token: member.refresh_token },
    });
    expect(refresh.statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: inv.email, password: 'a long password 1' },
    });
    expect(login.statusCode).toBe(401);
    // The row stays listed, revoked.
    expect((await as(owner, 'GET', '/me/team')).json().data.find((x: { id: number }) => x.id === row.id).status).toBe(
      'revoked',
    );
  });
});

describe('the rules', () => {
  it('the owner cannot be changed or revoked: 409 owner_immutable', async () => {
    const owner = await newMerchant(t.app);
    const self = (await as(owner, 'GET', '/me/team')).json().data[0];
    expect(self).toMatchObject({ role: 'owner', status: 'active', email: owner.email });
    const patch = await as(owner, 'PATCH', `/me/team/${self.id}`, { role: 'admin' });
    expect(patch.statusCode).toBe(409);
    expect(errorOf(patch).code).toBe('owner_immutable');
    const del = await as(owner, 'DELETE', `/me/team/${self.id}`);
    expect(errorOf(del).code).toBe('owner_immutable');
    expect((await as(owner, 'GET', '/me')).statusCode).toBe(200);
  });

  it('no owner invites, a taken e-mail is 409, a bad e-mail 400', async () => {
    const owner = await newMerchant(t.app);
    const asOwner = await as(owner, 'POST', '/me/team/invite', { email: uniqueEmail('o'), role: 'owner' });
    expect(asOwner.statusCode).toBe(400);
    expect(errorOf(asOwner).param).toBe('role');
    const other = await newMerchant(t.app);
    const taken = await as(owner, 'POST', '/me/team/invite', { email: other.email, role: 'viewer' });
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken).code).toBe('email_taken');
    expect((await as(owner, 'POST', '/me/team/invite', { email: 'not-an-email', role: 'viewer' })).statusCode).toBe(
      400,
    );
  });

  it('a revoked, used, unknown or expired invite token does not register: 400 invite_invalid', async () => {
    const owner = await newMerchant(t.app);
    const revoked = await invite(owner, 'viewer');
    expect((await as(owner, 'DELETE', `/me/team/${revoked.id}`)).statusCode).toBe(204);
    const expired = await invite(owner, 'viewer');
    await t.runtime.deps.db.query(`UPDATE users SET invite_expires_at = now() - interval '1 second' WHERE id = $1`, [
      expired.id,
    ]);
    const used = await invite(owner, 'viewer');
    await join(used.invite_token);
    for (const token of [revoked.invite_token, expired.invite_token, used.invite_token, 'inv_nothing']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/register',
        payload: { name: 'X', password: 'a long password 1', invite_token: token },
      });
      expect(res.statusCode, token).toBe(400);
      expect(errorOf(res)).toMatchObject({ code: 'invite_invalid', param: 'invite_token' });
    }
  });

  it('at most 50 members: the 51st invite is 409, and two invites at once cannot pass the limit together', async () => {
    const owner = await newMerchant(t.app);
    const { clientId } = (
      await t.runtime.deps.db.query<{ clientId: number }>(
        'SELECT client_id AS "clientId" FROM users WHERE email = $1',
        [owner.email],
      )
    ).rows[0];
    // 48 invited members straight into the table (the owner is the 49th member).
    await t.runtime.deps.db.query(
      `INSERT INTO users (client_id, email, name, role, status) SELECT ` +
        `$1::bigint, 'bulk-' || $1::text || '-' || g || '@example.kz', 'b', ` +
        `'viewer', 'invited' FROM generate_series(1, 48) g`,
      [clientId],
    );
    const both = await Promise.all(
      [1, 2].map(() => as(owner, 'POST', '/me/team/invite', { email: uniqueEmail('race'), role: 'viewer' })),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(errorOf(both.find((r) => r.statusCode === 409)!).code).toBe('team_limit_reached');
  });

  it("another client's member is 404, and the sweep's roles: a viewer may not invite", async () => {
    const a = await newMerchant(t.app);
    const b = await newMerchant(t.app);
    const bOwner = (await as(b, 'GET', '/me/team')).json().data[0];
    expect((await as(a, 'PATCH', `/me/team/${bOwner.id}`, { role: 'viewer' })).statusCode).toBe(404);
    expect((await as(a, 'DELETE', `/me/team/${bOwner.id}`)).statusCode).toBe(404);
    expect((await as(a, 'DELETE', '/me/team/abc')).statusCode).toBe(404);
    const viewer = await join((await invite(a, 'viewer')).invite_token);
    expect(
      errorOf(
        await as({ access: viewer.access_token }, 'POST', '/me/team/invite', {
          email: uniqueEmail('v'),
          role: 'viewer',
        }),
      ).code,
    ).toBe('not_owner');
  });
});
