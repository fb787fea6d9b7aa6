// One small interface over both drivers: PostgreSQL through `pg`, and the embedded PGlite.
// The SQL is the same for both; only connection and transaction plumbing differ.
import pg from 'pg';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { mkdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { preparedRunner } from './pglite-prepared.ts';
import { AUTOVACUUM_CHECK_MS, startAutovacuum } from './pglite-autovacuum.ts';
import type { QueryResult } from './query-result.ts';
import { tracedDb } from './traced.ts';
import { tracingOn } from '../telemetry/tracing.ts';
// Registers pg's timestamptz parser: a fast path for the UTC values PostgreSQL sends.
import './timestamps.ts';

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
}

export interface Db extends Queryable {
  readonly kind: 'pg' | 'pglite';
  /**
   * Single statements whose commit need not wait for the disk (PostgreSQL synchronous_commit=off): the
   * idempotency claim, the sandbox provider's rows, request-log batches. Visibility is unchanged; only a
   * database crash within a fraction of a second can lose them. The write path uses this only before a
   * synchronous commit of its own: WAL is flushed in order, so once the request's final transaction is
   * durable, so is everything relaxed it wrote before. PGlite has no such distinction.
   */
  readonly relaxed: Queryable;
  /**
   * Calls `fn` with the payload of every NOTIFY on `channel` (cache invalidation across processes, worker
   * wake-ups). If the listening connection is lost, it is re-established, and `fn` then gets
   * MAYBE_MISSED: notifications sent meanwhile are gone, so listeners must assume anything changed.
   */
  listen(channel: string, fn: (payload: string) => void): Promise<void>;
  /** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
  tx<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs a multi-statement script (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

// int8 (counts, sums, serial ids) and numeric (SUM of bigint) as JS numbers: every value we store in
// them is far below 2^53 (tenge amounts, row ids).
const toNumber = (v: string) => Number(v);
pg.types.setTypeParser(20, toNumber);
pg.types.setTypeParser(1700, toNumber);

// Every statement is prepared once per connection (named by its text): the hot paths run the same few
// statements over and over, and PostgreSQL then skips parsing and planning them.
const names = new Map<string, string>();
function named(text: string, values?: unknown[]) {
  let name = names.get(text);
  if (!name) names.set(text, (name = `s${createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
  return { name, text, values: values as unknown[] };
}

/** The payload a listener gets after its connection was re-established (see Db.listen). */
export const MAYBE_MISSED = '*';
const RELISTEN_MS = 1000;

/**
 * The LISTEN side of a PostgreSQL store: one dedicated connection for every channel, re-established
 * (every second until it succeeds) when it drops, e.g. on a database restart or failover.
 */
function pgListener(url: string) {
  const handlers = new Map<string, ((payload: string) => void)[]>();
  let conn: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let closed = false;

  const dispatch = (channel: string, payload: string) => {
    for (const fn of handlers.get(channel) ?? []) fn(payload);
  };

  async function open(): Promise<pg.Client> {
    const c = new pg.Client({ connectionString: url });
    const lost = () => {
      if (conn !== c) return;
      conn = undefined;
      void c.end().catch(() => {});
      if (!closed) setTimeout(() => void reopen(), RELISTEN_MS).unref();
    };
    c.on('error', lost);
    c.on('end', lost);
    c.on('notification', (n) => dispatch(n.channel, n.payload ?? ''));
    await c.connect();
    for (const channel of handlers.keys()) await c.query(`LISTEN ${channel}`);
    conn = c;
    return c;
  }

  async function reopen(): Promise<void> {
    if (closed || conn) return;
    try {
      await open();
      for (const channel of handlers.keys()) dispatch(channel, MAYBE_MISSED);
    } catch {
      if (!closed) setTimeout(() => void reopen(), RELISTEN_MS).unref();
    }
  }

  return {
    async listen(channel: string, fn: (payload: string) => void): Promise<void> {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
      const known = handlers.has(channel);
      handlers.set(channel, [...(handlers.get(channel) ?? []), fn]);
      if (!conn) {
        connecting ??= open().finally(() => (connecting = undefined));
        await connecting; // LISTENs every channel known by then, this one included
      } else if (!known) {
        await conn.query(`LISTEN ${channel}`);
      }
    },
    async close(): Promise<void> {
      closed = true;
      const c = conn;
      conn = undefined;
      await c?.end().catch(() => {});
    },
  };
}

export function connectPg(url: string, max = 10): Db {
  const pool = new pg.Pool({ connectionString: url, max });
  const relaxedPool = new pg.Pool({
    connectionString: url,
    max: Math.max(2, Math.ceil(max / 2)),
    options: '-c synchronous_commit=off',
  });
  // An idle connection that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  relaxedPool.on('error', () => {});
  const listener = pgListener(url);
  return {
    kind: 'pg',
    listen: listener.listen,
    async query<T>(sql: string, params?: unknown[]) {
      const r = await pool.query(named(sql, params));
      return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
    },
    relaxed: {
      async query<T>(sql: string, params?: unknown[]) {
        const r = await relaxedPool.query(named(sql, params));
        return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
      },
    },
    async tx<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const conn = await pool.connect();
      // A checked-out client has no listener of the pool's: if its connection drops between two statements
      // (a database restart), pg emits 'error' on it, and with nobody listening that is an uncaught
      // exception that ended the whole process. Heard here, the next statement fails instead (the request
      // gets a 503) and the broken client is discarded on release.
      let lost: Error | undefined;
      const onLost = (err: Error) => {
        lost = err;
      };
      conn.on('error', onLost);
      try {
        await conn.query('BEGIN');
        const q: Queryable = {
          async query<R>(sql: string, params?: unknown[]) {
            const r = await conn.query(named(sql, params));
            return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
          },
        };
        const out = await fn(q);
        await conn.query('COMMIT');
        return out;
      } catch (err) {
        await conn.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        conn.off('error', onLost);
        conn.release(lost);
      }
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    async close() {
      await listener.close();
      await Promise.all([pool.end(), relaxedPool.end()]);
    },
  };
}

/**
 * dataDir `memory://` (or undefined): in memory, for tests. `from`: a dump of a whole data directory
 * (dumpPgliteDataDir) to start from instead of an empty cluster; creating the cluster (initdb) is most
 * of PGlite's start-up, so test apps start from one dump of a migrated store.
 */
export async function connectPglite(
  dataDir?: string,
  from?: Blob,
  opts: { autovacuumEveryMs?: number } = {},
): Promise<Db> {
  if (dataDir && !dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const lite = await PGlite.create({
    dataDir,
    loadDataDir: from,
    parsers: { [pgliteTypes.INT8]: toNumber, [pgliteTypes.NUMERIC]: toNumber },
  });
  return pgliteDb(lite, opts.autovacuumEveryMs);
}

/** An embedded store's whole data directory, uncompressed (loads faster than gzip; it stays in memory or /tmp). */
export async function dumpPgliteDataDir(db: Db): Promise<Blob> {
  const lite = pglites.get(db);
  if (!lite) throw new Error('not an embedded (PGlite) store');
  return lite.dumpDataDir('none');
}

const pglites = new WeakMap<Db, PGlite>();

/** `autovacuumEveryMs` 0: no background autovacuum (a test driving it by hand). */
function pgliteDb(lite: PGlite, autovacuumEveryMs = AUTOVACUUM_CHECK_MS): Db {
  const prepared = preparedRunner(lite);
  const base: Queryable = { query: prepared.query };
  const inTx: Queryable = { query: prepared.queryInTx };
  // No autovacuum in PGlite: this process analyzes and vacuums its tables (pglite-autovacuum.ts).
  const autovacuum = autovacuumEveryMs > 0 ? startAutovacuum(base, autovacuumEveryMs) : { stop: async () => {} };
  const db: Db = {
    kind: 'pglite',
    query: base.query,
    relaxed: base,
    async listen(channel, fn) {
      await lite.listen(channel, fn);
    },
    // PGlite is one connection: its transaction() holds an exclusive lock, so transactions serialize.
    tx: (fn) => lite.transaction(() => fn(inTx)),
    async exec(sql: string) {
      await lite.exec(sql);
    },
    async close() {
      await autovacuum.stop();
      await lite.close();
    },
  };
  pglites.set(db, lite);
  return db;
}

export async function connect(opts: {
  databaseUrl?: string;
  dataDir?: string;
  poolMax?: number;
  pgliteFrom?: Blob;
}): Promise<Db> {
  const db = opts.databaseUrl
    ? connectPg(opts.databaseUrl, opts.poolMax)
    : await connectPglite(opts.dataDir, opts.pgliteFrom);
  if (!tracingOn()) return db;
  // Statements as spans (db/traced.ts); the embedded store's dump still finds its PGlite.
  const traced = tracedDb(db);
  const lite = pglites.get(db);
  if (lite) pglites.set(traced, lite);
  return traced;
}
