// Idempotency-Key: replay, conflicts, scope, 5xx not stored, and 50 concurrent identical requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { errorOf, newMerchant } from '../helpers/factories.ts';
import { pruneIdempotencyKeys } from '../../src/jobs/retention.ts';
import { requestFingerprint } from '../../src/http/plugins/idempotency.ts';
import { api } from '../helpers/api.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function countOps(apiKey: string): Promise<number> {
  const res = await api(t.app, { apiKey }).get('/v2/payments?limit=100');
  return res.body.data.length;
}

describe('idempotency', () => {
  it('replays the first response with Idempotent-Replayed: true', async () => {
    const m = await newMerchant(t.app);
    const k = randomUUID();
    const first = await api(t.app, { apiKey: m.testKey }).post('/v2/qr', {
      body: { amount: 1200, comment: 'a' },
      headers: { 'idempotency-key': k },
    });
    const again = await api(t.app, { apiKey: m.testKey }).post('/v2/qr', {
      body: { comment: 'a', amount: 1200 },
      headers: { 'idempotency-key': k },
    }); // same body, other key order
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body).toEqual(first.body);
    expect(await countOps(m.testKey)).toBe(1);
  });

  it('another spelling of the same path is the same request', async () => {
    const m = await newMerchant(t.app);
    const k = randomUUID();
    const first = await api(t.app, { apiKey: m.testKey }).post('/v2/qr', {
      body: { amount: 700 },
      headers: { 'idempotency-key': k },
    });
    for (const url of ['/v2/qr/', '/v2/qr?x=1']) {
      const again = await api(t.app, { apiKey: m.testKey }).post(url as '/v2/qr', {
        body: { amount: 700 },
        headers: { 'idempotency-key': k },
      });
      expect(again.status, url).toBe(201);
      expect(again.headers['idempotent-replayed'], url).toBe('true');
      expect(again.body.operation_id).toBe(first.body.operation_id);
    }
    const inv = (
      await api(t.app, { apiKey: m.testKey }).post('/v2/invoices', {
        body: { phone: '+77012345678', amount: 100 },
        headers: { 'idempotency-key': randomUUID() },
      })
    ).body;
    const ck = randomUUID();
    const c1 = await api(t.app, { apiKey: m.testKey }).post(`/v2/invoices/${inv.operation_id}/cancel`, {
      body: {},
      headers: { 'idempotency-key': ck },
    });
    const c2 = await api(t.app, { apiKey: m.testKey }).post(
      `/v2/invoices/${inv.operation_id.replace('_', '%5F')}/cancel`,
      { body: {}, headers: { 'idempotency-key': ck } },
    );
    expect(c1.status).toBe(200);
    expect(c2.headers['idempotent-replayed']).toBe('true');
    expect(await countOps(m.testKey)).toBe(2);
  });

  it('the same key with a different body is 409 idempotency_conflict', async () => {
    const m = await newMerchant(t.app);
    const k = randomUUID();
    await api(t.app, { apiKey: m.testKey }).post('/v2/qr', {
      body: { amount: 1200 },
      headers: { 'idempotency-key': k },
    });
    const res = await api(t.app, { apiKey: m.testKey }).post('/v2/qr', {
      body: { amount: 1300 },
      headers: { 'idempotency-key': k },
    });
    expect(res.status).toBe(409);
    expect(errorOf(res)).toMatchObject({ code: 'idempotency_conflict', type: 'api_error' });
    expect(await countOps(m.testKey)).toBe(1);
  });

  it('is scoped per client, mode and path', async () => {
    const m = await newMerchant(t.app);
    const other = await newMerchant(t.app);
    const k = randomUUID();
    expect(
      (
        await api(t.app, { apiKey: m.testKey }).post('/v2/qr', {
          body: { amount: 100 },
          headers: { 'idempotency-key': k },
        })
      ).status,
    ).toBe(201);
    const otherClient = await api(t.app, { apiKey: other.testKey }).post('/v2/qr', {
      body: { amount: 100 },
      headers: { 'idempotency-key': k },
    });
    expect(otherClient.status).toBe(201);
    expect(otherClient.headers['idempotent-replayed']).toBeUndefined();
    const otherPath = await api(t.app, { apiKey: m.testKey }).post('/v2/invoices', {
      body: { phone: '+77012345678', amount: 100 },
      headers: { 'idempotency-key': k },
    });
    expect(otherPath.status).toBe(201);
  });

  it('stores 4xx outcomes, so a replay of a bad request stays bad', async () => {
    const m = await newMerchant(t.app);
    const k = randomUUID();
    const first = await api(t.app, { apiKey: m.testKey }).post('/v2/qr', {
      payload: { amount: 100, items: [{ name: 'x', price: 50 }] },
      headers: { 'idempotency-key': k },
    });
    expect(first.status).toBe(400);
    const again = await api(t.app, { apiKey: m.testKey }).post('/v2/qr', {
      payload: { amount: 100, items: [{ name: 'x', price: 50 }] },
      headers: { 'idempotency-key': k },
    });
    expect(again.status).toBe(400);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('does not store 5xx: the same key works once the provider is back', async () => {
    const m = await newMerchant(t.app);
    const k = randomUUID();
    const sandbox = t.runtime.deps.providers.sandbox;
    const original = sandbox.createQr.bind(sandbox);
    sandbox.createQr = async () => {
      throw new (await import('../../src/providers/types.ts')).ProviderUnavailable('down');
    };
    try {
      const down = await api(t.app, { apiKey: m.testKey }).post('/v2/qr', {
        body: { amount: 100 },
        headers: { 'idempotency-key': k },
      });
      expect(down.status).toBe(502);
      expect(errorOf(down)).toMatchObject({ code: 'provider_error', type: 'proxy_error', category: 'temporary' });
    } finally {
      sandbox.createQr = original;
    }
    const up = await api(t.app, { apiKey: m.testKey }).post('/v2/qr', {
      body: { amount: 100 },
      headers: { 'idempotency-key': k },
    });
    expect(up.status).toBe(201);
    expect(up.headers['idempotent-replayed']).toBeUndefined();
    expect(await countOps(m.testKey)).toBe(1);
  });

  it('rejects keys that are too long', async () => {
    const m = await newMerchant(t.app);
    const res = await api(t.app, { apiKey: m.testKey }).post('/v2/qr', {
      body: { amount: 100 },
      headers: { 'idempotency-key': 'k'.repeat(256) },
    });
    expect(res.status).toBe(400);
    expect(errorOf(res).param).toBe('Idempotency-Key');
  });

  it('a request still running is 409, and a dead holder’s key is taken over after its lease', async () => {
    const m = await newMerchant(t.app);
    const k = randomUUID();
    const { deps } = t.runtime;
    const clientId = (
      await deps.db.query<{ client_id: number }>('SELECT client_id FROM users WHERE email = $1', [m.email])
    ).rows[0].client_id;
    // A holder that claimed the key for this very request and has not finished (or died).
    await deps.db.query(
      `INSERT INTO idempotency_keys (client_id, mode, method, path, key, fingerprint, state, locked_until)
       VALUES ($1, 'test', 'POST', '/v2/qr', $2, $3, 'running', now() + interval '1 minute')`,
      [clientId, k, requestFingerprint(undefined, { amount: 100 })],
    );
    const running = await api(t.app, { apiKey: m.testKey }).post('/v2/qr', {
      body: { amount: 100 },
      headers: { 'idempotency-key': k },
    });
    expect(running.status).toBe(409);
    expect(errorOf(running)).toMatchObject({
      code: 'idempotency_conflict',
      message: expect.stringMatching(/still running/),
    });
    expect(await countOps(m.testKey)).toBe(0);
    // Its lease runs out: the key is taken over and the request goes through, once.
    await deps.db.query(`UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE key = $1`, [k]);
    const takeover = await api(t.app, { apiKey: m.testKey }).post('/v2/qr', {
      body: { amount: 100 },
      headers: { 'idempotency-key': k },
    });
    expect(takeover.status).toBe(201);
    expect(await countOps(m.testKey)).toBe(1);
  });

  it('50 concurrent identical requests create exactly one operation', async () => {
    const m = await newMerchant(t.app);
    const k = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        api(t.app, { apiKey: m.testKey }).post('/v2/qr', { body: { amount: 4242 }, headers: { 'idempotency-key': k } }),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    const conflicts = results.filter((r) => r.status === 409);
    expect(created.length + conflicts.length).toBe(50);
    expect(created.length).toBeGreaterThanOrEqual(1);
    const ids = new Set(created.map((r) => r.body.operation_id));
    expect(ids.size).toBe(1);
    conflicts.forEach((r) => expect(errorOf(r).code).toBe('idempotency_conflict'));
    expect(await countOps(m.testKey)).toBe(1);
    // Afterwards the key replays the one operation.
    const replay = await api(t.app, { apiKey: m.testKey }).post('/v2/qr', {
      body: { amount: 4242 },
      headers: { 'idempotency-key': k },
    });
    expect(replay.body.operation_id).toBe([...ids][0]);
  });

  it('keys older than 24 h are pruned', async () => {
    const m = await newMerchant(t.app);
    const k = randomUUID();
    await api(t.app, { apiKey: m.testKey }).post('/v2/qr', {
      body: { amount: 100 },
      headers: { 'idempotency-key': k },
    });
    // Moving time: the key is a day and an hour old.
    await t.runtime.deps.db.query(
      `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1`,
      [k],
    );
    expect(await pruneIdempotencyKeys(t.runtime.deps)).toBeGreaterThanOrEqual(1);
    const again = await api(t.app, { apiKey: m.testKey }).post('/v2/qr', {
      body: { amount: 100 },
      headers: { 'idempotency-key': k },
    });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  });
});
