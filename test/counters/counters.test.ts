// Counters and the cashier (decisions 28): the managers set up a shop's tills; a cashier makes QRs at
// one (source counter, marked with the counter and the cashier), reads the till's payments of today,
// and may do nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMember } from '../helpers/actors.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, idem, idsOf, key, newMerchant, type Merchant } from '../helpers/factories.ts';
import { pay } from '../helpers/payments.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const jwt = (who: { access: string }, method: Method, url: string, payload?: object, headers = {}) =>
  t.app.inject({ method, url, headers: { ...bearer(who), ...headers }, payload });

/** The client's provider account of test mode (every new merchant has one, the sandbox's). */
async function testAccount(m: Merchant): Promise<number> {
  const { clientId } = await idsOf(t.runtime.deps.db, m);
  const r = await t.runtime.deps.db.query<{ id: number }>(
    `SELECT id FROM provider_accounts WHERE client_id = $1 AND mode = 'test' AND deleted_at IS NULL`,
    [clientId],
  );
  return Number(r.rows[0].id);
}

async function newCounter(m: Merchant, name = 'Касса 1'): Promise<{ id: string; provider_account_id: number }> {
  const res = await jwt(m, 'POST', '/me/counters?mode=test', { name, provider_account_id: await testAccount(m) });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function userIdOf(email: string): Promise<number> {
  const r = await t.runtime.deps.db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [email]);
  return Number(r.rows[0].id);
}

describe('counters', () => {
  it('are set up, listed, read, renamed and archived by the managers', async () => {
    const m = await newMerchant(t.app);
    const account = await testAccount(m);
    const created = await jwt(m, 'POST', '/me/counters?mode=test', { name: 'Касса 1', provider_account_id: account });
    expect(created.statusCode).toBe(201);
    const c = created.json();
    expect(c).toMatchObject({ name: 'Касса 1', provider_account_id: account, mode: 'test' });
    expect(c.id).toMatch(/^ct_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(Date.parse(c.created_at)).not.toBeNaN();
    const second = await newCounter(m, 'Касса 2');

    const list = (await jwt(m, 'GET', '/me/counters?mode=test&limit=1')).json();
    expect(list.data.map((x: { id: string }) => x.id)).toEqual([second.id]);
    expect(list.has_more).toBe(true);
    const rest = (await jwt(m, 'GET', `/me/counters?mode=test&limit=1&cursor=${list.next_cursor}`)).json();
    expect(rest.data.map((x: { id: string }) => x.id)).toEqual([c.id]);
    expect(rest.has_more).toBe(false);
    // The other mode has none.
    expect((await jwt(m, 'GET', '/me/counters')).json().data).toEqual([]);
    expect((await jwt(m, 'GET', `/me/counters/${c.id}`)).statusCode).toBe(404);

    const renamed = await jwt(m, 'PATCH', `/me/counters/${c.id}?mode=test`, { name: 'У входа' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe('У входа');
    expect((await jwt(m, 'GET', `/me/counters/${c.id}?mode=test`)).json().name).toBe('У входа');

    expect((await jwt(m, 'DELETE', `/me/counters/${c.id}?mode=test`)).statusCode).toBe(204);
    expect(errorOf(await jwt(m, 'GET', `/me/counters/${c.id}?mode=test`)).code).toBe('counter_not_found');
    expect(errorOf(await jwt(m, 'DELETE', `/me/counters/${c.id}?mode=test`)).code).toBe('counter_not_found');
    const after = (await jwt(m, 'GET', '/me/counters?mode=test')).json();
    expect(after.data.map((x: { id: string }) => x.id)).toEqual([second.id]);
    // An archived counter takes no QR.
    const qr = await jwt(m, 'POST', `/me/counters/${c.id}/qr?mode=test`, { amount: 100 }, idem());
    expect(errorOf(qr).code).toBe('counter_not_found');
  });

  it('refuse a bad name and a provider account that is not the client’s of the mode', async () => {
    const m = await newMerchant(t.app);
    const other = await newMerchant(t.app);
    const account = await testAccount(m);
    const bad = async (body: object) => errorOf(await jwt(m, 'POST', '/me/counters?mode=test', body));
    expect((await bad({ name: '', provider_account_id: account })).param).toBe('name');
    expect((await bad({ name: 'x'.repeat(101), provider_account_id: account })).param).toBe('name');
    expect((await bad({ provider_account_id: account })).param).toBe('name');
    expect((await bad({ name: 'Касса' })).param).toBe('provider_account_id');
    const foreign = await bad({ name: 'Касса', provider_account_id: await testAccount(other) });
    expect(foreign).toMatchObject({ code: 'invalid_parameter', param: 'provider_account_id' });
    // The client's own test account is not an account of live mode.
    const live = errorOf(await jwt(m, 'POST', '/me/counters', { name: 'Касса', provider_account_id: account }));
    expect(live).toMatchObject({ code: 'invalid_parameter', param: 'provider_account_id' });
    const c = await newCounter(m);
    const patch = await jwt(m, 'PATCH', `/me/counters/${c.id}?mode=test`, { name: '' });
    expect(errorOf(patch).param).toBe('name');
    expect((await jwt(m, 'GET', '/me/counters?mode=test')).json().data).toHaveLength(1);
  });

  it("another tenant's counter is not found on any route", async () => {
    const m = await newMerchant(t.app);
    const other = await newMerchant(t.app);
    const theirs = await newCounter(other);
    const url = `/me/counters/${theirs.id}`;
    for (const [method, path, body, headers] of [
      ['GET', `${url}?mode=test`, undefined, {}],
      ['PATCH', `${url}?mode=test`, { name: 'mine' }, {}],
      ['DELETE', `${url}?mode=test`, undefined, {}],
      ['POST', `${url}/qr?mode=test`, { amount: 100 }, idem()],
      ['GET', `${url}/payments?mode=test`, undefined, {}],
    ] as const) {
      const res = await jwt(m, method, path, body, headers);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(errorOf(res).code).toBe('counter_not_found');
    }
    expect((await jwt(other, 'GET', `${url}?mode=test`)).json().name).toBe('Касса 1');
  });
});

describe('the cashier at a counter', () => {
  it('makes a QR marked with the counter and itself, sees it paid in the day’s list', async () => {
    const m = await newMerchant(t.app);
    const cashier = await newMember(t.app, m, 'cashier');
    const cashierId = await userIdOf(cashier.email);
    const c = await newCounter(m);

    // A cashier signs in and reads who it is: its role, and what it may do.
    const me = await jwt(cashier, 'GET', '/me');
    expect(me.statusCode).toBe(200);
    expect([...me.json().permissions].sort()).toEqual([
      'account.me',
      'account.password',
      'counters.read',
      'counters.use',
    ]);
    // It sees the shop's counters of the mode, the one it works at among them.
    expect((await jwt(cashier, 'GET', '/me/counters?mode=test')).json().data.map((x: { id: string }) => x.id)).toEqual([
      c.id,
    ]);

    const key1 = idem();
    const qr = await jwt(cashier, 'POST', `/me/counters/${c.id}/qr?mode=test`, { amount: 1500, comment: 'Кофе' }, key1);
    expect(qr.statusCode, qr.body).toBe(201);
    const opId = qr.json().operation_id;
    expect(qr.json().qr_token).toBeTruthy();
    // Idempotent like the cabinet's create-qr: the same key answers the same QR, a missing key is refused.
    const again = await jwt(
      cashier,
      'POST',
      `/me/counters/${c.id}/qr?mode=test`,
      { amount: 1500, comment: 'Кофе' },
      key1,
    );
    expect(again.json().operation_id).toBe(opId);
    const noKey = await jwt(cashier, 'POST', `/me/counters/${c.id}/qr?mode=test`, { amount: 1500 });
    expect(noKey.statusCode).toBe(400);
    expect(errorOf(await jwt(cashier, 'POST', `/me/counters/${c.id}/qr?mode=test`, { amount: 0 }, idem())).param).toBe(
      'amount',
    );

    const detail = (await jwt(m, 'GET', `/me/payments/status/${opId}?mode=test`)).json();
    expect(detail).toMatchObject({
      source: 'counter',
      counter_id: c.id,
      cashier_id: cashierId,
      provider_account_id: c.provider_account_id,
      amount: 1500,
      comment: 'Кофе',
    });
    // A cabinet QR names no counter.
    const plain = await jwt(m, 'POST', '/me/payments/create-qr?mode=test', { amount: 700 }, idem());
    const plainDetail = (await jwt(m, 'GET', `/me/payments/status/${plain.json().operation_id}?mode=test`)).json();
    expect(plainDetail).toMatchObject({ source: 'cabinet', counter_id: null, cashier_id: null });

    await pay(t.app, m.testKey, opId);
    const day = await jwt(cashier, 'GET', `/me/counters/${c.id}/payments?mode=test`);
    expect(day.statusCode).toBe(200);
    expect(
      day
        .json()
        .data.map((p: { operation_id: string; status: string; source: string }) => [
          p.operation_id,
          p.status,
          p.source,
        ]),
    ).toEqual([[opId, 'paid', 'counter']]);
    // The accountant accounts for the till: it reads the day too, but makes no QR there.
    const accountant = await newMember(t.app, m, 'accountant');
    expect((await jwt(accountant, 'GET', `/me/counters/${c.id}/payments?mode=test`)).json().data).toHaveLength(1);
    const byAccountant = await jwt(accountant, 'POST', `/me/counters/${c.id}/qr?mode=test`, { amount: 100 }, idem());
    expect(errorOf(byAccountant).code).toBe('forbidden_role');
    // The owner may work the counter as well; its QR names the owner.
    const byOwner = await jwt(m, 'POST', `/me/counters/${c.id}/qr?mode=test`, { amount: 200 }, idem());
    const ownerDetail = (await jwt(m, 'GET', `/me/payments/status/${byOwner.json().operation_id}?mode=test`)).json();
    expect(ownerDetail.cashier_id).toBe((await idsOf(t.runtime.deps.db, m)).userId);
  });

  it('may do nothing else', async () => {
    const m = await newMerchant(t.app);
    const cashier = await newMember(t.app, m, 'cashier');
    const c = await newCounter(m);
    const qr = await jwt(cashier, 'POST', `/me/counters/${c.id}/qr?mode=test`, { amount: 1500 }, idem());
    const opId = qr.json().operation_id;
    await pay(t.app, m.testKey, opId);
    const refused = async (method: Method, url: string, body?: object, headers = {}) => {
      const res = await jwt(cashier, method, url, body, headers);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      return errorOf(res).code;
    };
    expect(await refused('GET', '/me/payments?mode=test')).toBe('forbidden_role');
    expect(await refused('GET', `/me/payments/status/${opId}?mode=test`)).toBe('forbidden_role');
    expect(await refused('POST', `/me/payments/${opId}/refund?mode=test`, { amount: 100 }, idem())).toBe(
      'forbidden_role',
    );
    expect(await refused('POST', '/me/payments/create-qr?mode=test', { amount: 100 }, idem())).toBe('forbidden_role');
    expect(await refused('GET', '/me/webhooks?mode=test')).toBe('forbidden_role');
    expect(await refused('GET', '/me/team')).toBe('forbidden_role');
    expect(await refused('POST', '/me/team/invite', { email: 'x@example.kz', role: 'viewer' })).toBe('not_owner');
    expect(
      await refused('POST', '/me/counters?mode=test', { name: 'Моя', provider_account_id: c.provider_account_id }),
    ).toBe('forbidden_role');
    expect(await refused('PATCH', `/me/counters/${c.id}?mode=test`, { name: 'Моя' })).toBe('forbidden_role');
    expect(await refused('DELETE', `/me/counters/${c.id}?mode=test`)).toBe('forbidden_role');
    // The API's payment list takes a team member's token too (decisions 16's reads): not the cashier's.
    expect(await refused('GET', '/v2/payments?mode=test')).toBe('forbidden_role');
    // Its QR was refunded by nobody: the payment is whole.
    const detail = (await t.app.inject({ method: 'GET', url: `/v2/qr/${opId}`, headers: key(m.testKey) })).json();
    expect(detail).toMatchObject({ status: 'paid', refunded_amount: 0 });
  });

  it('a viewer makes no QR at a counter and reads no counter', async () => {
    const m = await newMerchant(t.app);
    const viewer = await newMember(t.app, m, 'viewer');
    const c = await newCounter(m);
    const qr = await jwt(viewer, 'POST', `/me/counters/${c.id}/qr?mode=test`, { amount: 100 }, idem());
    expect(qr.statusCode).toBe(403);
    expect(errorOf(qr).code).toBe('forbidden_role');
    expect(errorOf(await jwt(viewer, 'GET', '/me/counters?mode=test')).code).toBe('forbidden_role');
    expect(errorOf(await jwt(viewer, 'GET', `/me/counters/${c.id}/payments?mode=test`)).code).toBe('forbidden_role');
  });

  it("the day's list holds today's payments only (Almaty day), newest first", async () => {
    const m = await newMerchant(t.app);
    const cashier = await newMember(t.app, m, 'cashier');
    const c = await newCounter(m);
    const make = async (amount: number) =>
      (await jwt(cashier, 'POST', `/me/counters/${c.id}/qr?mode=test`, { amount }, idem())).json().operation_id;
    const yesterday = await make(100);
    const first = await make(200);
    const second = await make(300);
    // Moves a payment into yesterday: a direct write, as only time can do that.
    await t.runtime.deps.db.query(`UPDATE operations SET created_at = created_at - interval '1 day' WHERE id = $1`, [
      yesterday,
    ]);
    const ids = async (url: string) =>
      (await jwt(cashier, 'GET', url)).json() as { data: { operation_id: string }[]; next_cursor: string | null };
    const all = await ids(`/me/counters/${c.id}/payments?mode=test`);
    expect(all.data.map((p) => p.operation_id)).toEqual([second, first]);
    // Pages are bounded and continue by cursor.
    const one = await ids(`/me/counters/${c.id}/payments?mode=test&limit=1`);
    expect(one.data.map((p) => p.operation_id)).toEqual([second]);
    const next = await ids(`/me/counters/${c.id}/payments?mode=test&limit=1&cursor=${one.next_cursor}`);
    expect(next.data.map((p) => p.operation_id)).toEqual([first]);
    expect(next.next_cursor).toBeNull();
    expect((await jwt(cashier, 'GET', `/me/counters/${c.id}/payments?mode=test&limit=101`)).statusCode).toBe(400);
    // Another counter's payments are not this one's.
    const other = await newCounter(m, 'Касса 2');
    expect((await ids(`/me/counters/${other.id}/payments?mode=test`)).data).toEqual([]);
  });
});
