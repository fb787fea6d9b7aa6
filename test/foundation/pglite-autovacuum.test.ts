// The embedded store's stand-in for autovacuum (src/db/pglite-autovacuum.ts). Analyze: a table analyzed
// while empty keeps a sequential-scan generic plan for its key lookups as it grows, until it is analyzed
// again. Vacuum: dead rows past autovacuum's threshold are vacuumed, so their room is used again.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectPglite, type Db } from '../../src/db/db.ts';
import { analyzeGrown, flushStats, vacuumDead } from '../../src/db/pglite-autovacuum.ts';

let db: Db;
beforeAll(async () => {
  db = await connectPglite('memory://', undefined, { autovacuumEveryMs: 0 }); // driven by hand here
  await db.exec(
    `CREATE TABLE grows (client_id bigint, key text, state text, PRIMARY KEY (client_id, key)); ANALYZE grows;`,
  );
});
afterAll(() => db?.close());

const plan = async () =>
  (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE upd(1, 'x5')`)).rows
    .map((r) => r['QUERY PLAN'])
    .join('\n');

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
  const stats = (
    await db.query<{ reltuples: number }>(`SELECT reltuples::int AS reltuples FROM pg_class WHERE relname = 'grows'`)
  ).rows[0];
  expect(stats.reltuples).toBeGreaterThan(19_000);
});

it('leaves a table alone until it doubles again', async () => {
  expect(await analyzeGrown(db)).not.toContain('grows');
  await db.exec(`INSERT INTO grows SELECT 2, 'y' || g, 'r' FROM generate_series(1, 5000) g`);
  expect(await analyzeGrown(db)).not.toContain('grows');
  await db.exec(`INSERT INTO grows SELECT 3, 'z' || g, 'r' FROM generate_series(1, 30000) g`);
  expect(await analyzeGrown(db)).toContain('grows');
});

// Flushed first, as vacuumDead reads them.
async function tableStats(d: Db, table: string) {
  await flushStats(d);
  const r = await d.query<{ dead: number; vacuums: number; pages: number }>(
    `SELECT s.n_dead_tup::int AS dead, s.vacuum_count::int AS vacuums,
            pg_relation_size(s.relid)::int / current_setting('block_size')::int AS pages
       FROM pg_stat_user_tables s WHERE s.relname = $1`,
    [table],
  );
  return r.rows[0];
}

it("vacuums a table past autovacuum's threshold of dead rows, and its room is used again", async () => {
  await db.exec(
    `CREATE TABLE churn (id int PRIMARY KEY, state text); INSERT INTO ` +
      `churn SELECT g, 'pending' FROM generate_series(1, 10000) g; ANALYZE ` +
      `churn`,
  );
  // A few dead rows (under 50 + 20% of 10,000): left alone, as autovacuum would.
  await db.exec(`UPDATE churn SET state = 'sent' WHERE id <= 500`);
  expect(await vacuumDead(db)).not.toContain('churn');
  // Every row updated twice (a delivery claimed, then marked sent): vacuumed, the dead rows gone.
  await db.exec(`UPDATE churn SET state = 'claimed'`);
  await db.exec(`UPDATE churn SET state = 'sent'`);
  expect((await tableStats(db, 'churn')).dead).toBeGreaterThan(10_000);
  expect(await vacuumDead(db)).toContain('churn');
  const after = await tableStats(db, 'churn');
  expect(after.dead).toBe(0);
  expect(after.vacuums).toBe(1);
  // The next round of updates goes into the room the vacuum freed, not into new pages.
  await db.exec(`UPDATE churn SET state = 'claimed'`);
  expect((await tableStats(db, 'churn')).pages).toBe(after.pages);
  // Nothing left to do: no second vacuum.
  await db.exec(`VACUUM churn`);
  expect(await vacuumDead(db)).not.toContain('churn');
});

it('runs by itself in an embedded store, stopping with it', async () => {
  const own = await connectPglite('memory://', undefined, { autovacuumEveryMs: 50 });
  await own.exec(
    `CREATE TABLE t (id int PRIMARY KEY); ANALYZE t; INSERT INTO t SELECT g FROM generate_series(1, 20000) g`,
  );
  const reltuples = async () =>
    (await own.query<{ n: number }>(`SELECT reltuples::int AS n FROM pg_class WHERE relname = 't'`)).rows[0].n;
  for (let i = 0; i < 100 && (await reltuples()) < 19_000; i++) await new Promise((r) => setTimeout(r, 50));
  expect(await reltuples()).toBeGreaterThan(19_000);
  await own.exec(`UPDATE t SET id = id + 100000`);
  for (let i = 0; i < 100 && (await tableStats(own, 't'))?.vacuums !== 1; i++)
    await new Promise((r) => setTimeout(r, 50));
  expect((await tableStats(own, 't')).vacuums).toBe(1);
  await own.close();
});
