// The shared auth suite: every authenticated route of /openapi.json gets the common cases, so a route
// added later is covered the moment it declares its audience. Cases: no credential, malformed, wrong
// kind, revoked, expired (and, for JWT, a token signed by another key).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, generateKeyPair } from 'jose';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { errorOf, newMerchant, type Merchant } from '../helpers/factories.ts';
import { signAccessToken } from '../../src/domain/accounts/tokens.ts';

let t: TestApp;
let m: Merchant;
let revokedKey: string;
let expiredJwt: string;
let foreignJwt: string;
let disabledUserJwt: string;
const routes: { method: string; url: string; kinds: string[] }[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  m = await newMerchant(t.app);
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  for (const [path, ops] of Object.entries<Record<string, { security?: Record<string, unknown>[] }>>(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!op.security?.length) continue;
      const url = path.replace(/\{[^}]+\}/g, 'op_01HZZZZZZZZZZZZZZZZZZZZZZZ');
      routes.push({ method: method.toUpperCase(), url, kinds: op.security.flatMap((s) => Object.keys(s)) });
    }
  }
  const victim = await newMerchant(t.app);
  revokedKey = victim.liveKey;
  await t.app.inject({
    method: 'POST',
    url: '/me/api-key/regenerate',
    headers: { authorization: `Bearer ${victim.access}` },
  });
  const past = { now: () => new Date(Date.now() - 3600_000) };
  const userId = (
    await t.runtime.deps.db.query<{ id: number; client_id: number }>(
      'SELECT id, client_id FROM users WHERE email = $1',
      [m.email],
    )
  ).rows[0];
  expiredJwt = await signAccessToken(
    { ...t.runtime.deps, clock: past },
    { sub: String(userId.id), cid: userId.client_id, role: 'owner' },
  );
  const { privateKey } = await generateKeyPair('RS256');
  foreignJwt = await new SignJWT({ cid: userId.client_id, role: 'owner' })
    .setProtectedHeader({ alg: 'RS256', kid: t.runtime.deps.secrets.jwt.kid, typ: 'at+jwt' })
    .setSubject(String(userId.id))
    .setIssuer(t.config.jwtIssuer)
    .setAudience(t.config.jwtAudience)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(privateKey);
  const gone = await newMerchant(t.app);
  disabledUserJwt = gone.access;
  await t.runtime.deps.db.query('UPDATE users SET disabled_at = now() WHERE email = $1', [gone.email]);
});
afterAll(() => t.close());

async function expect401(method: string, url: string, headers: Record<string, string>, codes: string[]) {
  const res = await t.app.inject({
    method: method as 'GET',
    url,
    headers,
    payload: method === 'GET' || method === 'DELETE' ? undefined : {},
  });
  expect(res.statusCode, `${method} ${url} ${JSON.stringify(headers)}`).toBe(401);
  if (url.startsWith('/v1/') && !url.startsWith('/v1/subscription/')) {
    // The deprecated API keeps its own envelope.
    expect(res.json(), url).toMatchObject({ Data: null, StatusCode: -401 });
    expect(res.headers.deprecation).toBe('true');
  } else {
    expect(codes, `${method} ${url}`).toContain(errorOf(res).code);
  }
  expect(res.headers['x-ratelimit-limit']).toBeDefined();
}

describe('common auth cases on every authenticated route', () => {
  it('found the routes', () => {
    expect(routes.length).toBeGreaterThanOrEqual(4);
  });

  it('no credential', async () => {
    for (const r of routes) await expect401(r.method, r.url, {}, ['invalid_api_key', 'invalid_token']);
  });

  it('malformed credential', async () => {
    for (const r of routes) {
      if (r.kinds.includes('ApiKey'))
        await expect401(r.method, r.url, { 'x-api-key': 'kp_live_short' }, ['invalid_api_key']);
      if (r.kinds.includes('BearerAuth')) {
        await expect401(r.method, r.url, { authorization: 'Bearer not.a.jwt' }, ['invalid_token']);
        await expect401(r.method, r.url, { authorization: 'Basic abc' }, ['invalid_token']);
      }
    }
  });

  it('wrong kind of credential', async () => {
    for (const r of routes) {
      if (!r.kinds.includes('ApiKey'))
        await expect401(r.method, r.url, { 'x-api-key': m.liveKey }, ['invalid_token', 'invalid_api_key']);
      if (!r.kinds.includes('BearerAuth'))
        await expect401(r.method, r.url, { authorization: `Bearer ${m.access}` }, ['invalid_api_key']);
    }
  });

  it('revoked credential', async () => {
    for (const r of routes) {
      if (r.kinds.includes('ApiKey'))
        await expect401(r.method, r.url, { 'x-api-key': revokedKey }, ['invalid_api_key']);
      if (r.kinds.includes('BearerAuth'))
        await expect401(r.method, r.url, { authorization: `Bearer ${disabledUserJwt}` }, ['token_revoked']);
    }
  });

  it('expired or foreign-signed token', async () => {
    for (const r of routes) {
      if (!r.kinds.includes('BearerAuth')) continue;
      await expect401(r.method, r.url, { authorization: `Bearer ${expiredJwt}` }, ['token_expired']);
      await expect401(r.method, r.url, { authorization: `Bearer ${foreignJwt}` }, ['invalid_token']);
    }
  });
});
