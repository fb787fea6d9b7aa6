// LISTEN on PostgreSQL survives a lost connection: the listener comes back by itself, LISTENs its
// channels again, and tells every handler that notifications may have been missed (the caches then drop
// everything; the delivery worker claims). Runs on its own database, so no other test's listener is hit.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectPg, MAYBE_MISSED, type Db } from '../../src/db/db.ts';
import { Caches } from '../../src/infra/cache.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
const dbName = `tolem_listen_${process.pid}_${Date.now()}`;
let db: Db | undefined;
let admin: pg.Client | undefined;

beforeAll(async () => {
  if (!adminUrl) return;
  admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  db = connectPg(u.toString(), 2);
});
afterAll(async () => {
  await db?.close();
  await admin?.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin?.end();
});

async function waitFor(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('not in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

it.skipIf(!adminUrl)('re-establishes LISTEN after the connection is killed, and reports a possible gap', async () => {
  const got: string[] = [];
  await db!.listen('tolem_test_a', (p) => got.push(`a:${p}`));
  await db!.listen('tolem_test_b', (p) => got.push(`b:${p}`));
  await db!.query(`SELECT pg_notify('tolem_test_a', 'one')`);
  await waitFor(() => got.includes('a:one'));

  const killed = await admin!.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN%'`,
    [dbName],
  );
  expect(killed.rowCount).toBe(1);
  await waitFor(() => got.includes(`a:${MAYBE_MISSED}`) && got.includes(`b:${MAYBE_MISSED}`));

  await db!.query(`SELECT pg_notify('tolem_test_b', 'two')`);
  await waitFor(() => got.includes('b:two'));
});

it('a possible gap empties every cache', () => {
  const caches = new Caches();
  caches.apiKeys.set('h', { client_id: 1 });
  caches.merchants.set('1', { display_name: 'x' });
  caches.evict('key:other');
  expect(caches.apiKeys.get('h')).toBeDefined();
  caches.evict(MAYBE_MISSED);
  expect(caches.apiKeys.get('h')).toBeUndefined();
  expect(caches.merchants.get('1')).toBeUndefined();
});
