// A disabled client's refresh chain stops (issue 38): /auth/refresh answers 403 account_disabled and
// revokes the family, and once the operator enables the client again its users sign in anew. Through
// HTTP, a fresh merchant per test; the operator's switch is PATCH /admin/clients/{id} {disabled}.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { callAs, errorOf, idsOf, newAdmin, newMerchant, type Merchant } from '../helpers/factories.ts';

let t: TestApp;
let admin: Merchant;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await newAdmin(t.app, t.runtime.deps.db);
});
afterAll(() => t?.close());
const as = callAs(() => t.app);
const refresh = (token: string) =>
  t.app.inject({ method: 'POST', url: '/auth/refresh', payload: { refresh_token: token } });
const login = (m: Merchant) =>
  t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: m.email, password: m.password } });

async function setDisabled(m: Merchant, disabled: boolean): Promise<void> {
  const { clientId } = await idsOf(t.runtime.deps.db, m);
  const res = await as(admin, 'PATCH', `/admin/clients/${clientId}`, { disabled });
  expect(res.statusCode, res.body).toBe(200);
}

describe('refresh of a disabled client', () => {
  it('403 account_disabled, and the family is revoked: enabling again needs a new login', async () => {
    const m = await newMerchant(t.app);
    // A second session whose chain moved on once before the client was disabled.
    const second = (await refresh((await login(m)).json().refresh_token)).json();
    await setDisabled(m, true);

    const refused = await refresh(m.refresh);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(errorOf(refused).code).toBe('account_disabled');
    expect(errorOf(await refresh(second.refresh_token)).code).toBe('account_disabled');

    await setDisabled(m, false);
    // Neither chain goes on: not the one refused while disabled, not the one that never tried.
    for (const token of [m.refresh, second.refresh_token]) {
      const res = await refresh(token);
      expect(res.statusCode, res.body).toBe(401);
      expect(errorOf(res).code).toBe('token_revoked');
    }
    const fresh = await login(m);
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect((await refresh(fresh.json().refresh_token)).statusCode).toBe(200);
  });

  it('a chain that did not refresh while the client was disabled is over as well', async () => {
    const m = await newMerchant(t.app);
    await setDisabled(m, true);
    await setDisabled(m, false);
    expect(errorOf(await refresh(m.refresh)).code).toBe('token_revoked');
    // Another client's chain is untouched.
    const other = await newMerchant(t.app);
    expect((await refresh(other.refresh)).statusCode).toBe(200);
  });
});
