// Impersonation ends with the authority behind it (decisions 17, 21; issue 38): a partner's session in a
// client's account stops at once, 401 impersonation_session_expired, when the partner team member who
// opened it is revoked, when the partner is suspended or rejected, or when the client turns consent off;
// consent off also unbinds a messenger chat bound while a session was open; and POST /me/messenger-link
// is refused to a partner inside the account. Through HTTP, a fresh partner and client per test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { callAs, errorOf, newAdmin, newMerchant, uniqueEmail, type Merchant } from '../helpers/factories.ts';
import { channels } from '../helpers/fakes.ts';
import { SECRET_HEADER } from '../../src/http/messenger/webhook.ts';
import { migrationFiles, statements } from '../../src/db/migrate.ts';

const SECRET = 'bot-webhook-secret-38';
let t: TestApp;
let admin: Merchant;
beforeAll(async () => {
  t = await buildTestApp({ channels: channels({ messengerWebhookSecret: SECRET }) });
  admin = await newAdmin(t.app, t.runtime.deps.db);
});
afterAll(() => t?.close());
const as = callAs(() => t.app);

interface Who {
  access: string;
}

/** An approved partner, and a client of its (through its referral link) that allows it in. */
async function partnerWithClient(): Promise<{
  partner: Merchant & { partnerId: number };
  client: Who & { email: string };
  clientId: number;
}> {
  const m = await newMerchant(t.app);
  const reg = await as(m, 'POST', '/partner/auth/register', { company_name: 'Agency' });
  expect(reg.statusCode, reg.body).toBe(201);
  expect((await as(admin, 'POST', `/admin/partners/${reg.json().id}/approve`)).statusCode).toBe(200);
  const link = (await as(m, 'POST', '/partner/links')).json();
  const email = uniqueEmail('client');
  const joined = await t.app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: { name: 'Client shop', email, password: 'a long password 1', referral_code: link.code },
  });
  expect(joined.statusCode, joined.body).toBe(201);
  const client = { access: joined.json().access_token, email };
  expect((await as(client, 'PATCH', '/me/allow-partner-impersonation', { allow: true })).statusCode).toBe(200);
  const clientId = (await as(m, 'GET', '/partner/clients')).json().data[0].id;
  return { partner: { ...m, partnerId: reg.json().id }, client, clientId };
}

async function enter(who: Who, clientId: number): Promise<Who> {
  const res = await as(who, 'POST', `/partner/clients/${clientId}/impersonate`);
  expect(res.statusCode, res.body).toBe(201);
  return { access: res.json().access_token };
}

async function expectEnded(inside: Who): Promise<void> {
  const res = await as(inside, 'GET', '/me');
  expect(res.statusCode, res.body).toBe(401);
  expect(errorOf(res).code).toBe('impersonation_session_expired');
}

/** A member of the partner's own team, signed in: it may open sessions (partner.manage) as `admin`. */
async function teamMember(partner: Merchant): Promise<{ member: Who; memberId: number }> {
  const email = uniqueEmail('agent');
  const inv = await as(partner, 'POST', '/me/team/invite', { email, role: 'admin' });
  expect(inv.statusCode, inv.body).toBe(201);
  const joined = await t.app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: { name: 'Agent', password: 'a long password 1', invite_token: inv.json().invite_token },
  });
  expect(joined.statusCode, joined.body).toBe(201);
  return { member: { access: joined.json().access_token }, memberId: inv.json().id };
}

describe('a session ends with the authority behind it', () => {
  it('revoking the partner team member who opened it: its session stops at once; the others go on', async () => {
    const { partner, client, clientId } = await partnerWithClient();
    const { member, memberId } = await teamMember(partner);
    const byMember = await enter(member, clientId);
    const byOwner = await enter(partner, clientId);
    expect((await as(byMember, 'GET', '/me')).statusCode).toBe(200);

    expect((await as(partner, 'DELETE', `/me/team/${memberId}`)).statusCode).toBe(204);
    await expectEnded(byMember);
    expect((await as(byOwner, 'GET', '/me')).statusCode).toBe(200);
    // The client sees the member's session ended, the owner's still open.
    const sessions = (await as(client, 'GET', '/me/partner-impersonation/sessions')).json().data;
    expect(sessions.map((s: { ended_at: string | null }) => s.ended_at === null).sort()).toEqual([false, true]);
  });

  it(
    'a member moved to a role that may not open sessions: its session ' + 'stops, and the role back does not revive it',
    async () => {
      const { partner, clientId } = await partnerWithClient();
      const { member, memberId } = await teamMember(partner);
      const inside = await enter(member, clientId);
      expect((await as(partner, 'PATCH', `/me/team/${memberId}`, { role: 'viewer' })).statusCode).toBe(200);
      await expectEnded(inside);
      expect((await as(partner, 'PATCH', `/me/team/${memberId}`, { role: 'admin' })).statusCode).toBe(200);
      await expectEnded(inside);
    },
  );

  it('suspending the partner stops its sessions at once, and approving it again does not revive them', async () => {
    const { partner, client, clientId } = await partnerWithClient();
    const inside = await enter(partner, clientId);
    expect((await as(inside, 'GET', '/me/payments')).statusCode).toBe(200);

    expect((await as(admin, 'POST', `/admin/partners/${partner.partnerId}/suspend`)).json().status).toBe('suspended');
    await expectEnded(inside);
    expect((await as(admin, 'POST', `/admin/partners/${partner.partnerId}/approve`)).json().status).toBe('active');
    await expectEnded(inside);
    expect((await as(client, 'GET', '/me/partner-impersonation/sessions')).json().data[0].ended_at).not.toBeNull();
    // Active again, it may open a new session.
    expect((await as(await enter(partner, clientId), 'GET', '/me')).statusCode).toBe(200);
  });

  it('a partner that is no longer active, rejected included, cannot go on in a session it opened', async () => {
    // The admin API rejects pending applications only, so a rejected partner with an open session is
    // set up in the table: what is checked is that only an active partner's session goes on.
    const { partner, clientId } = await partnerWithClient();
    const inside = await enter(partner, clientId);
    expect((await as(inside, 'GET', '/me')).statusCode).toBe(200);
    await t.runtime.deps.db.query(`UPDATE partners SET status = 'rejected' WHERE id = $1`, [partner.partnerId]);
    await expectEnded(inside);
  });

  it('the client turning consent off stops the session', async () => {
    const { partner, client, clientId } = await partnerWithClient();
    const inside = await enter(partner, clientId);
    expect((await as(client, 'PATCH', '/me/allow-partner-impersonation', { allow: false })).json()).toMatchObject({
      allow: false,
      ended_sessions: 1,
    });
    await expectEnded(inside);
  });
});

describe('the messenger under impersonation', () => {
  let chatSeq = 38_000;
  const bot = (text: string, chat: number) =>
    t.app.inject({
      method: 'POST',
      url: '/messenger/webhook',
      headers: { [SECRET_HEADER]: SECRET },
      payload: {
        update_id: chat,
        message: { message_id: 1, chat: { id: chat, type: 'private' }, from: { id: chat }, text },
      },
    });
  /** Binds a fresh chat to the signed-in user through the cabinet's link and the bot's /start. */
  async function bind(who: Who): Promise<number> {
    const res = await as(who, 'POST', '/me/messenger-link');
    expect(res.statusCode, res.body).toBe(200);
    const chat = ++chatSeq;
    expect((await bot(`/start ${new URL(res.json().url).searchParams.get('start')}`, chat)).json().result).toBe(
      'bound',
    );
    return chat;
  }
  const linked = async (who: Who) => (await as(who, 'GET', '/me')).json().messenger_linked as boolean;

  it(
    'POST /me/messenger-link is refused to a partner inside the account; ' + "the client's own user gets its link",
    async () => {
      const { partner, client, clientId } = await partnerWithClient();
      const inside = await enter(partner, clientId);
      const refused = await as(inside, 'POST', '/me/messenger-link');
      expect(refused.statusCode, refused.body).toBe(403);
      expect(errorOf(refused).code).toBe('impersonation_blocked_action');
      expect((await as(client, 'POST', '/me/messenger-link')).statusCode).toBe(200);
    },
  );

  it('turning consent off unbinds a chat bound while a partner session was open, not one bound before', async () => {
    const { partner, client, clientId } = await partnerWithClient();
    // A teammate of the client who bound a chat before any session: it stays.
    const teammateEmail = uniqueEmail('mate');
    const inv = (await as(client, 'POST', '/me/team/invite', { email: teammateEmail, role: 'viewer' })).json();
    const mate = {
      access: (
        await t.app.inject({
          method: 'POST',
          url: '/auth/register',
          payload: { name: 'Mate', password: 'a long password 1', invite_token: inv.invite_token },
        })
      ).json().access_token,
    };
    await bind(mate);
    // The owner's chat bound while the partner is in the account (a link issued before the block, or
    // used during the session): whoever holds that chat may be the partner.
    await enter(partner, clientId);
    await bind(client);
    expect(await linked(client)).toBe(true);

    expect((await as(client, 'PATCH', '/me/allow-partner-impersonation', { allow: false })).statusCode).toBe(200);
    expect(await linked(client)).toBe(false);
    expect(await linked(mate)).toBe(true);
    // Bound again after consent is off: it stays (no session was open).
    await bind(client);
    expect((await as(client, 'PATCH', '/me/allow-partner-impersonation', { allow: false })).statusCode).toBe(200);
    expect(await linked(client)).toBe(true);
  });

  it(
    'a chat bound before the upgrade gets the time of the link that bound ' + 'it, not of a link replaced later',
    async () => {
      const { client } = await partnerWithClient();
      await bind(client);
      // Two links after it: the second replaces the first, marking it spent at its own creation time.
      for (let i = 0; i < 2; i++) expect((await as(client, 'POST', '/me/messenger-link')).statusCode).toBe(200);
      const boundAt = async () =>
        (
          await t.runtime.deps.db.query<{ at: Date | null }>(
            'SELECT messenger_bound_at AS at FROM users WHERE email = $1',
            [client.email],
          )
        ).rows[0].at;
      const bound = await boundAt();
      expect(bound).not.toBeNull();
      // The migration's backfill, on this user alone, as if the chat had been bound before the column.
      await t.runtime.deps.db.query('UPDATE users SET messenger_bound_at = NULL WHERE email = $1', [client.email]);
      const migration = migrationFiles().find((f) => f.name.startsWith('0023_'))!;
      const backfill = statements(migration.sql).find((x) => x.startsWith('UPDATE users u SET messenger_bound_at'))!;
      await t.runtime.deps.db.query(`${backfill} AND u.email = $1`, [client.email]);
      expect((await boundAt())?.getTime()).toBe(bound!.getTime());
    },
  );
});
