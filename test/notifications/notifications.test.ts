// Cabinet notifications: list (cursor, newest first), unread counter, read-all, tenants, notify() dedupe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { errorOf, newMerchant, type Merchant } from '../helpers/factories.ts';
import { newMember } from '../helpers/actors.ts';
import { api } from '../helpers/api.ts';
import { notify } from '../../src/domain/notifications/notify.ts';
import { clientIdOf } from '../webhooks/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function seed(m: Merchant, n: number): Promise<number[]> {
  const clientId = await clientIdOf(t.runtime.deps.db, m);
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const params = { plan: 'trial', used: 24 + i, limit: 30, month: '2026-11' };
    const n = { type: 'plan.limit_near' as const, params, title: `Title ${i}`, body: `Body ${i}` };
    ids.push((await t.runtime.deps.db.tx((tx) => notify(tx, clientId, n)))!);
  }
  return ids;
}

describe('GET /me/notifications', () => {
  it('starts empty; lists newest first with the documented fields', async () => {
    const m = await newMerchant(t.app);
    expect((await api(t.app, m).get('/me/notifications')).body).toEqual({
      data: [],
      next_cursor: null,
      has_more: false,
    });
    const ids = await seed(m, 2);
    const res = await api(t.app, m).get('/me/notifications');
    expect(res.status).toBe(200);
    const items = res.body.data;
    expect(items.map((x: { id: number }) => x.id)).toEqual([ids[1], ids[0]]);
    expect(Object.keys(items[0]).sort()).toEqual(['body', 'created_at', 'id', 'params', 'read_at', 'title', 'type']);
    expect(items[0]).toMatchObject({
      type: 'plan.limit_near',
      title: 'Title 1',
      body: 'Body 1',
      params: { plan: 'trial', used: 25, limit: 30, month: '2026-11' },
      read_at: null,
    });
  });

  it('pages with a cursor and filters unread ones', async () => {
    const m = await newMerchant(t.app);
    const ids = await seed(m, 5);
    const p1 = (await api(t.app, m).get('/me/notifications?limit=3')).body;
    expect(p1.data.map((x: { id: number }) => x.id)).toEqual([ids[4], ids[3], ids[2]]);
    const p2 = (await api(t.app, m).get(`/me/notifications?limit=3&cursor=${p1.next_cursor}`)).body;
    expect(p2).toMatchObject({ has_more: false, next_cursor: null });
    expect(p2.data.map((x: { id: number }) => x.id)).toEqual([ids[1], ids[0]]);
    expect(errorOf(await api(t.app, m).get('/me/notifications?limit=101')).code).toBe('limit_too_large');
    expect(errorOf(await api(t.app, m).get(`/me/notifications?unread=true&cursor=${p1.next_cursor}`)).code).toBe(
      'invalid_cursor',
    );
    await api(t.app, m).post('/me/notifications/read-all');
    await seed(m, 1);
    expect((await api(t.app, m).get('/me/notifications?unread=true')).body.data).toHaveLength(1);
  });
});

describe('unread count and read-all', () => {
  it('counts unread, marks all read, and stays per client', async () => {
    const m = await newMerchant(t.app);
    const other = await newMerchant(t.app);
    await seed(m, 3);
    await seed(other, 1);
    expect((await api(t.app, m).get('/me/notifications/unread-count')).body).toEqual({ count: 3 });
    const read = await api(t.app, m).post('/me/notifications/read-all');
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ updated: 3 });
    expect((await api(t.app, m).get('/me/notifications/unread-count')).body).toEqual({ count: 0 });
    expect(
      (await api(t.app, m).get('/me/notifications')).body.data.every(
        (x: { read_at: string | null }) => x.read_at !== null,
      ),
    ).toBe(true);
    expect((await api(t.app, other).get('/me/notifications/unread-count')).body).toEqual({ count: 1 });
    expect((await api(t.app, other).get('/me/notifications')).body.data).toHaveLength(1);
    const again = await api(t.app, m).post('/me/notifications/read-all');
    expect(again.body).toEqual({ updated: 0 });
  });

  it('every team role may read and mark read', async () => {
    const m = await newMerchant(t.app);
    await seed(m, 1);
    const viewer = await newMember(t.app, m, 'viewer');
    expect((await api(t.app, viewer).get('/me/notifications')).status).toBe(200);
    expect((await api(t.app, viewer).post('/me/notifications/read-all')).status).toBe(200);
  });

  it('needs a JWT', async () => {
    const res = await api(t.app).get('/me/notifications');
    expect(res.status).toBe(401);
    expect(errorOf(res).code).toBe('invalid_token');
  });
});

describe('notify()', () => {
  it('writes in the caller’s transaction and deduplicates by key', async () => {
    const m = await newMerchant(t.app);
    const clientId = await clientIdOf(t.runtime.deps.db, m);
    const ending = {
      type: 'trial.ending' as const,
      params: { ends_at: '2026-01-01T00:00:00.000Z' },
      title: 'Trial ends soon',
      body: 'In 3 days',
      dedupeKey: 'trial_ending:2026-01-01',
    };
    const first = await t.runtime.deps.db.tx((tx) => notify(tx, clientId, ending));
    const dup = await t.runtime.deps.db.tx((tx) => notify(tx, clientId, ending));
    expect(first).toBeTypeOf('number');
    expect(dup).toBeNull();
    await expect(
      t.runtime.deps.db.tx(async (tx) => {
        const params = { plan: 'trial', used: 24, limit: 30, month: '2026-11' };
        await notify(tx, clientId, { type: 'plan.limit_near', params, title: 'x', body: 'y' });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect((await api(t.app, m).get('/me/notifications/unread-count')).body).toEqual({ count: 1 });
  });
});
