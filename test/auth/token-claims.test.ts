// Access tokens signed with the server's own key but not as the server issues them: dated in the future,
// living longer than an access token does, or naming a user or client by something other than an id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { errorOf, idsOf, newMerchant, type Merchant } from '../helpers/factories.ts';
import { ACCESS_TTL_S } from '../../src/domain/accounts/tokens.ts';

let t: TestApp;
let m: Merchant;
let ids: { clientId: number; userId: number };
beforeAll(async () => {
  t = await buildTestApp();
  m = await newMerchant(t.app);
  ids = await idsOf(t.runtime.deps.db, m);
});
afterAll(() => t.close());

const now = () => Math.floor(Date.now() / 1000);

function token(o: { sub?: string; cid?: unknown; iat?: number; exp?: number } = {}): Promise<string> {
  const iat = o.iat ?? now();
  return new SignJWT({ cid: 'cid' in o ? o.cid : ids.clientId, role: 'owner' })
    .setProtectedHeader({ alg: 'RS256', kid: t.runtime.deps.secrets.jwt.kid, typ: 'at+jwt' })
    .setSubject(o.sub ?? String(ids.userId))
    .setIssuer(t.config.jwtIssuer)
    .setAudience(t.config.jwtAudience)
    .setIssuedAt(iat)
    .setExpirationTime(o.exp ?? iat + ACCESS_TTL_S)
    .sign(t.runtime.deps.secrets.jwt.privateKey);
}

const me = async (jwt: string) =>
  t.app.inject({ method: 'GET', url: '/me', headers: { authorization: `Bearer ${jwt}` } });

async function expectRefused(jwt: string, what: string) {
  const res = await me(jwt);
  expect(res.statusCode, what).toBe(401);
  expect(errorOf(res).code, what).toBe('invalid_token');
}

describe('access token claims', () => {
  it('a token as the server issues it is accepted, with a little clock skew', async () => {
    expect((await me(await token())).statusCode).toBe(200);
    expect((await me(await token({ iat: now() + 30 }))).statusCode).toBe(200);
  });

  it('issued in the future: 401 invalid_token', async () => {
    await expectRefused(await token({ iat: now() + 3600 }), 'iat an hour ahead');
  });

  it('a lifetime over the access token lifetime: 401 invalid_token', async () => {
    await expectRefused(await token({ exp: now() + 2 * 3600 }), 'two hours');
    await expectRefused(await token({ exp: now() + ACCESS_TTL_S + 1 }), 'one second over');
  });

  it('sub and cid must be ids: 401 invalid_token', async () => {
    for (const sub of ['abc', '0', '-1', '1.5', ' 1', '99999999999999999999'])
      await expectRefused(await token({ sub }), `sub ${sub}`);
    for (const cid of ['1', 0, -1, 1.5, null]) await expectRefused(await token({ cid }), `cid ${JSON.stringify(cid)}`);
  });
});
