// The embedded store's stand-in for autoanalyze (src/db/pglite-analyze.ts): a table analyzed while empty
// keeps a sequential-scan generic plan for its key lookups as it grows, until it is analyzed again.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectPglite, type Db } from '../../src/db/db.ts';
import { analyzeGrown } from '../../src/db/pglite-analyze.ts';

let db: Db;
beforeAll(async () => {
  db = await connectPglite('memory://', undefined, { analyzeEveryMs: 0 }); // driven by hand here
  await db.exec(`CREATE TABLE grows (client_id bigint, key text, state text, PRIMARY KEY (client_id, key)); ANALYZE grows;`);
});
afterAll(() => db?.close());

const plan = async () => (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE upd(1, 'x5')`)).rows.map((r) => r['QUERY PLAN']).join('\n');

it('re-analyzes a table that outgrew its statistics, and the cached generic plan becomes an index scan', async () => {
  // A statement prepared and run while the table is tiny gets (and caches) a sequential-scan plan.
  await db.exec(`PREPARE upd(bigint, text) AS UPDATE grows SET state = 'done' WHERE client_id = $1 AND key = $2`);
  for (let i = 0; i < 8; i++) {
    await db.query(`INSERT INTO grows VALUES (1, $1, 'r')`, [`k${i}`]);
    await db.exec(`EXECUTE upd(1, 'k${i}')`);
  }
  await db.exec(`INSERT INTO grows SELECT 1, 'x' || g, 'r' FROM generate_series(1, 20000) g`);
  expect(await plan()).toMatch(/Seq Scan on grows/);

  expect(await analyzeGrown(db)).toContain('grows');
  expect(await plan()).toMatch(/Index Scan using grows_pkey/);
  const stats = (await db.query<{ reltuples: number }>(`SELECT reltuples::int AS reltuples FROM pg_class WHERE relname = 'grows'`)).rows[0];
  expect(stats.reltuples).toBeGreaterThan(19_000);
});

it('leaves a table alone until it doubles again', async () => {
  expect(await analyzeGrown(db)).not.toContain('grows');
  await db.exec(`INSERT INTO grows SELECT 2, 'y' || g, 'r' FROM generate_series(1, 5000) g`);
  expect(await analyzeGrown(db)).not.toContain('grows');
  await db.exec(`INSERT INTO grows SELECT 3, 'z' || g, 'r' FROM generate_series(1, 30000) g`);
  expect(await analyzeGrown(db)).toContain('grows');
});

it('runs by itself in an embedded store, stopping with it', async () => {
  const own = await connectPglite('memory://', undefined, { analyzeEveryMs: 50 });
  await own.exec(`CREATE TABLE t (id int PRIMARY KEY); ANALYZE t; INSERT INTO t SELECT g FROM generate_series(1, 20000) g`);
  const reltuples = async () => (await own.query<{ n: number }>(`SELECT reltuples::int AS n FROM pg_class WHERE relname = 't'`)).rows[0].n;
  for (let i = 0; i < 100 && (await reltuples()) < 19_000; i++) await new Promise((r) => setTimeout(r, 50));
  expect(await reltuples()).toBeGreaterThan(19_000);
  await own.close();
});
