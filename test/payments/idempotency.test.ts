// Idempotency-Key: replay, conflicts, scope, 5xx not stored, and 50 concurrent identical requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { errorOf, key, newMerchant } from '../helpers/factories.ts';
import { pruneIdempotencyKeys } from '../../src/jobs/retention.ts';
import { requestFingerprint } from '../../src/http/plugins/idempotency.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const post = (apiKey: string, k: string, payload: unknown, url = '/v2/qr') =>
  t.app.inject({ method: 'POST', url, headers: { ...key(apiKey), 'idempotency-key': k }, payload: payload as object });

async function countOps(apiKey: string): Promise<number> {
  const res = await t.app.inject({ method: 'GET', url: '/v2/payments?limit=100', headers: key(apiKey) });
  return res.json().data.length;
}

describe('idempotency', () => {
  it('replays the first response with Idempotent-Replayed: true', async () => {
    const m = await newMerchant(t.app);
    const k = randomUUID();
    const first = await post(m.testKey, k, { amount: 1200, comment: 'a' });
    const again = await post(m.testKey, k, { comment: 'a', amount: 1200 }); // same body, other key order
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.json()).toEqual(first.json());
    expect(await countOps(m.testKey)).toBe(1);
  });

  it('another spelling of the same path is the same request', async () => {
    const m = await newMerchant(t.app);
    const k = randomUUID();
    const first = await post(m.testKey, k, { amount: 700 });
    for (const url of ['/v2/qr/', '/v2/qr?x=1']) {
      const again = await post(m.testKey, k, { amount: 700 }, url);
      expect(again.statusCode, url).toBe(201);
      expect(again.headers['idempotent-replayed'], url).toBe('true');
      expect(again.json().operation_id).toBe(first.json().operation_id);
    }
    const inv = (await post(m.testKey, randomUUID(), { phone: '+77012345678', amount: 100 }, '/v2/invoices')).json();
    const ck = randomUUID();
    const c1 = await post(m.testKey, ck, {}, `/v2/invoices/${inv.operation_id}/cancel`);
    const c2 = await post(m.testKey, ck, {}, `/v2/invoices/${inv.operation_id.replace('_', '%5F')}/cancel`);
    expect(c1.statusCode).toBe(200);
    expect(c2.headers['idempotent-replayed']).toBe('true');
    expect(await countOps(m.testKey)).toBe(2);
  });

  it('the same key with a different body is 409 idempotency_conflict', async () => {
    const m = await newMerchant(t.app);
    const k = randomUUID();
    await post(m.testKey, k, { amount: 1200 });
    const res = await post(m.testKey, k, { amount: 1300 });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res)).toMatchObject({ code: 'idempotency_conflict', type: 'api_error' });
    expect(await countOps(m.testKey)).toBe(1);
  });

  it('is scoped per client, mode and path', async () => {
    const m = await newMerchant(t.app);
    const other = await newMerchant(t.app);
    const k = randomUUID();
    expect((await post(m.testKey, k, { amount: 100 })).statusCode).toBe(201);
    const otherClient = await post(other.testKey, k, { amount: 100 });
    expect(otherClient.statusCode).toBe(201);
    expect(otherClient.headers['idempotent-replayed']).toBeUndefined();
    const otherPath = await post(m.testKey, k, { phone: '+77012345678', amount: 100 }, '/v2/invoices');
    expect(otherPath.statusCode).toBe(201);
  });

  it('stores 4xx outcomes, so a replay of a bad request stays bad', async () => {
    const m = await newMerchant(t.app);
    const k = randomUUID();
    const first = await post(m.testKey, k, { amount: 100, items: [{ name: 'x', price: 50 }] });
    expect(first.statusCode).toBe(400);
    const again = await post(m.testKey, k, { amount: 100, items: [{ name: 'x', price: 50 }] });
    expect(again.statusCode).toBe(400);
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
      const down = await post(m.testKey, k, { amount: 100 });
      expect(down.statusCode).toBe(502);
      expect(errorOf(down)).toMatchObject({ code: 'provider_error', type: 'proxy_error', category: 'temporary' });
    } finally {
      sandbox.createQr = original;
    }
    const up = await post(m.testKey, k, { amount: 100 });
    expect(up.statusCode).toBe(201);
    expect(up.headers['idempotent-replayed']).toBeUndefined();
    expect(await countOps(m.testKey)).toBe(1);
  });

  it('rejects keys that are too long', async () => {
    const m = await newMerchant(t.app);
    const res = await post(m.testKey, 'k'.repeat(256), { amount: 100 });
    expect(res.statusCode).toBe(400);
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
    const running = await post(m.testKey, k, { amount: 100 });
    expect(running.statusCode).toBe(409);
    expect(errorOf(running)).toMatchObject({
      code: 'idempotency_conflict',
      message: expect.stringMatching(/still running/),
    });
    expect(await countOps(m.testKey)).toBe(0);
    // Its lease runs out: the key is taken over and the request goes through, once.
    await deps.db.query(`UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE key = $1`, [k]);
    const takeover = await post(m.testKey, k, { amount: 100 });
    expect(takeover.statusCode).toBe(201);
    expect(await countOps(m.testKey)).toBe(1);
  });

  it('50 concurrent identical requests create exactly one operation', async () => {
    const m = await newMerchant(t.app);
    const k = randomUUID();
    const results = await Promise.all(Array.from({ length: 50 }, () => post(m.testKey, k, { amount: 4242 })));
    const created = results.filter((r) => r.statusCode === 201);
    const conflicts = results.filter((r) => r.statusCode === 409);
    expect(created.length + conflicts.length).toBe(50);
    expect(created.length).toBeGreaterThanOrEqual(1);
    const ids = new Set(created.map((r) => r.json().operation_id));
    expect(ids.size).toBe(1);
    conflicts.forEach((r) => expect(errorOf(r).code).toBe('idempotency_conflict'));
    expect(await countOps(m.testKey)).toBe(1);
    // Afterwards the key replays the one operation.
    const replay = await post(m.testKey, k, { amount: 4242 });
    expect(replay.json().operation_id).toBe([...ids][0]);
  });

  it('keys older than 24 h are pruned', async () => {
    const m = await newMerchant(t.app);
    const k = randomUUID();
    await post(m.testKey, k, { amount: 100 });
    await t.runtime.deps.db.query(
      `UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1`,
      [k],
    );
    expect(await pruneIdempotencyKeys(t.runtime.deps)).toBeGreaterThanOrEqual(1);
    const again = await post(m.testKey, k, { amount: 100 });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  });
});
