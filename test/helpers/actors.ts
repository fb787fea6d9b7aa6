// Actors and the things they own, each made fresh per call through the public HTTP API, so a factory runs
// the real path: register, invite and join, partner registration and approval, payments paid through the
// test endpoint, refunds, webhooks, withdrawals. Only what no API reaches (is_admin, a messenger chat, the
// commission hold running out) is written below the API, each with its reason.
import type { FastifyInstance } from 'fastify';
import { api, type ApiResponse } from './api.ts';
import type { TestApp } from './app.ts';
import { idem, newAdmin, newMerchant, uniqueEmail, type Merchant } from './factories.ts';
import type { Role } from '../../src/domain/access/principal.ts';

export { newAdmin, newMerchant, type Merchant };
/** A merchant's owner: the user who registered the client (its keys, its tokens). */
export const newOwner = newMerchant;

/** A signed-in member of a team who joined by invitation. */
export interface Member {
  email: string;
  password: string;
  access: string;
  refresh: string;
  role: Role;
  /** the member's id in the team (PATCH/DELETE /me/team/:member_id) */
  memberId: number;
}

export interface Partner extends Merchant {
  /** the partner's id (the admin API's /admin/partners/:id) */
  partnerId: number;
}

const ok = <T>(res: ApiResponse<T>, status: number, what: string): T => {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${res.raw.body}`);
  return res.body;
};

/**
 * A member of `owner`'s team with `role` (the owner invites, the invitee registers with the token). The
 * owner itself is `role: 'owner'`'s only holder: ask for a member of another role.
 */
export async function newMember(
  app: FastifyInstance,
  owner: { access: string },
  role: Exclude<Role, 'owner'>,
  opts: { email?: string; name?: string } = {},
): Promise<Member> {
  const email = opts.email ?? uniqueEmail(role);
  const invited = ok(await api(app, owner).post('/me/team/invite', { body: { email, role } }), 201, 'invite');
  const password = 'a long password 1';
  const joined = ok(
    await api(app).post('/auth/register', {
      body: { name: opts.name ?? `The ${role}`, password, invite_token: invited.invite_token },
    }),
    201,
    'join',
  );
  return {
    email,
    password,
    access: joined.access_token,
    refresh: joined.refresh_token,
    role,
    memberId: invited.id,
  };
}

/** A merchant registered as a partner (POST /partner/auth/register), approved by `admin` (active). */
export async function newPartner(
  app: FastifyInstance,
  admin: { access: string },
  opts: { companyName?: string; owner?: Merchant } = {},
): Promise<Partner> {
  const m = opts.owner ?? (await newMerchant(app));
  const reg = ok(
    await api(app, m).post('/partner/auth/register', { body: { company_name: opts.companyName ?? 'Partner Co' } }),
    201,
    'partner register',
  );
  ok(await api(app, admin).post(`/admin/partners/${reg.id}/approve`), 200, 'approve partner');
  return { ...m, partnerId: reg.id };
}

/** A member of a partner's team: the partner cabinet's users are its client's team. */
export const newPartnerMember = newMember;

/** A client merchant of `partner`, invited by e-mail and registered with the invitation (origin `invite`). */
export async function newPartnerClient(
  app: FastifyInstance,
  partner: { access: string },
  opts: { name?: string } = {},
): Promise<Merchant & { clientId: number }> {
  const email = uniqueEmail('client');
  const inv = ok(
    await api(app, partner).post('/partner/clients/invite', { body: { email, name: opts.name ?? 'Client Shop' } }),
    201,
    'partner invite',
  );
  const password = 'correct horse battery';
  const b = ok(
    await api(app).post('/auth/register', {
      body: { name: opts.name ?? 'Client Shop', email, password, invite_token: inv.invite_token },
    }),
    201,
    'client register',
  );
  const listed = ok(await api(app, partner).get('/partner/clients?limit=100'), 200, 'partner clients').data;
  const clientId = listed.find((c) => c.email === email)?.id;
  if (!clientId) throw new Error(`the invited client ${email} is not among the partner's clients`);
  return {
    email,
    password,
    access: b.access_token,
    refresh: b.refresh_token,
    liveKey: b.api_keys!.live,
    testKey: b.api_keys!.test,
    clientId,
  };
}

/** A partner's integration key (the partner API's `x-partner-api-key`); issuing one retires that mode's last. */
export async function newPartnerKey(
  app: FastifyInstance,
  partner: { access: string },
  mode: 'live' | 'test' = 'test',
): Promise<string> {
  return ok(await api(app, partner).post('/partner/integration/api-keys', { body: { mode } }), 201, 'partner key')
    .api_key;
}

/**
 * A merchant's new API key of `mode` (POST /me/api-key/regenerate): the previous key of that mode stops
 * working. A fresh merchant already holds a live and a test key (Merchant.liveKey, .testKey).
 */
export async function newApiKey(app: FastifyInstance, m: { access: string }, mode: 'live' | 'test' = 'test') {
  const res = await api(app, m).post('/me/api-key/regenerate', { body: { mode } });
  return ok(res, 200, 'regenerate key').api_key;
}

/** A test-mode QR created through POST /v2/qr and paid through POST /v2/test/payments/:id/pay. */
export async function newPaidPayment(
  app: FastifyInstance,
  testKey: string,
  amount = 5000,
  extra: { comment?: string } = {},
): Promise<{ operation_id: string; amount: number }> {
  const c = api(app, { apiKey: testKey });
  const qr = ok(await c.post('/v2/qr', { body: { amount, ...extra }, headers: idem() }), 201, 'create QR');
  ok(await c.post(`/v2/test/payments/${qr.operation_id}/pay`, { body: {} }), 200, 'pay');
  return { operation_id: qr.operation_id, amount };
}

/** A refund of `amount` of a paid payment (POST /v2/refunds); a fresh paid payment when none is given. */
export async function newRefund(
  app: FastifyInstance,
  testKey: string,
  opts: { operationId?: string; amount?: number } = {},
) {
  const operationId = opts.operationId ?? (await newPaidPayment(app, testKey)).operation_id;
  const res = await api(app, { apiKey: testKey }).post('/v2/refunds', {
    body: { operation_id: operationId, amount: opts.amount ?? 1000 },
    headers: idem(),
  });
  return { ...ok(res, 201, 'refund'), operation_id: operationId };
}

/** A webhook of `m` (POST /me/webhooks), in test mode unless `mode` says live. */
export async function newWebhook(
  app: FastifyInstance,
  m: { access: string },
  opts: { url?: string; events?: string[]; mode?: 'live' | 'test' } = {},
) {
  const res = await api(app, m).post(`/me/webhooks?mode=${opts.mode ?? 'test'}`, {
    body: { url: opts.url ?? 'https://hooks.example.kz/tolem', events: opts.events ?? ['payment.completed'] },
  });
  return ok(res, 201, 'create webhook');
}

/**
 * An active partner whose available balance is 6000 x `plans`: a client of its referral link buys that many
 * professional plans (paid by `admin` through the admin sandbox), and the commissions' hold runs out.
 */
export async function newPartnerWithBalance(
  t: TestApp,
  admin: { access: string },
  plans: number,
  opts: { companyName?: string } = {},
): Promise<Partner & { clientId: number }> {
  const { releaseDueCommissions } = await import('../../src/domain/partners/commissions.ts');
  const p = await newPartner(t.app, admin, { companyName: opts.companyName ?? 'Payout Co' });
  const link = ok(await api(t.app, p).post('/partner/links', { body: {} }), 201, 'referral link');
  const c = ok(
    await api(t.app).post('/auth/register', {
      body: { name: 'Buyer', email: uniqueEmail('buyer'), password: 'a long password 1', referral_code: link.code },
    }),
    201,
    'referred register',
  );
  for (let i = 0; i < plans; i++) {
    const q = await api(t.app, { access: c.access_token }).post('/v1/subscription/pay', {
      body: { plan: 'professional' },
      headers: idem(),
    });
    const opId = ok(q, 201, 'subscription pay').operation_id;
    ok(await api(t.app, admin).post(`/admin/sandbox/payments/${opId}/pay`), 200, 'admin sandbox pay');
  }
  // Moving time: the hold of the commissions would run out days later.
  await t.runtime.deps.db.query(`UPDATE commissions SET available_at = now() WHERE partner_id = $1`, [p.partnerId]);
  await releaseDueCommissions(t.runtime.deps);
  const clientId = ok(await api(t.app, p).get('/partner/clients'), 200, 'partner clients').data[0].id;
  return { ...p, clientId };
}

export const BANK_DETAILS = {
  recipient_name: 'ТОО Агентство',
  bin: '990140001233',
  iban: 'KZ86125KZT5004100100',
  bik: 'KCJBKZKX',
  bank_name: 'Bank',
  kbe: '17',
};

/**
 * A withdrawal of 30,000 awaiting its code (`confirmation_required`): a partner with balance, its bank
 * details and a bound messenger chat asks for it. The code is in the messenger outbox (`chat`).
 */
export async function newWithdrawal(
  t: TestApp,
  admin: { access: string },
): Promise<{ partner: Partner & { clientId: number }; id: number; chat: string }> {
  const partner = await newPartnerWithBalance(t, admin, 6);
  ok(await api(t.app, partner).patch('/partner/settings/bank', { body: BANK_DETAILS }), 200, 'bank details');
  const chat = `chat-${partner.partnerId}`;
  // Binding a chat goes through the messenger platform's webhook, which the default test app does not run.
  await t.runtime.deps.db.query('UPDATE users SET messenger_chat_id = $2 WHERE email = $1', [partner.email, chat]);
  const w = await api(t.app, partner).post('/partner/withdrawals', { body: { amount: 30000 }, headers: idem() });
  return { partner, id: ok(w, 202, 'withdrawal').id, chat };
}
