// Cabinet notifications: list (cursor, newest first), unread counter, read-all, tenants, notify() dedupe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, newMerchant, type Merchant } from '../helpers/factories.ts';
import { notify } from '../../src/domain/notifications/notify.ts';
import { clientIdOf } from '../webhooks/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const get = (m: Merchant, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(m) });

async function seed(m: Merchant, n: number): Promise<number[]> {
  const clientId = await clientIdOf(t.runtime.deps.db, m);
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    ids.push((await t.runtime.deps.db.tx((tx) => notify(tx, clientId, 'plan.limit_near', `Title ${i}`, `Body ${i}`)))!);
  }
  return ids;
}

describe('GET /me/notifications', () => {
  it('starts empty; lists newest first with the documented fields', async () => {
    const m = await newMerchant(t.app);
    expect((await get(m, '/me/notifications')).json()).toEqual({ data: [], next_cursor: null, has_more: false });
    const ids = await seed(m, 2);
    const res = await get(m, '/me/notifications');
    expect(res.statusCode).toBe(200);
    const items = res.json().data;
    expect(items.map((x: { id: number }) => x.id)).toEqual([ids[1], ids[0]]);
    expect(Object.keys(items[0]).sort()).toEqual(['body', 'created_at', 'id', 'read_at', 'title', 'type']);
    expect(items[0]).toMatchObject({ type: 'plan.limit_near', title: 'Title 1', body: 'Body 1', read_at: null });
  });

  it('pages with a cursor and filters unread ones', async () => {
    const m = await newMerchant(t.app);
    const ids = await seed(m, 5);
    const p1 = (await get(m, '/me/notifications?limit=3')).json();
    expect(p1.data.map((x: { id: number }) => x.id)).toEqual([ids[4], ids[3], ids[2]]);
    const p2 = (await get(m, `/me/notifications?limit=3&cursor=${p1.next_cursor}`)).json();
    expect(p2).toMatchObject({ has_more: false, next_cursor: null });
    expect(p2.data.map((x: { id: number }) => x.id)).toEqual([ids[1], ids[0]]);
    expect(errorOf(await get(m, '/me/notifications?limit=101')).code).toBe('limit_too_large');
    expect(errorOf(await get(m, `/me/notifications?unread=true&cursor=${p1.next_cursor}`)).code).toBe('invalid_cursor');
    await t.app.inject({ method: 'POST', url: '/me/notifications/read-all', headers: bearer(m) });
    await seed(m, 1);
    expect((await get(m, '/me/notifications?unread=true')).json().data).toHaveLength(1);
  });
});

describe('unread count and read-all', () => {
  it('counts unread, marks all read, and stays per client', async () => {
    const m = await newMerchant(t.app);
    const other = await newMerchant(t.app);
    await seed(m, 3);
    await seed(other, 1);
    expect((await get(m, '/me/notifications/unread-count')).json()).toEqual({ count: 3 });
    const read = await t.app.inject({ method: 'POST', url: '/me/notifications/read-all', headers: bearer(m) });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ updated: 3 });
    expect((await get(m, '/me/notifications/unread-count')).json()).toEqual({ count: 0 });
    expect(
      (await get(m, '/me/notifications')).json().data.every((x: { read_at: string | null }) => x.read_at !== null),
    ).toBe(true);
    expect((await get(other, '/me/notifications/unread-count')).json()).toEqual({ count: 1 });
    expect((await get(other, '/me/notifications')).json().data).toHaveLength(1);
    const again = await t.app.inject({ method: 'POST', url: '/me/notifications/read-all', headers: bearer(m) });
    expect(again.json()).toEqual({ updated: 0 });
  });

  it('every team role may read and mark read', async () => {
    const m = await newMerchant(t.app);
    await seed(m, 1);
    await t.runtime.deps.db.query(`UPDATE users SET role = 'viewer' WHERE lower(email) = lower($1)`, [m.email]);
    expect((await get(m, '/me/notifications')).statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'POST', url: '/me/notifications/read-all', headers: bearer(m) })).statusCode,
    ).toBe(200);
  });

  it('needs a JWT', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/me/notifications' });
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe('invalid_token');
  });
});

describe('notify()', () => {
  it('writes in the caller’s transaction and deduplicates by key', async () => {
    const m = await newMerchant(t.app);
    const clientId = await clientIdOf(t.runtime.deps.db, m);
    const first = await t.runtime.deps.db.tx((tx) =>
      notify(tx, clientId, 'trial.ending', 'Trial ends soon', 'In 3 days', 'trial_ending:2026-01-01'),
    );
    const dup = await t.runtime.deps.db.tx((tx) =>
      notify(tx, clientId, 'trial.ending', 'Trial ends soon', 'In 3 days', 'trial_ending:2026-01-01'),
    );
    expect(first).toBeTypeOf('number');
    expect(dup).toBeNull();
    await expect(
      t.runtime.deps.db.tx(async (tx) => {
        await notify(tx, clientId, 'plan.limit_near', 'x', 'y');
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect((await get(m, '/me/notifications/unread-count')).json()).toEqual({ count: 1 });
  });
});
