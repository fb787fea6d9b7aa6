// Decisions 30: password reset by an e-mailed link, and the signed-in user's password change, through HTTP.
// Forgot -> 202 whoever asks, a sealed e-mail for a known user only -> reset with the link's token -> the old
// password and the sessions before it are gone; the change keeps the caller's session and ends the others.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, HIGH_LIMITS, type TestApp } from '../helpers/app.ts';
import { callAs, errorOf, idsOf, impersonationToken, newMerchant, uniqueEmail } from '../helpers/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ dashboardUrl: 'https://pay.example.kz/dashboard' });
});
afterAll(() => t?.close());

const as = callAs(() => t.app);
const post = (url: string, payload: object, remoteAddress = '192.0.2.1') =>
  t.app.inject({ method: 'POST', url, payload, remoteAddress });
const forgot = (email: string, remoteAddress?: string) => post('/auth/password/forgot', { email }, remoteAddress);
const reset = (token: string, password: string) => post('/auth/password/reset', { token, password });
const login = (email: string, password: string) => post('/auth/login', { email, password });
const refresh = (token: string) => post('/auth/refresh', { refresh_token: token });

interface Mail {
  body: string;
  body_sealed: string | null;
  subject: string;
  recipient: string;
}
const mailsTo = async (email: string) =>
  (
    await t.runtime.deps.db.query<Mail>(
      `SELECT body, body_sealed, subject, recipient FROM outbox_messages
        WHERE purpose = 'password_reset' AND lower(recipient) = lower($1) ORDER BY id`,
      [email],
    )
  ).rows;

/** The reset token of the last e-mail to `email`, read as the driver reads it (the sealed text). */
async function tokenFromMail(email: string): Promise<string> {
  const mails = await mailsTo(email);
  const last = mails.at(-1)!;
  const text = t.runtime.deps.secrets.sealer.open(last.body_sealed!);
  const url = /https:\/\/\S+/.exec(text)![0];
  expect(url.startsWith('https://pay.example.kz/dashboard/reset-password?token=')).toBe(true);
  return new URL(url).searchParams.get('token')!;
}

const NEW_PASSWORD = 'a brand new passphrase';

describe('forgot password', () => {
  it('answers 202 alike for a known and an unknown e-mail; only the known one gets a sealed e-mail', async () => {
    const m = await newMerchant(t.app);
    const nobody = uniqueEmail('nobody');
    const known = await forgot(m.email.toUpperCase());
    const unknown = await forgot(nobody);
    expect(known.statusCode, known.body).toBe(202);
    expect(unknown.statusCode, unknown.body).toBe(202);
    expect(known.json()).toEqual(unknown.json());
    expect(await mailsTo(nobody)).toEqual([]);
    const [mail] = await mailsTo(m.email);
    expect(mail.subject).toMatch(/reset/i);
    // The link is not readable at rest: the operator's copy is masked, the driver's copy sealed.
    const token = await tokenFromMail(m.email);
    expect(token).toMatch(/^pwr_/);
    expect(mail.body).not.toContain(token);
    expect(mail.body).toContain('pwr_******');
    // Stored hashed, as a magic token of its own purpose.
    const stored = await t.runtime.deps.db.query<{ token_hash: string; purpose: string }>(
      `SELECT token_hash, purpose FROM magic_tokens WHERE user_id = $1 AND purpose = 'password_reset'`,
      [(await idsOf(t.runtime.deps.db, m)).userId],
    );
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0].token_hash).not.toContain(token);
  });

  it('sends nothing to an invited (not yet active) member', async () => {
    const owner = await newMerchant(t.app);
    const email = uniqueEmail('invitee');
    expect((await as(owner, 'POST', '/me/team/invite', { email, role: 'viewer' })).statusCode).toBe(201);
    expect((await forgot(email)).statusCode).toBe(202);
    expect(await mailsTo(email)).toEqual([]);
  });

  it('refuses a malformed e-mail or an unknown field with 400', async () => {
    const bad = await forgot('not an e-mail');
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).type).toBe('validation_error');
    expect((await post('/auth/password/forgot', {})).statusCode).toBe(400);
    expect((await post('/auth/password/forgot', { email: uniqueEmail(), extra: 1 })).statusCode).toBe(400);
  });
});

describe('reset password', () => {
  it('the e-mailed link sets a new password: the old one fails, the new one signs in, old sessions end', async () => {
    const m = await newMerchant(t.app);
    const before = (await login(m.email, m.password)).json().refresh_token as string;
    await forgot(m.email);
    const token = await tokenFromMail(m.email);

    const done = await reset(token, NEW_PASSWORD);
    expect(done.statusCode, done.body).toBe(200);
    expect(Date.parse(done.json().password_changed_at)).toBeGreaterThan(0);

    const old = await login(m.email, m.password);
    expect(old.statusCode).toBe(401);
    expect(errorOf(old).code).toBe('invalid_credentials');
    expect((await login(m.email, NEW_PASSWORD)).statusCode).toBe(200);
    // Every refresh token issued before the reset is revoked (the registration's and the login's).
    for (const rt of [m.refresh, before]) {
      const res = await refresh(rt);
      expect(res.statusCode).toBe(401);
      expect(errorOf(res).code).toBe('token_revoked');
    }
  });

  it('a token works once; every other link of the user is spent with it', async () => {
    const m = await newMerchant(t.app);
    await forgot(m.email);
    const first = await tokenFromMail(m.email);
    await forgot(m.email);
    const second = await tokenFromMail(m.email);
    expect(second).not.toBe(first);
    expect((await reset(second, NEW_PASSWORD)).statusCode).toBe(200);
    for (const used of [second, first]) {
      const again = await reset(used, 'yet another passphrase');
      expect(again.statusCode).toBe(400);
      expect(errorOf(again)).toMatchObject({ code: 'reset_token_invalid', param: 'token' });
    }
    expect((await login(m.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('an expired token fails with reset_token_expired and changes nothing', async () => {
    const m = await newMerchant(t.app);
    await forgot(m.email);
    const token = await tokenFromMail(m.email);
    await t.runtime.deps.db.query(
      `UPDATE magic_tokens SET expires_at = now() - interval '1 second'
        WHERE user_id = $1 AND purpose = 'password_reset'`,
      [(await idsOf(t.runtime.deps.db, m)).userId],
    );
    const res = await reset(token, NEW_PASSWORD);
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: 'reset_token_expired', param: 'token' });
    expect((await login(m.email, m.password)).statusCode).toBe(200);
  });

  it('the link lasts 30 minutes', async () => {
    const m = await newMerchant(t.app);
    await forgot(m.email);
    const r = await t.runtime.deps.db.query<{ s: number }>(
      `SELECT extract(epoch FROM expires_at - created_at)::int AS s FROM magic_tokens
        WHERE user_id = $1 AND purpose = 'password_reset'`,
      [(await idsOf(t.runtime.deps.db, m)).userId],
    );
    expect(r.rows[0].s).toBe(1800);
  });

  it('an unknown token, a sign-in magic token, a short password or a missing field: 400', async () => {
    const unknown = await reset('pwr_nothing_like_it', NEW_PASSWORD);
    expect(errorOf(unknown).code).toBe('reset_token_invalid');
    const m = await newMerchant(t.app);
    await forgot(m.email);
    const token = await tokenFromMail(m.email);
    const short = await reset(token, 'short');
    expect(short.statusCode).toBe(400);
    expect(errorOf(short).type).toBe('validation_error');
    expect((await post('/auth/password/reset', { token })).statusCode).toBe(400);
    // The token still works after the refused attempts.
    expect((await reset(token, NEW_PASSWORD)).statusCode).toBe(200);
    // A reset link is no sign-in link, and a sign-in link no reset link.
    expect((await post('/auth/magic-exchange', { token })).statusCode).toBe(401);
  });
});

describe('change password', () => {
  it('with the current password: the caller goes on with a new pair, its other sessions end', async () => {
    const m = await newMerchant(t.app);
    const other = (await login(m.email, m.password)).json().refresh_token as string;
    const res = await as(m, 'POST', '/me/password', { current_password: m.password, new_password: NEW_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    const pair = res.json();
    expect(pair).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    expect((await as({ access: pair.access_token }, 'GET', '/me')).statusCode).toBe(200);
    expect((await refresh(pair.refresh_token)).statusCode).toBe(200);
    for (const rt of [m.refresh, other]) expect(errorOf(await refresh(rt)).code).toBe('token_revoked');
    expect((await login(m.email, m.password)).statusCode).toBe(401);
    expect((await login(m.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('a wrong current password: 403 current_password_wrong, nothing changes', async () => {
    const m = await newMerchant(t.app);
    const res = await as(m, 'POST', '/me/password', {
      current_password: 'not the password',
      new_password: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res)).toMatchObject({ code: 'current_password_wrong', param: 'current_password' });
    expect((await login(m.email, m.password)).statusCode).toBe(200);
    expect((await refresh(m.refresh)).statusCode).toBe(200);
  });

  it('a short new password or a missing field: 400', async () => {
    const m = await newMerchant(t.app);
    const short = await as(m, 'POST', '/me/password', { current_password: m.password, new_password: 'short' });
    expect(short.statusCode).toBe(400);
    expect((await as(m, 'POST', '/me/password', { new_password: NEW_PASSWORD })).statusCode).toBe(400);
  });

  it('a partner acting in the account may not: 403 impersonation_blocked_action', async () => {
    const m = await newMerchant(t.app);
    const partner = await impersonationToken(t.runtime.deps, m);
    const res = await as(partner, 'POST', '/me/password', {
      current_password: m.password,
      new_password: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res).code).toBe('impersonation_blocked_action');
    expect((await login(m.email, m.password)).statusCode).toBe(200);
  });

  it('needs a signed-in user: 401 without a token', async () => {
    const res = await post('/me/password', { current_password: 'x', new_password: NEW_PASSWORD });
    expect(res.statusCode).toBe(401);
  });
});

describe('rate limits', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await buildTestApp({ rateLimits: { ...HIGH_LIMITS, auth: 5, login_email: 3 } });
  });
  afterAll(() => limited?.close());

  const expect429 = (res: { statusCode: number; body: string; headers: Record<string, unknown> }) => {
    expect(res.statusCode, res.body).toBe(429);
    expect(JSON.parse(res.body).error.code).toBe('rate_limit_exceeded');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  };

  it('forgot is limited per e-mail and address, known or not, and per address', async () => {
    const send = (email: string, ip: string) =>
      limited.app.inject({ method: 'POST', url: '/auth/password/forgot', payload: { email }, remoteAddress: ip });
    const nobody = uniqueEmail('nobody');
    for (let i = 0; i < 3; i++) expect((await send(nobody, '198.51.100.1')).statusCode).toBe(202);
    expect429(await send(nobody, '198.51.100.1'));
    // Another e-mail from the address goes on until the address's `auth` minute is spent (5).
    expect((await send(uniqueEmail('other'), '198.51.100.1')).statusCode).toBe(202);
    expect429(await send(uniqueEmail('third'), '198.51.100.1'));
  });

  it('reset is limited per address', async () => {
    const send = () =>
      limited.app.inject({
        method: 'POST',
        url: '/auth/password/reset',
        payload: { token: 'pwr_nothing', password: NEW_PASSWORD },
        remoteAddress: '198.51.100.2',
      });
    for (let i = 0; i < 5; i++) expect((await send()).statusCode).toBe(400);
    expect429(await send());
  });

  it('the change is limited per user, whatever the address', async () => {
    const m = await newMerchant(limited.app);
    const send = (ip: string) =>
      limited.app.inject({
        method: 'POST',
        url: '/me/password',
        headers: { authorization: `Bearer ${m.access}` },
        payload: { current_password: 'wrong guess', new_password: NEW_PASSWORD },
        remoteAddress: ip,
      });
    for (let i = 0; i < 3; i++) expect((await send(`203.0.113.${i + 1}`)).statusCode).toBe(403);
    expect429(await send('203.0.113.50'));
  });
});
