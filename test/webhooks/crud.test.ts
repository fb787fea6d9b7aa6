// Webhook subscriptions through HTTP: create/read/list/edit/delete, validation, tenants, roles, rotation.
import { newMember } from '../helpers/actors.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, impersonationToken, newMerchant } from '../helpers/factories.ts';
import { decryptSecret } from '../../src/crypto.ts';
import { createHook } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ webhooksAllowPrivate: true });
});
afterAll(() => t.close());

const URL_OK = 'https://hooks.example.kz/tolem';
const inject = (m: { access: string }, method: string, url: string, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: bearer(m),
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

describe('POST /me/webhooks', () => {
  it('creates a live webhook with a generated secret shown once', async () => {
    const m = await newMerchant(t.app);
    const res = await inject(m, 'POST', '/me/webhooks', {
      url: URL_OK,
      events: ['payment.completed', 'payment.refunded'],
      description: 'shop',
    });
    expect(res.statusCode).toBe(201);
    const w = res.json();
    expect(w).toMatchObject({
      url: URL_OK,
      events: ['payment.completed', 'payment.refunded'],
      description: 'shop',
      is_active: true,
      mode: 'live',
      secret_version: 1,
      failing_since: null,
      disabled_reason: null,
    });
    expect(Number.isInteger(w.id)).toBe(true);
    expect(w.secret).toMatch(/^whsec_[A-Za-z0-9]{43}=$/);
    expect(Buffer.from(w.secret.slice(6), 'base64url')).toHaveLength(32);
    expect(() => new Webhook(w.secret)).not.toThrow();
    expect(w.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(w.secret_revealed_at).toBeTruthy();
    // Stored sealed, never in clear.
    const row = (
      await t.runtime.deps.db.query<{ secret_enc: string }>('SELECT secret_enc FROM webhooks WHERE id = $1', [w.id])
    ).rows[0];
    expect(row.secret_enc).not.toContain(w.secret.slice(6));
    expect(decryptSecret('test-app-secret', row.secret_enc)).toBe(w.secret);
    // Not shown again by reads.
    const one = await inject(m, 'GET', `/me/webhooks/${w.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().secret).toBeUndefined();
    expect(one.body).not.toContain(w.secret);
    const list = await inject(m, 'GET', '/me/webhooks');
    expect(list.body).not.toContain(w.secret);
  });

  it('takes the mode from ?mode=test and lists per mode', async () => {
    const m = await newMerchant(t.app);
    const test = await createHook(t.app, m, { url: URL_OK, events: ['payment.completed'] }, '?mode=test');
    expect(test.mode).toBe('test');
    const live = await createHook(t.app, m, { url: URL_OK, events: ['payment.completed'] });
    const liveList = (await inject(m, 'GET', '/me/webhooks')).json().data;
    expect(liveList.map((w: { id: number }) => w.id)).toEqual([live.id]);
    const testList = (await inject(m, 'GET', '/me/webhooks?mode=test')).json().data;
    expect(testList.map((w: { id: number }) => w.id)).toEqual([test.id]);
    expect(testList[0]).toMatchObject({ last_delivery_at: null, last_delivery_status: null });
  });

  it('accepts a merchant secret of the standard form and rejects others', async () => {
    const m = await newMerchant(t.app);
    const own = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const w = await createHook(t.app, m, { url: URL_OK, events: ['webhook.test'], secret: own });
    expect(w.secret).toBe(own);
    const b64url = `whsec_${Buffer.alloc(32, 0xfb).toString('base64url')}`; // '-' and '_', no padding
    const unpadded = `whsec_${Buffer.alloc(32, 7).toString('base64').replace(/=+$/, '')}`;
    for (const secret of [
      'plain-secret-value-long-enough',
      'whsec_!!!!',
      `whsec_${Buffer.alloc(8).toString('base64')}`,
      b64url,
      unpadded,
    ]) {
      const res = await inject(m, 'POST', '/me/webhooks', { url: URL_OK, events: ['webhook.test'], secret });
      expect(res.statusCode, secret).toBe(400);
      expect(errorOf(res)).toMatchObject({ code: 'invalid_parameter', param: 'secret' });
    }
  });

  it('validates events: unknown, empty or missing', async () => {
    const m = await newMerchant(t.app);
    for (const events of [
      ['payment.completed', 'payment.teleported'],
      ['webhook.delivery_failed'],
      ['payment_link.paid'],
    ]) {
      const res = await inject(m, 'POST', '/me/webhooks', { url: URL_OK, events });
      expect(res.statusCode, JSON.stringify(events)).toBe(400);
      expect(errorOf(res)).toMatchObject({ code: 'unknown_event', param: 'events' });
      // The message lists the valid names.
      for (const name of [
        'payment.completed',
        'payment.cancelled',
        'payment.expired',
        'payment.refunded',
        'webhook.test',
      ]) {
        expect(errorOf(res).message).toContain(name);
      }
    }
    // An empty list is a malformed input, not an unknown name (#16).
    const empty = await inject(m, 'POST', '/me/webhooks', { url: URL_OK, events: [] });
    expect(errorOf(empty)).toMatchObject({ code: 'invalid_parameter', param: 'events' });
    const emptyPatch = await inject(
      m,
      'PATCH',
      `/me/webhooks/${(await createHook(t.app, m, { url: URL_OK, events: ['payment.completed'] })).id}`,
      { events: [] },
    );
    expect(errorOf(emptyPatch)).toMatchObject({ code: 'invalid_parameter', param: 'events' });
    const missing = await inject(m, 'POST', '/me/webhooks', { url: URL_OK });
    expect(errorOf(missing)).toMatchObject({ code: 'invalid_parameter', param: 'events' });
    const dup = await createHook(t.app, m, { url: URL_OK, events: ['payment.expired', 'payment.expired'] });
    expect(dup.events).toEqual(['payment.expired']);
  });

  it('validates the URL: https, length, absolute, no private literal unless allowed', async () => {
    const m = await newMerchant(t.app);
    const long = `https://example.kz/${'a'.repeat(2084 - 'https://example.kz/'.length)}`;
    expect(long).toHaveLength(2084);
    const exact = long.slice(0, 2083);
    expect((await inject(m, 'POST', '/me/webhooks', { url: exact, events: ['webhook.test'] })).statusCode).toBe(201);
    t.config.webhooksAllowPrivate = false;
    try {
      for (const url of [
        'http://example.kz/hook',
        long,
        'not a url',
        '/relative',
        'ftp://example.kz/',
        'https://127.0.0.1/x',
        'https://[::1]/x',
        'https://10.0.0.8/x',
        'https://169.254.169.254/latest',
        'https://[::ffff:127.0.0.1]/x',
        'https://localhost/x',
      ]) {
        const res = await inject(m, 'POST', '/me/webhooks', { url, events: ['payment.completed'] });
        expect(res.statusCode, url).toBe(400);
        expect(errorOf(res), url).toMatchObject({ code: 'invalid_parameter', param: 'url' });
      }
      // A developer's local receiver is told where to go next.
      for (const url of [
        'http://localhost:3000/webhooks',
        'https://localhost:3000/webhooks',
        'http://127.0.0.1:3000/webhooks',
      ]) {
        const local = errorOf(await inject(m, 'POST', '/me/webhooks', { url, events: ['payment.completed'] })).message;
        expect(local, url).toContain('tolem listen --forward-to');
        expect(local, url).toContain('WEBHOOKS_ALLOW_PRIVATE=true');
      }
    } finally {
      t.config.webhooksAllowPrivate = true;
    }
    // With WEBHOOKS_ALLOW_PRIVATE, plain http and loopback are accepted (local development).
    expect(
      (await inject(m, 'POST', '/me/webhooks', { url: 'http://127.0.0.1:9/x', events: ['webhook.test'] })).statusCode,
    ).toBe(201);
    // The metadata address stays refused even then.
    const meta = await inject(m, 'POST', '/me/webhooks', {
      url: 'http://169.254.169.254/latest',
      events: ['webhook.test'],
    });
    expect(errorOf(meta)).toMatchObject({ code: 'invalid_parameter', param: 'url' });
  });

  it('rejects unknown fields and a mode in the body', async () => {
    const m = await newMerchant(t.app);
    const res = await inject(m, 'POST', '/me/webhooks', { url: URL_OK, events: ['webhook.test'], mode: 'test' });
    expect(errorOf(res)).toMatchObject({ code: 'invalid_parameter', param: 'mode' });
  });

  it('keeps at most 20 webhooks per mode', async () => {
    const m = await newMerchant(t.app);
    for (let i = 0; i < 20; i++) await createHook(t.app, m, { url: `${URL_OK}/${i}`, events: ['webhook.test'] });
    const res = await inject(m, 'POST', '/me/webhooks', { url: URL_OK, events: ['webhook.test'] });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe('webhook_limit_reached');
    expect(
      (await inject(m, 'POST', '/me/webhooks?mode=test', { url: URL_OK, events: ['webhook.test'] })).statusCode,
    ).toBe(201);
    expect((await inject(m, 'GET', '/me/webhooks')).json().data).toHaveLength(20);
  });
});

describe('GET, PATCH, DELETE /me/webhooks/{id}', () => {
  it('edits url, events, description and is_active', async () => {
    const m = await newMerchant(t.app);
    const w = await createHook(t.app, m, { url: URL_OK, events: ['payment.completed'] });
    const res = await inject(m, 'PATCH', `/me/webhooks/${w.id}`, {
      url: `${URL_OK}/v2`,
      events: ['payment.cancelled'],
      description: 'new',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      url: `${URL_OK}/v2`,
      events: ['payment.cancelled'],
      description: 'new',
      is_active: true,
    });
    expect(res.json().secret).toBeUndefined();
    const off = await inject(m, 'PATCH', `/me/webhooks/${w.id}`, { is_active: false, description: null });
    expect(off.json()).toMatchObject({ is_active: false, disabled_reason: 'manual', description: null });
    const bad = await inject(m, 'PATCH', `/me/webhooks/${w.id}`, { events: ['nope'] });
    expect(errorOf(bad)).toMatchObject({ code: 'unknown_event', param: 'events' });
    const secret = await inject(m, 'PATCH', `/me/webhooks/${w.id}`, { secret: 'whsec_x' });
    expect(errorOf(secret)).toMatchObject({ code: 'invalid_parameter', param: 'secret' });
  });

  it('enable clears failing_since; disable switches off', async () => {
    const m = await newMerchant(t.app);
    const w = await createHook(t.app, m, { url: URL_OK, events: ['payment.completed'] });
    const off = await inject(m, 'POST', `/me/webhooks/${w.id}/disable`);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ is_active: false, disabled_reason: 'manual' });
    await t.runtime.deps.db.query(`UPDATE webhooks SET failing_since = now() - interval '2 hours' WHERE id = $1`, [
      w.id,
    ]);
    expect((await inject(m, 'GET', `/me/webhooks/${w.id}`)).json().failing_since).not.toBeNull();
    const on = await inject(m, 'POST', `/me/webhooks/${w.id}/enable`);
    expect(on.json()).toMatchObject({ is_active: true, failing_since: null, disabled_reason: null });
  });

  it('DELETE answers 204, then the webhook is gone', async () => {
    const m = await newMerchant(t.app);
    const w = await createHook(t.app, m, { url: URL_OK, events: ['payment.completed'] });
    const del = await inject(m, 'DELETE', `/me/webhooks/${w.id}`);
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    const again = await inject(m, 'GET', `/me/webhooks/${w.id}`);
    expect(again.statusCode).toBe(404);
    expect(errorOf(again).code).toBe('webhook_not_found');
    expect((await inject(m, 'DELETE', `/me/webhooks/${w.id}`)).statusCode).toBe(404);
  });

  it('another client’s webhook is 404 webhook_not_found on every route; so is a malformed id', async () => {
    const owner = await newMerchant(t.app);
    const other = await newMerchant(t.app);
    const w = await createHook(t.app, owner, { url: URL_OK, events: ['payment.completed'] });
    const calls: [string, string, unknown?][] = [
      ['GET', `/me/webhooks/${w.id}`],
      ['PATCH', `/me/webhooks/${w.id}`, { description: 'x' }],
      ['DELETE', `/me/webhooks/${w.id}`],
      ['POST', `/me/webhooks/${w.id}/rotate-secret`, {}],
      ['POST', `/me/webhooks/${w.id}/enable`],
      ['POST', `/me/webhooks/${w.id}/disable`],
      ['POST', `/me/webhooks/${w.id}/test`],
      ['GET', `/me/webhooks/${w.id}/deliveries`],
      ['POST', `/me/webhooks/${w.id}/deliveries/1/retry`],
      ['GET', '/me/webhooks/abc'],
      ['GET', '/me/webhooks/99999999999999999999'],
      ['GET', '/me/webhooks/0'],
    ];
    for (const [method, url, payload] of calls) {
      const res = await inject(other, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(errorOf(res).code, `${method} ${url}`).toBe('webhook_not_found');
    }
    expect((await inject(other, 'GET', '/me/webhooks')).json().data).toEqual([]);
    // Untouched for its owner.
    expect((await inject(owner, 'GET', `/me/webhooks/${w.id}`)).json()).toMatchObject({
      is_active: true,
      description: null,
    });
  });
});

describe('roles and impersonation', () => {
  it('viewer, support and accountant read but cannot change (403 forbidden_role); admin manages', async () => {
    const m = await newMerchant(t.app);
    const w = await createHook(t.app, m, { url: URL_OK, events: ['payment.completed'] });
    for (const role of ['viewer', 'support', 'accountant'] as const) {
      const member = await newMember(t.app, m, role);
      expect((await inject(member, 'GET', '/me/webhooks')).statusCode, role).toBe(200);
      expect((await inject(member, 'GET', `/me/webhooks/${w.id}`)).statusCode, role).toBe(200);
      expect((await inject(member, 'GET', `/me/webhooks/${w.id}/deliveries`)).statusCode, role).toBe(200);
      const changes: [string, string, unknown?][] = [
        ['POST', '/me/webhooks', { url: URL_OK, events: ['webhook.test'] }],
        ['PATCH', `/me/webhooks/${w.id}`, { description: 'x' }],
        ['DELETE', `/me/webhooks/${w.id}`],
        ['POST', `/me/webhooks/${w.id}/rotate-secret`, {}],
        ['POST', `/me/webhooks/${w.id}/enable`],
        ['POST', `/me/webhooks/${w.id}/disable`],
        ['POST', `/me/webhooks/${w.id}/test`],
        ['POST', `/me/webhooks/${w.id}/deliveries/1/retry`],
      ];
      for (const [method, url, payload] of changes) {
        const res = await inject(member, method, url, payload);
        expect(res.statusCode, `${role} ${method} ${url}`).toBe(403);
        expect(errorOf(res).code).toBe('forbidden_role');
      }
    }
    const admin = await newMember(t.app, m, 'admin');
    expect((await inject(admin, 'PATCH', `/me/webhooks/${w.id}`, { description: 'by admin' })).statusCode).toBe(200);
    expect((await inject(admin, 'POST', `/me/webhooks/${w.id}/rotate-secret`, {})).statusCode).toBe(200);
  });

  it('rotate-secret is blocked under partner impersonation; other changes are not', async () => {
    const m = await newMerchant(t.app);
    const w = await createHook(t.app, m, { url: URL_OK, events: ['payment.completed'] });
    const { access } = await impersonationToken(t.runtime.deps, m);
    const as = { ...m, access };
    const rotate = await inject(as, 'POST', `/me/webhooks/${w.id}/rotate-secret`, {});
    expect(rotate.statusCode).toBe(403);
    expect(errorOf(rotate).code).toBe('impersonation_blocked_action');
    expect((await inject(as, 'PATCH', `/me/webhooks/${w.id}`, { description: 'partner' })).statusCode).toBe(200);
  });
});

describe('POST /me/webhooks/{id}/rotate-secret', () => {
  it('returns a new secret once, bumps secret_version, keeps the previous one for the grace period', async () => {
    const m = await newMerchant(t.app);
    const w = await createHook(t.app, m, { url: URL_OK, events: ['payment.completed'] });
    const res = await inject(m, 'POST', `/me/webhooks/${w.id}/rotate-secret`, { grace_period_seconds: 3600 });
    expect(res.statusCode).toBe(200);
    const r = res.json();
    expect(r.secret).toMatch(/^whsec_/);
    expect(r.secret).not.toBe(w.secret);
    expect(r.secret_version).toBe(2);
    expect(new Date(r.secret_revealed_at).getTime()).toBeGreaterThanOrEqual(
      new Date(w.secret_revealed_at as string).getTime(),
    );
    const row = (
      await t.runtime.deps.db.query<{ previous_secret_enc: string; previous_secret_expires_at: Date }>(
        'SELECT previous_secret_enc, previous_secret_expires_at FROM webhooks WHERE id = $1',
        [w.id],
      )
    ).rows[0];
    expect(decryptSecret('test-app-secret', row.previous_secret_enc)).toBe(w.secret);
    const left = row.previous_secret_expires_at.getTime() - Date.now();
    expect(left).toBeGreaterThan(3500_000);
    expect(left).toBeLessThan(3700_000);
    // No body: default grace of 24 hours.
    const again = await inject(m, 'POST', `/me/webhooks/${w.id}/rotate-secret`);
    expect(again.json().secret_version).toBe(3);
    expect((await inject(m, 'GET', `/me/webhooks/${w.id}`)).json().secret).toBeUndefined();
  });

  it('grace_period_seconds is 0 to 604800', async () => {
    const m = await newMerchant(t.app);
    const w = await createHook(t.app, m, { url: URL_OK, events: ['payment.completed'] });
    for (const g of [-1, 604801, 1.5, '60']) {
      const res = await inject(m, 'POST', `/me/webhooks/${w.id}/rotate-secret`, { grace_period_seconds: g });
      expect(res.statusCode, String(g)).toBe(400);
      expect(errorOf(res).param).toBe('grace_period_seconds');
    }
    const zero = await inject(m, 'POST', `/me/webhooks/${w.id}/rotate-secret`, { grace_period_seconds: 0 });
    expect(zero.statusCode).toBe(200);
    const row = (await t.runtime.deps.db.query('SELECT previous_secret_enc FROM webhooks WHERE id = $1', [w.id]))
      .rows[0];
    expect(row.previous_secret_enc).toBeNull();
  });
});

describe('OpenAPI', () => {
  it('documents every webhook route with BearerAuth', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const p of [
      '/me/webhooks',
      '/me/webhooks/{id}',
      '/me/webhooks/{id}/rotate-secret',
      '/me/webhooks/{id}/test',
      '/me/webhooks/{id}/deliveries',
      '/me/webhooks/{id}/deliveries/{delivery_id}/retry',
      '/me/notifications/unread-count',
    ]) {
      expect(doc.paths[p], p).toBeTruthy();
      for (const op of Object.values<{ security: unknown[] }>(doc.paths[p]))
        expect(op.security).toEqual([{ BearerAuth: [] }]);
    }
  });
});
