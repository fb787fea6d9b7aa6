// The embedded store's stand-in for autovacuum, which PGlite does not run: both of its halves, analyze and
// vacuum, on this process's one connection.
//
// Analyze. Nothing else re-analyzes a table as it grows, and a prepared statement's generic plan is chosen
// from the statistics of when it was first run: a table analyzed while (nearly) empty gets a sequential
// scan even for its key lookups, and keeps it for the life of the process while the table grows. Measured
// on PGlite: an UPDATE by primary key went from 0.3 to 6.7 ms at 50,000 rows; in the bench, a store
// analyzed with idempotency_keys empty made every QR creation scan all the keys written since (0.38x of the
// baseline, falling as the table grew). So every few seconds the tables that have grown past twice the
// pages their statistics know (at least 8 pages more) are analyzed; ANALYZE also invalidates the plans
// cached for the table, so they are chosen again from the new figures. Growth by doubling keeps it rare:
// a table of a million rows is analyzed a handful of times in its life. The check reads pg_class (~1 ms).
//
// Vacuum. Rows updated or deleted leave dead versions whose room is reused only after a VACUUM (or when a
// page is pruned on access), so the tables written most (webhook_deliveries: two versions per delivery;
// idempotency_keys; retention's deletes everywhere) kept growing for the life of an embedded install, and
// their scans and the process's memory with them. A table is vacuumed by PostgreSQL's own rule for
// autovacuum: more dead rows than autovacuum_vacuum_threshold + autovacuum_vacuum_scale_factor x its rows
// (50 + 20% by default). Measured on PGlite: 75,000 dead rows of a 25,000-row table vacuumed in 14 ms;
// like every embedded statement, it holds the process for that time.
import type { QueryResult } from './query-result.ts';

/** db.ts's Queryable, named here so the two modules do not import each other. */
interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
}

export const AUTOVACUUM_CHECK_MS = 5_000;

const GROWN = `
SELECT quote_ident(c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = 'public' AND c.relkind = 'r'
   AND pg_relation_size(c.oid) / current_setting('block_size')::int > 2 * c.relpages + 8`;

const DEAD = `
SELECT quote_ident(s.relname) AS name FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
 WHERE s.schemaname = 'public'
   AND s.n_dead_tup > current_setting('autovacuum_vacuum_threshold')::int
                      + current_setting('autovacuum_vacuum_scale_factor')::float8 * greatest(c.reltuples, 0)`;

/** Analyzes the tables that outgrew their statistics; returns their names. */
export async function analyzeGrown(db: Queryable): Promise<string[]> {
  const grown = (await db.query<{ name: string }>(GROWN)).rows.map((r) => r.name);
  for (const name of grown) await db.query(`ANALYZE ${name}`);
  return grown;
}

/**
 * A single-user PGlite publishes its statistics to pg_stat_user_tables only when asked: the flush happens
 * once this statement ends, so what the next statement reads is current.
 */
export async function flushStats(db: Queryable): Promise<void> {
  await db.query('SELECT pg_stat_force_next_flush()');
}

/** Vacuums the tables with more dead rows than autovacuum would leave; returns their names. */
export async function vacuumDead(db: Queryable): Promise<string[]> {
  await flushStats(db);
  const dead = (await db.query<{ name: string }>(DEAD)).rows.map((r) => r.name);
  for (const name of dead) await db.query(`VACUUM ${name}`);
  return dead;
}

/**
 * Runs analyzeGrown and vacuumDead every `everyMs` until stopped; never keeps the process alive. A failed
 * pass goes to `onError` and the next pass tries again (a failure only leaves plans and dead rows as they
 * were).
 */
export function startAutovacuum(
  db: Queryable,
  everyMs = AUTOVACUUM_CHECK_MS,
  onError: (err: unknown) => void = () => {},
): { stop(): Promise<void> } {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = analyzeGrown(db)
      .then(() => vacuumDead(db))
      .catch(onError)
      .finally(() => (running = undefined));
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
