// Onboarding and provider accounts (decisions 19) through HTTP: the one-time-code mechanism (sandbox),
// its limits, the account it makes, and the account rules; the official-API mechanism is in
// test/payments/qrapi-onboarding.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import {
  callAs,
  errorOf,
  idem,
  idsOf,
  impersonationToken,
  key,
  type Merchant,
  newMerchant,
} from '../helpers/factories.ts';
import { newMember } from '../helpers/actors.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const as = callAs(() => t.app);
const start = (m: Merchant, body: object = { phone: '+77015550123' }) =>
  as(m, 'POST', '/onboarding/provider/start', body);
const verify = (m: Merchant, code: string) => as(m, 'POST', '/onboarding/provider/verify', { code });
// The text as the SMS driver gets it: the code is sealed at rest (issue 38).
const smsTo = async (phone: string) =>
  (
    await t.runtime.deps.db.query<{ body_sealed: string }>(
      `SELECT body_sealed FROM outbox_messages WHERE channel = 'sms' AND ` +
        `recipient = $1 AND body_sealed IS NOT NULL ORDER BY id`,
      [phone],
    )
  ).rows.map((r) => ({ body: t.runtime.deps.secrets.sealer.open(r.body_sealed) }));

describe('the one-time-code mechanism', () => {
  it(
    'live QR 409 before; start -> code by SMS -> a wrong code -> 000000 ' +
      '-> connected default account -> live QR 201',
    async () => {
      const m = await newMerchant(t.app);
      const before = await t.app.inject({
        method: 'POST',
        url: '/v2/qr',
        headers: { ...key(m.liveKey), ...idem() },
        payload: { amount: 100 },
      });
      expect(before.statusCode).toBe(409);
      expect(errorOf(before).code).toBe('provider_not_connected');
      expect((await as(m, 'GET', '/onboarding/provider/status')).json()).toMatchObject({
        state: 'idle',
        mode: 'live',
        next_step: 'start',
        account_id: null,
        mechanism: 'sandbox',
      });

      const s = await start(m, { phone: '8 701 555 01 23', display_name: 'Main shop' });
      expect(s.statusCode, s.body).toBe(200);
      expect(s.json()).toMatchObject({ state: 'code_sent', next_step: 'enter_code', phone_masked: '+770*****23' });
      expect(new Date(s.json().resend_available_at).getTime() - Date.now()).toBeGreaterThan(50_000);
      const sms = await smsTo('+77015550123');
      expect(sms[sms.length - 1].body).toContain('000000');

      const wrong = await verify(m, '123456');
      expect(wrong.statusCode).toBe(400);
      expect(errorOf(wrong)).toMatchObject({ code: 'otp_invalid', param: 'code', attempts_left: 4 });
      // A wizard reloaded halfway learns where the code went.
      expect((await as(m, 'GET', '/onboarding/provider/status')).json()).toMatchObject({
        state: 'code_sent',
        attempts_left: 4,
        mechanism: 'sandbox',
        phone_masked: '+770*****23',
      });

      const ok = await verify(m, '000000');
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toMatchObject({ state: 'connected', next_step: null });
      const accounts = (await as(m, 'GET', '/me/provider/accounts')).json().data;
      expect(accounts).toHaveLength(1);
      expect(accounts[0]).toMatchObject({
        id: ok.json().account_id,
        mode: 'live',
        display_name: 'Main shop',
        is_default: true,
        session_alive: true,
        status: 'connected',
      });
      expect(JSON.stringify(accounts[0])).not.toMatch(/credential|secret|password/);
      const qr = await t.app.inject({
        method: 'POST',
        url: '/v2/qr',
        headers: { ...key(m.liveKey), ...idem() },
        payload: { amount: 100 },
      });
      expect(qr.statusCode, qr.body).toBe(201);

      const again = await start(m);
      expect(again.statusCode).toBe(409);
      expect(errorOf(again).code).toBe('already_connected');
      expect((await start(m, { phone: '+77015550124', force: true })).json().state).toBe('code_sent');
    },
  );

  it('the 5th wrong code locks for 15 minutes (429 otp_locked with Retry-After)', async () => {
    const m = await newMerchant(t.app);
    await start(m);
    for (let i = 4; i >= 1; i--) expect(errorOf(await verify(m, '111111')).attempts_left).toBe(i);
    const locked = await verify(m, '111111');
    expect(locked.statusCode).toBe(429);
    expect(errorOf(locked).code).toBe('otp_locked');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
    // Even the right code waits for the lock, and a new start too.
    expect(errorOf(await verify(m, '000000')).code).toBe('otp_locked');
    expect((await start(m)).statusCode).toBe(429);
    expect((await as(m, 'GET', '/onboarding/provider/status')).json().state).toBe('locked');
  });

  it('a code past 10 minutes is 400 otp_expired; resend is 60 s apart (429 Retry-After) and renews it', async () => {
    const m = await newMerchant(t.app);
    await start(m);
    const early = await as(m, 'POST', '/onboarding/provider/resend');
    expect(early.statusCode).toBe(429);
    expect(Number(early.headers['retry-after'])).toBeGreaterThan(0);
    const { clientId } = await idsOf(t.runtime.deps.db, m);
    await t.runtime.deps.db.query(
      `UPDATE onboarding SET last_sent_at = now() - interval '61 seconds' WHERE client_id = $1`,
      [clientId],
    );
    const resent = await as(m, 'POST', '/onboarding/provider/resend');
    expect(resent.statusCode, resent.body).toBe(200);
    expect((await smsTo('+77015550123')).length).toBeGreaterThanOrEqual(2);
    await t.runtime.deps.db.query(
      `UPDATE onboarding SET expires_at = now() - interval '1 second' WHERE client_id = $1`,
      [clientId],
    );
    expect((await as(m, 'GET', '/onboarding/provider/status')).json().state).toBe('expired');
    const late = await verify(m, '000000');
    expect(late.statusCode).toBe(400);
    expect(errorOf(late).code).toBe('otp_expired');
  });

  it(
    "the sandbox's fixed numbers: ...0000 no business account (404), " +
      '...0001 a provider failure (502); bad input 400',
    async () => {
      const m = await newMerchant(t.app);
      expect(errorOf(await start(m, { phone: '+77015550000' })).code).toBe('client_not_found');
      expect((await start(m, { phone: '+77015550001' })).statusCode).toBe(502);
      expect((await start(m, { phone: 'abc' })).statusCode).toBe(400);
      expect(errorOf(await start(m, {})).param).toBe('phone');
      expect(errorOf(await start(m, { phone: '+77015550123', org_bin: '123' })).param).toBe('org_bin');
      expect(errorOf(await verify(m, '000000')).code).toBe('onboarding_state');
    },
  );

  it(
    'test mode is connected from registration; its onboarding connects ' + 'a second sandbox account on force',
    async () => {
      const m = await newMerchant(t.app);
      expect((await as(m, 'GET', '/onboarding/provider/status?mode=test')).json()).toMatchObject({
        state: 'connected',
        mode: 'test',
      });
      expect(errorOf(await as(m, 'POST', '/onboarding/provider/start?mode=test', { phone: '+77015550123' })).code).toBe(
        'already_connected',
      );
    },
  );
});

describe('provider accounts', () => {
  async function connected(): Promise<Merchant & { accountId: number }> {
    const m = await newMerchant(t.app);
    await start(m);
    const r = await verify(m, '000000');
    return { ...m, accountId: r.json().account_id };
  }

  it(
    'default and sandbox accounts are protected (409); set-default flips ' + "atomically; delete is the owner's",
    async () => {
      const m = await connected();
      const sandbox = (await as(m, 'GET', '/me/provider/accounts?mode=test')).json().data[0];
      expect(errorOf(await as(m, 'DELETE', `/me/provider/accounts/${sandbox.id}?mode=test`)).code).toBe(
        'sandbox_account_required',
      );
      await start(m, { phone: '+77015550125', force: true, display_name: 'Second' });
      const second = (await verify(m, '000000')).json().account_id;
      expect(errorOf(await as(m, 'DELETE', `/me/provider/accounts/${m.accountId}`)).code).toBe('default_account');
      const flipped = await as(m, 'POST', `/me/provider/accounts/${second}/set-default`);
      expect(flipped.json()).toMatchObject({ id: second, is_default: true });
      const list = (await as(m, 'GET', '/me/provider/accounts')).json().data;
      expect(list.filter((a: { is_default: boolean }) => a.is_default).map((a: { id: number }) => a.id)).toEqual([
        second,
      ]);

      const admin = await newMember(t.app, m, 'admin');
      const notOwner = await as(admin, 'DELETE', `/me/provider/accounts/${m.accountId}`);
      expect(notOwner.statusCode).toBe(403);
      expect(errorOf(notOwner).code).toBe('not_owner');
      const partner = await impersonationToken(t.runtime.deps, m);
      expect(errorOf(await as({ access: partner.access }, 'DELETE', `/me/provider/accounts/${m.accountId}`)).code).toBe(
        'impersonation_blocked_action',
      );

      expect((await as(m, 'DELETE', `/me/provider/accounts/${m.accountId}`)).statusCode).toBe(204);
      expect((await as(m, 'GET', `/me/provider/accounts/${m.accountId}`)).statusCode).toBe(404);
      expect((await as(m, 'GET', '/me/provider/accounts')).json().data).toHaveLength(1);
    },
  );

  it("PATCH edits three fields, validates the BIN; another client's account is 404", async () => {
    const m = await connected();
    const p = await as(m, 'PATCH', `/me/provider/accounts/${m.accountId}`, {
      display_name: 'Renamed',
      org_type: 'too',
      org_bin: '990140001233',
    });
    expect(p.json()).toMatchObject({ display_name: 'Renamed', org_type: 'too', org_bin: '990140001233' });
    expect(
      errorOf(await as(m, 'PATCH', `/me/provider/accounts/${m.accountId}`, { org_bin: '990140001234' })).param,
    ).toBe('org_bin');
    expect((await as(m, 'PATCH', `/me/provider/accounts/${m.accountId}`, { driver: 'x' })).statusCode).toBe(400);
    const other = await newMerchant(t.app);
    expect((await as(other, 'GET', `/me/provider/accounts/${m.accountId}`)).statusCode).toBe(404);
    expect((await as(other, 'PATCH', `/me/provider/accounts/${m.accountId}`, { display_name: 'x' })).statusCode).toBe(
      404,
    );
  });

  it('a health check sets session_alive true again and records itself; at most 6 a minute', async () => {
    const m = await connected();
    await t.runtime.deps.db.query('UPDATE provider_accounts SET session_alive = false WHERE id = $1', [m.accountId]);
    expect((await as(m, 'GET', `/me/provider/accounts/${m.accountId}`)).json().status).toBe('needs_reconnect');
    const h = await as(m, 'POST', `/me/provider/accounts/${m.accountId}/health-check`);
    expect(h.statusCode, h.body).toBe(200);
    expect(h.json()).toMatchObject({ ok: true, session_alive: true });
    expect(h.json().checks.map((c: { name: string }) => c.name)).toEqual([
      'ping',
      'credentials',
      'certificate',
      'trade_point',
      'device',
    ]);
    const acc = (await as(m, 'GET', `/me/provider/accounts/${m.accountId}`)).json();
    expect(acc).toMatchObject({ session_alive: true, status: 'connected', last_health: { ok: true } });
    for (let i = 0; i < 5; i++) await as(m, 'POST', `/me/provider/accounts/${m.accountId}/health-check`);
    expect((await as(m, 'POST', `/me/provider/accounts/${m.accountId}/health-check`)).statusCode).toBe(429);
  });
});
