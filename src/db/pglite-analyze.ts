// The embedded store's stand-in for autoanalyze. PGlite runs no autovacuum, so nothing re-analyzes a table
// as it grows, and a prepared statement's generic plan is chosen from the statistics of when it was first
// run: a table analyzed while (nearly) empty gets a sequential scan even for its key lookups, and keeps it
// for the life of the process while the table grows. Measured on PGlite: an UPDATE by primary key went
// from 0.3 to 6.7 ms at 50,000 rows; in the bench, a store analyzed with idempotency_keys empty made every
// QR creation scan all the keys written since (0.38x of the baseline, falling as the table grew).
//
// Every few seconds this finds the tables that have grown past twice the pages their statistics know
// (at least 8 pages more) and analyzes them; ANALYZE also invalidates the plans cached for the table, so
// they are chosen again from the new figures. Growth by doubling keeps it rare: a table of a million
// rows is analyzed a handful of times in its life. The check itself reads pg_class (~1 ms).
import type { QueryResult } from './query-result.ts';

/** db.ts's Queryable, named here so the two modules do not import each other. */
interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
}

export const ANALYZE_CHECK_MS = 5_000;

const GROWN = `
SELECT quote_ident(c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = 'public' AND c.relkind = 'r'
   AND pg_relation_size(c.oid) / current_setting('block_size')::int > 2 * c.relpages + 8`;

/** Analyzes the tables that outgrew their statistics; returns their names. */
export async function analyzeGrown(db: Queryable): Promise<string[]> {
  const grown = (await db.query<{ name: string }>(GROWN)).rows.map((r) => r.name);
  for (const name of grown) await db.query(`ANALYZE ${name}`);
  return grown;
}

/** Runs analyzeGrown every `everyMs` until stopped; never keeps the process alive, never throws. */
export function startAnalyzer(db: Queryable, everyMs = ANALYZE_CHECK_MS, onError: (err: unknown) => void = () => {}): { stop(): Promise<void> } {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = analyzeGrown(db).catch(onError).finally(() => (running = undefined));
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
