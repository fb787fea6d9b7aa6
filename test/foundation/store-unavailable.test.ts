// The database going away under a running API, as the PostgreSQL fault drill found it (docs/operations.md,
// Fault drills):
// - a connection that drops inside a transaction, between two statements, no longer ends the process (pg
//   emitted 'error' on the checked-out client with nobody listening: an uncaught exception);
// - a request that fails because the store cannot be reached is a 503 service_unavailable with
//   Retry-After, which clients (the SDK included) retry, not a 500 internal_error they take as final;
// - the idempotency claim of such a request, which could not be released while the store was away, is
//   released once it answers: the client's retry with the same key creates the payment instead of
//   getting 409 idempotency_conflict for the claim's whole lease.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPg, type Db, type Queryable } from '../../src/db/db.ts';
import { storeUnavailable } from '../../src/db/unavailable.ts';
import { releaseHeldClaim } from '../../src/http/plugins/idempotency.ts';
import { ClaimReleases } from '../../src/http/plugins/idempotency-release.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, idem, idsOf, key, newMerchant, type Merchant } from '../helpers/factories.ts';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('what counts as the store being unreachable', () => {
  it('connection failures, restarts and dropped connections; not a statement that failed', () => {
    expect(storeUnavailable(refused())).toBe(true);
    expect(storeUnavailable(Object.assign(new Error('starting up'), { code: '57P03' }))).toBe(true);
    expect(storeUnavailable(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(true);
    expect(storeUnavailable(Object.assign(new Error('connection failure'), { code: '08006' }))).toBe(true);
    expect(storeUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(storeUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(storeUnavailable(Object.assign(new Error('deadlock detected'), { code: '40P01' }))).toBe(false);
    expect(storeUnavailable(new Error('PGlite is closed'))).toBe(false);
    expect(storeUnavailable(undefined)).toBe(false);
  });
});

describe('requests while the store cannot be reached', () => {
  let t: TestApp;
  let m: Merchant;
  let down = false;
  beforeAll(async () => {
    t = await buildTestApp();
    m = await newMerchant(t.app);
    // The store "goes away" for the statements of the main pool while `down` is set; the relaxed pool
    // (the idempotency claim) still answers, as when the database drops between a request's statements.
    const db = t.runtime.deps.db;
    const query = db.query.bind(db);
    const tx = db.tx.bind(db);
    db.query = ((sql: string, params?: unknown[]) =>
      down ? Promise.reject(refused()) : query(sql, params)) as Db['query'];
    db.tx = ((fn: (q: Queryable) => Promise<unknown>) => (down ? Promise.reject(refused()) : tx(fn))) as Db['tx'];
  });
  afterAll(() => t?.close());

  it('answers 503 service_unavailable with Retry-After and no detail, in v2 and in the cabinet', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v2/payments', headers: key(m.testKey) })).statusCode).toBe(200);
    down = true;
    try {
      const me = await t.app.inject({ method: 'GET', url: '/me', headers: bearer(m) });
      expect(me.statusCode, me.body).toBe(503);
      expect(me.headers['retry-after']).toBe('2');
      expect(errorOf(me)).toMatchObject({ code: 'service_unavailable', type: 'proxy_error', category: 'temporary' });
      expect(me.body).not.toMatch(/ECONNREFUSED|5432|stack/);
      const qr = await t.app.inject({
        method: 'POST',
        url: '/v2/qr',
        headers: { ...key(m.testKey), ...idem() },
        payload: { amount: 500 },
      });
      expect(qr.statusCode, qr.body).toBe(503);
      expect(errorOf(qr).code).toBe('service_unavailable');
    } finally {
      down = false;
    }
  });

  it('a retry with the same key, once the store is back, creates the payment (the claim was released)', async () => {
    const k = randomUUID();
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/v2/qr',
        headers: { ...key(m.testKey), ...idem(k) },
        payload: { amount: 700 },
      });
    down = true;
    const first = await send();
    down = false;
    expect(first.statusCode, first.body).toBe(503);
    // The claim is still there (its release failed with the store away) and goes within a second or two.
    const { clientId } = await idsOf(t.runtime.deps.db, m);
    const claims = () =>
      t.runtime.deps.db.query(`SELECT state FROM idempotency_keys WHERE client_id = $1 AND key = $2`, [clientId, k]);
    expect((await claims()).rows).toEqual([{ state: 'running' }]);
    for (let i = 0; i < 50 && (await claims()).rows.length; i++) await new Promise((r) => setTimeout(r, 100));
    const retry = await send();
    expect(retry.statusCode, retry.body).toBe(201);
    expect((await send()).headers['idempotent-replayed']).toBe('true');
  });
});

describe('ClaimReleases', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t?.close());

  const claim = async (k: string, leaseSeconds: number) => {
    await t.runtime.deps.db.query(
      `INSERT INTO idempotency_keys (client_id, mode, method, path, key, fingerprint, state, locked_until)
       VALUES (0, 'test', 'POST', '/v2/qr', $1, 'f', 'running', now() + make_interval(secs => $2))`,
      [k, leaseSeconds],
    );
    return [0, 'test', 'POST', '/v2/qr', k];
  };
  const exists = async (k: string) =>
    (await t.runtime.deps.db.query('SELECT 1 FROM idempotency_keys WHERE client_id = 0 AND key = $1', [k])).rows
      .length === 1;

  it('keeps trying while the store is away, then releases the claim', async () => {
    let failures = 2;
    const flaky: Queryable = {
      query: (sql, params) => (failures-- > 0 ? Promise.reject(refused()) : t.runtime.deps.db.query(sql, params)),
    };
    const releases = new ClaimReleases((scope) => releaseHeldClaim(flaky, scope), 60);
    const scope = await claim(`k-${randomUUID()}`, 60);
    releases.add({ scope, claimedAt: Date.now() });
    await releases.flush();
    await releases.flush();
    expect(releases.size).toBe(1);
    expect(await exists(scope[4] as string)).toBe(true);
    await releases.flush();
    expect(releases.size).toBe(0);
    expect(await exists(scope[4] as string)).toBe(false);
    releases.stop();
  });

  it('never releases a claim past its own lease: the key may be another request now', async () => {
    let now = Date.now();
    const releases = new ClaimReleases(
      (scope) => releaseHeldClaim(t.runtime.deps.db, scope),
      60,
      () => now,
    );
    const late = await claim(`k-${randomUUID()}`, 60);
    releases.add({ scope: late, claimedAt: now });
    now += 55_000; // past the lease less its margin: dropped, not deleted
    await releases.flush();
    expect(releases.size).toBe(0);
    expect(await exists(late[4] as string)).toBe(true);
    // A row whose lease is over in the database (another request may take it) is not deleted either.
    const expired = await claim(`k-${randomUUID()}`, -1);
    releases.add({ scope: expired, claimedAt: now });
    await releases.flush();
    expect(await exists(expired[4] as string)).toBe(true);
    releases.stop();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('a transaction whose connection drops (PostgreSQL)', () => {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  let db: Db;
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    db = connectPg(adminUrl, 2);
  });
  afterAll(async () => {
    await db?.close();
    await admin?.end();
  });

  it('fails the transaction, leaves the process running, and the pool answers after', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const done = db.tx(async (q) => {
        const pid = (await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
        // Killed between two statements, while the transaction holds the connection and waits on nothing.
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        await new Promise((r) => setTimeout(r, 300));
        await q.query('SELECT 1');
      });
      const err = await done.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(storeUnavailable(err), String(err)).toBe(true);
      expect(uncaught).toEqual([]);
      expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
