// Register, login (password and OpenID Connect), refresh with reuse revocation, magic exchange,
// brute-force limits and admins, through HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, decodeProtectedHeader, decodeJwt } from 'jose';
import { buildTestApp, HIGH_LIMITS, type TestApp } from '../helpers/app.ts';
import { errorOf, newMerchant, uniqueEmail } from '../helpers/factories.ts';
import { api } from '../helpers/api.ts';
import { issueMagicToken, LOGIN_LINK_PURPOSE } from '../../src/domain/accounts/tokens.ts';

let t: TestApp;
const BOSS = uniqueEmail('boss');
let issuer: {
  url: string;
  server: Server;
  sign(claims: Record<string, unknown>, opts?: { exp?: string; aud?: string }): Promise<string>;
};

async function startIssuer() {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    server,
    sign: (claims: Record<string, unknown>, opts: { exp?: string; aud?: string } = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setIssuer(url)
        .setAudience(opts.aud ?? 'tolem-test-client')
        .setIssuedAt()
        .setExpirationTime(opts.exp ?? '5m')
        .sign(privateKey),
  };
}

beforeAll(async () => {
  issuer = await startIssuer();
  t = await buildTestApp({
    adminEmails: [BOSS],
    oidcIssuers: [{ name: 'local', issuer: issuer.url, audience: 'tolem-test-client', jwks_uri: `${issuer.url}/jwks` }],
  });
});
afterAll(async () => {
  await t.close();
  issuer.server.close();
});

describe('register', () => {
  it('creates a trial merchant with keys shown once and a token pair', async () => {
    const email = uniqueEmail();
    const res = await api(t.app).post('/auth/register', {
      body: { name: 'Алма Shop', email, password: 'correct horse battery' },
    });
    expect(res.status).toBe(201);
    const b = res.body;
    expect(b).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    expect(b.api_keys!.live).toMatch(/^kp_live_[0-9A-Za-z]{40}$/);
    expect(b.api_keys!.test).toMatch(/^kp_test_[0-9A-Za-z]{40}$/);
    const header = decodeProtectedHeader(b.access_token);
    expect(header).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
    expect(header.kid).toBeTruthy();
    const me = (await api(t.app, { access: b.access_token }).get('/me')).body;
    expect(me).toMatchObject({
      name: 'Алма Shop',
      email,
      plan: 'trial',
      plan_active: true,
      session_alive: false,
      is_admin: false,
    });
    expect(me.api_key_prefix).toBe(b.api_keys!.live.slice(0, 12));
    expect(me.test_api_key_prefix).toBe(b.api_keys!.test.slice(0, 12));
    // The database holds only hashes of keys and tokens.
    const stored = await t.runtime.deps.db.query<{ key_hash: string }>('SELECT key_hash FROM api_keys');
    expect(stored.rows.some((r) => r.key_hash.includes(b.api_keys!.live))).toBe(false);
    const rt = await t.runtime.deps.db.query<{ token_hash: string }>('SELECT token_hash FROM refresh_tokens');
    expect(rt.rows.some((r) => r.token_hash === b.refresh_token)).toBe(false);
  });

  it('refuses a taken e-mail (any case) with 409 and stores nothing new', async () => {
    const m = await newMerchant(t.app);
    const count = async () =>
      (
        await t.runtime.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM clients WHERE lower(email) = $1', [
          m.email,
        ])
      ).rows[0].n;
    const before = await count();
    const res = await api(t.app).post('/auth/register', {
      body: {
        name: 'Dup',
        email: m.email.toUpperCase(),
        password: 'another long password',
      },
    });
    expect(res.status).toBe(409);
    expect(errorOf(res)).toMatchObject({ code: 'email_taken', type: 'api_error' });
    expect(await count()).toBe(before);
    expect(before).toBe(1);
  });

  it('two concurrent registrations of one e-mail create one account', async () => {
    const email = uniqueEmail('race');
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        api(t.app).post('/auth/register', { body: { name: 'R', email, password: 'correct horse battery' } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it('validates input', async () => {
    const cases: [unknown, string][] = [
      [{ name: 'x', email: uniqueEmail(), password: 'short' }, 'password'],
      [{ name: 'x', email: uniqueEmail(), password: 'p'.repeat(129) }, 'password'],
      [{ name: '', email: uniqueEmail(), password: 'long enough pw' }, 'name'],
      [{ name: 'x', password: 'long enough pw' }, 'email'],
      [{ name: 'x', email: uniqueEmail() }, 'password'],
      [{ name: 'x', email: 5, password: 'long enough pw' }, 'email'],
      [{ name: 'x', provider: 'nope', id_token: 'abc' }, 'provider'],
    ];
    for (const [body, param] of cases) {
      const res = await api(t.app).post('/auth/register', { payload: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(errorOf(res).param, JSON.stringify(body)).toBe(param);
    }
    expect(
      errorOf(await api(t.app).post('/auth/register', { body: { name: 'x', provider: 'nope', id_token: 'abc' } })).code,
    ).toBe('provider_not_enabled');
  });

  it('ADMIN_EMAILS makes admins', async () => {
    const res = await api(t.app).post('/auth/register', {
      body: {
        name: 'Boss',
        email: BOSS.toUpperCase(),
        password: 'correct horse battery',
      },
    });
    expect(res.status).toBe(201);
    const me = (await api(t.app, { access: res.body.access_token }).get('/me')).body;
    expect(me.is_admin).toBe(true);
  });
});

describe('login', () => {
  it('gives a token pair for the right password and 401 invalid_credentials otherwise', async () => {
    const m = await newMerchant(t.app);
    const ok = await api(t.app).post('/auth/login', { body: { email: m.email.toUpperCase(), password: m.password } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    const claims = decodeJwt(ok.body.access_token);
    expect(claims.aud).toBe('tolem');
    expect(claims.exp! - claims.iat!).toBe(900);
    const wrong = await api(t.app).post('/auth/login', { body: { email: m.email, password: 'wrong password!' } });
    expect(wrong.status).toBe(401);
    expect(errorOf(wrong)).toMatchObject({
      code: 'invalid_credentials',
      type: 'authentication_error',
      category: 'auth',
    });
    const unknown = await api(t.app).post('/auth/login', {
      body: { email: uniqueEmail('ghost'), password: 'whatever it is' },
    });
    expect(errorOf(unknown).code).toBe('invalid_credentials');
  });
});

describe('OpenID Connect', () => {
  it('registers and logs in with an id_token of a configured issuer', async () => {
    const email = uniqueEmail('oidc');
    const idToken = await issuer.sign({ sub: `sub-${email}`, email, email_verified: true });
    const reg = await api(t.app).post('/auth/register', {
      body: { name: 'OIDC Shop', provider: 'local', id_token: idToken },
    });
    expect(reg.status).toBe(201);
    const login = await api(t.app).post('/auth/login', {
      body: {
        provider: 'local',
        id_token: await issuer.sign({ sub: `sub-${email}`, email, email_verified: true }),
      },
    });
    expect(login.status).toBe(200);
    const me = (await api(t.app, { access: login.body.access_token }).get('/me')).body;
    expect(me.email).toBe(email);
  });

  it('an account registered with an id_token never logs in with a password, whatever the password', async () => {
    const email = uniqueEmail('oidc-nopw');
    const reg = await api(t.app).post('/auth/register', {
      body: {
        name: 'OIDC Shop',
        provider: 'local',
        id_token: await issuer.sign({ sub: `sub-${email}`, email, email_verified: true }),
      },
    });
    expect(reg.status).toBe(201);
    // The text the dummy hash used to be made of (it was in the source) among them.
    for (const password of ['tolem-timing-equaliser', 'anything-at-all-1', '']) {
      const res = await api(t.app).post('/auth/login', { body: { email, password } });
      expect(res.status, password).toBe(password === '' ? 400 : 401);
    }
  });

  it('refuses tokens for another audience, expired, unverified e-mail, or signed by someone else', async () => {
    const email = uniqueEmail('oidc-bad');
    const bad = [
      await issuer.sign({ sub: 's', email, email_verified: true }, { aud: 'someone-else' }),
      await issuer.sign({ sub: 's', email, email_verified: true }, { exp: '-1m' }),
      await issuer.sign({ sub: 's', email, email_verified: false }),
      await issuer.sign({ sub: 's', email }), // no email_verified claim at all
    ];
    const { privateKey } = await generateKeyPair('RS256');
    bad.push(
      await new SignJWT({ sub: 's', email })
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setIssuer(issuer.url)
        .setAudience('tolem-test-client')
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey),
    );
    for (const idToken of bad) {
      const res = await api(t.app).post('/auth/register', {
        body: { name: 'X', provider: 'local', id_token: idToken },
      });
      expect(res.status).toBe(401);
      expect(errorOf(res).code).toBe('invalid_token');
    }
    const unlinked = await api(t.app).post('/auth/login', {
      body: {
        provider: 'local',
        id_token: await issuer.sign({ sub: 'never-registered', email, email_verified: true }),
      },
    });
    expect(errorOf(unlinked).code).toBe('invalid_credentials');
  });
});

describe('refresh', () => {
  it('is single use and a reuse revokes the whole family', async () => {
    const m = await newMerchant(t.app);
    const first = await api(t.app).post('/auth/refresh', { body: { refresh_token: m.refresh } });
    expect(first.status).toBe(200);
    const pair2 = first.body;
    expect(pair2.refresh_token).not.toBe(m.refresh);
    // The old token again: reuse. It fails, and so does the newer token of the same family.
    const reuse = await api(t.app).post('/auth/refresh', { body: { refresh_token: m.refresh } });
    expect(reuse.status).toBe(401);
    expect(errorOf(reuse).code).toBe('token_revoked');
    const after = await api(t.app).post('/auth/refresh', { body: { refresh_token: pair2.refresh_token } });
    expect(after.status).toBe(401);
    expect(errorOf(after).code).toBe('token_revoked');
    // Another session of the same user (another family) is untouched.
    const other = (await api(t.app).post('/auth/login', { body: { email: m.email, password: m.password } })).body;
    expect((await api(t.app).post('/auth/refresh', { body: { refresh_token: other.refresh_token } })).status).toBe(200);
  });

  it('concurrent use of one refresh token gives exactly one new pair', async () => {
    const m = await newMerchant(t.app);
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => api(t.app).post('/auth/refresh', { body: { refresh_token: m.refresh } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  });

  it('unknown and expired tokens', async () => {
    expect(errorOf(await api(t.app).post('/auth/refresh', { body: { refresh_token: 'rt_nonsense' } })).code).toBe(
      'invalid_token',
    );
    const m = await newMerchant(t.app);
    // Moving time: the refresh token's lifetime runs out.
    await t.runtime.deps.db.query(
      `UPDATE refresh_tokens SET expires_at = now() - interval '1 second' ` +
        `WHERE used_at IS NULL AND user_id = (SELECT id FROM users WHERE ` +
        `email = $1)`,
      [m.email],
    );
    const res = await api(t.app).post('/auth/refresh', { body: { refresh_token: m.refresh } });
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe('token_expired');
  });
});

describe('magic exchange', () => {
  async function userId(email: string) {
    return (await t.runtime.deps.db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [email])).rows[0].id;
  }

  it('trades a magic token once for a token pair', async () => {
    const m = await newMerchant(t.app);
    const id = await userId(m.email);
    const { token } = await t.runtime.deps.db.tx((tx) => issueMagicToken(tx, id, LOGIN_LINK_PURPOSE));
    const res = await api(t.app).post('/auth/magic-exchange', { body: { token } });
    expect(res.status).toBe(200);
    const me = (await api(t.app, { access: res.body.access_token }).get('/me')).body;
    expect(me.email).toBe(m.email);
    const again = await api(t.app).post('/auth/magic-exchange', { body: { token } });
    expect(again.status).toBe(401);
    expect(errorOf(again).code).toBe('invalid_token');
  });

  it("a magic token of another purpose (the messenger binding's) never signs in", async () => {
    const m = await newMerchant(t.app);
    const id = await userId(m.email);
    const { token } = await t.runtime.deps.db.tx((tx) => issueMagicToken(tx, id, 'messenger_link'));
    const res = await api(t.app).post('/auth/magic-exchange', { body: { token } });
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe('invalid_token');
  });

  it('refuses an expired magic token', async () => {
    const m = await newMerchant(t.app);
    const id = await userId(m.email);
    const { token } = await t.runtime.deps.db.tx((tx) => issueMagicToken(tx, id, LOGIN_LINK_PURPOSE));
    // Moving time: the magic token's lifetime runs out.
    await t.runtime.deps.db.query(
      `UPDATE magic_tokens SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`,
    );
    const res = await api(t.app).post('/auth/magic-exchange', { body: { token } });
    expect(errorOf(res).code).toBe('token_expired');
  });
});

describe('brute-force limits', () => {
  it('10 login attempts per minute per IP', async () => {
    const limited = await buildTestApp({ rateLimits: { ...HIGH_LIMITS, auth: 10 } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await limited.app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { email: `x${i}@y.kz`, password: 'nope' },
        });
        codes.push(res.statusCode);
        if (i === 10) {
          expect(errorOf(res)).toMatchObject({
            code: 'rate_limit_exceeded',
            type: 'rate_limit_error',
            category: 'rate_limit',
          });
          expect(res.headers['x-ratelimit-remaining']).toBe('0');
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        }
      }
      expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
      expect(codes[10]).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it(
    'per e-mail across IPs: a budget shared by the addresses that have ' +
      'not signed in to it (more in login-limits.test.ts)',
    async () => {
      const limited = await buildTestApp({ rateLimits: { ...HIGH_LIMITS, login_email: 10, login_email_hourly: 10 } });
      try {
        // Registered from 127.0.0.1 (inject's address): that address is the owner's.
        const m = await newMerchant(limited.app);
        for (let i = 0; i < 10; i++) {
          const res = await limited.app.inject({
            method: 'POST',
            url: '/auth/login',
            remoteAddress: `10.0.0.${i + 1}`,
            payload: { email: m.email, password: 'wrong password' },
          });
          expect(res.statusCode).toBe(401);
        }
        // Even the right password waits at a new address: the e-mail is under attack.
        const res = await limited.app.inject({
          method: 'POST',
          url: '/auth/login',
          remoteAddress: '10.0.1.1',
          payload: { email: m.email, password: m.password },
        });
        expect(res.statusCode).toBe(429);
        expect(errorOf(res).code).toBe('rate_limit_exceeded');
        // The owner's own address is not locked out.
        const home = await limited.app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: { email: m.email, password: m.password },
        });
        expect(home.statusCode).toBe(200);
      } finally {
        await limited.close();
      }
    },
  );
});
