// The PostgreSQL restore drill of docs/operations.md (Backups), with PostgreSQL's own tools: pg_dump
// --format=custom of a live database, more writes, pg_restore into a new empty database, and an instance on
// it with the same APP_SECRET and JWT key: the payments of the dump's instant (not those after), the same
// access token, and the webhook's sealed secret opens (its signed test delivery verifies with the secret
// shown at creation). On the PostgreSQL run of the suite only (TEST_DATABASE_URL): the embedded store's
// drill is restore.test.ts.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { bootstrap, type Runtime } from '../../src/bootstrap.ts';
import { buildApp } from '../../src/app.ts';
import { HIGH_LIMITS } from '../helpers/app.ts';
import { idem, key, newMerchant, type Merchant } from '../helpers/factories.ts';
import { TEST_JWT_PRIVATE_KEY } from '../helpers/test-jwt-key.ts';
import { createHook, startReceiver, type Receiver } from '../webhooks/helpers.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
const run = promisify(execFile);
const base = `tolem_drill_${process.pid}_${Date.now()}`;
const names = { live: `${base}_live`, restored: `${base}_restored` };
let work: string;
let rx: Receiver;

const urlOf = (db: string) => {
  const u = new URL(adminUrl!);
  u.pathname = `/${db}`;
  return u.toString();
};
async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  if (!adminUrl) return;
  work = mkdtempSync(path.join(tmpdir(), 'tolem-pgdrill-'));
  rx = await startReceiver();
  await admin(`CREATE DATABASE ${names.live}`);
});
afterAll(async () => {
  if (!adminUrl) return;
  await rx.close();
  for (const db of Object.values(names)) await admin(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  rmSync(work, { recursive: true, force: true });
});

/** An instance of the deployment: the keys come from its secret store (the environment), never the database. */
async function instance(db: string) {
  const config = loadConfig(
    {
      DATABASE_URL: urlOf(db),
      REDIS_URL: '',
      APP_SECRET: 'drill-app-secret-'.padEnd(48, 'd'),
      JWT_PRIVATE_KEY: TEST_JWT_PRIVATE_KEY,
      WEBHOOKS_ALLOW_PRIVATE: 'true',
    },
    { rateLimits: HIGH_LIMITS, logLevel: 'silent' },
  );
  const runtime: Runtime = await bootstrap(config, { logLine: () => {} });
  const { app } = await buildApp(runtime.deps, { logger: false });
  return {
    app,
    close: async () => {
      await app.close();
      await runtime.close();
    },
  };
}

type App = Awaited<ReturnType<typeof instance>>['app'];

async function paidPayment(app: App, m: Merchant, amount: number): Promise<string> {
  const qr = await app.inject({
    method: 'POST',
    url: '/v2/qr',
    headers: { ...key(m.testKey), ...idem() },
    payload: { amount },
  });
  expect(qr.statusCode, qr.body).toBe(201);
  const id = qr.json().operation_id as string;
  const paid = await app.inject({ method: 'POST', url: `/v2/test/payments/${id}/pay`, headers: key(m.testKey) });
  expect(paid.statusCode, paid.body).toBe(200);
  return id;
}

async function paymentIds(app: App, m: Merchant): Promise<string[]> {
  const r = await app.inject({ method: 'GET', url: '/v2/payments?limit=100', headers: key(m.testKey) });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().data.map((p: { operation_id: string }) => p.operation_id);
}

it.skipIf(!adminUrl)(
  'pg_dump of a live database, pg_restore into a new one: its instant, keys that open',
  async () => {
    const live = await instance(names.live);
    const m = await newMerchant(live.app);
    const hook = await createHook(live.app, m, { url: rx.url, events: ['payment.completed'] }, '?mode=test');
    const before: string[] = [];
    for (let i = 0; i < 3; i++) before.push(await paidPayment(live.app, m, 1000 + i));

    // The commands of docs/operations.md, while the instance keeps its connections open.
    const dump = path.join(work, 'drill.dump');
    await run('pg_dump', ['--format=custom', '--no-owner', `--dbname=${urlOf(names.live)}`, `--file=${dump}`]);
    await run('pg_restore', ['--list', dump]);
    const after = [await paidPayment(live.app, m, 5000), await paidPayment(live.app, m, 5001)];
    await live.close();

    await admin(`CREATE DATABASE ${names.restored} TEMPLATE template0`);
    await run('pg_restore', [
      '--no-owner',
      '--exit-on-error',
      '--single-transaction',
      `--dbname=${urlOf(names.restored)}`,
      dump,
    ]);

    const restored = await instance(names.restored);
    try {
      const ids = await paymentIds(restored.app, m);
      expect(ids.sort()).toEqual([...before].sort());
      for (const id of after) expect(ids).not.toContain(id);
      // The access token signed before the dump still works: the JWT key came from the environment.
      const seen = rx.received.length;
      const sent = await restored.app.inject({
        method: 'POST',
        url: `/me/webhooks/${hook.id}/test?mode=test`,
        headers: { authorization: `Bearer ${m.access}` },
        payload: {},
      });
      expect(sent.statusCode, sent.body).toBe(200);
      const got = (await rx.waitFor(seen + 1)).slice(seen).find((r) => JSON.parse(r.body).type === 'webhook.test')!;
      expect(new Webhook(hook.secret).verify(got.body, got.headers as Record<string, string>)).toMatchObject({
        type: 'webhook.test',
      });
    } finally {
      await restored.close();
    }
  },
  60_000,
);
