// The embedded store runs statements prepared (src/db/pglite-prepared.ts). These pin what callers rely
// on from a driver: values typed as query() types them, row counts, error codes, and that a statement
// never runs inside another caller's open transaction.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectPglite, type Db } from '../../src/db/db.ts';
import { MAX_PREPARED } from '../../src/db/pglite-prepared.ts';

let db: Db;
beforeAll(async () => {
  db = await connectPglite('memory://');
  await db.exec(
    `CREATE TABLE t (id bigserial PRIMARY KEY, k text UNIQUE, n bigint, ` +
      `doc jsonb, at timestamptz, ok boolean, tags text[])`,
  );
});
afterAll(() => db.close());

describe('prepared statements on PGlite', () => {
  test('parameters and results are typed as PGlite query() types them', async () => {
    const at = new Date('2026-11-22T10:00:00.123Z');
    const ins = await db.query<{ id: number }>(
      `INSERT INTO t (k, n, doc, at, ok, tags) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      ['a', 9007199254740991, JSON.stringify({ x: [1, 'y'] }), at, true, ['p', 'q,r']],
    );
    expect(ins.rowCount).toBe(1);
    const r = await db.query(
      `SELECT k, n, doc, at, ok, tags, NULL::text AS nothing, 1.5::numeric AS num FROM t WHERE id = $1`,
      [ins.rows[0].id],
    );
    expect(r.rows).toEqual([
      { k: 'a', n: 9007199254740991, doc: { x: [1, 'y'] }, at, ok: true, tags: ['p', 'q,r'], nothing: null, num: 1.5 },
    ]);
    // A second run of the same text takes the prepared path and must read the same.
    const again = await db.query(
      `SELECT k, n, doc, at, ok, tags, NULL::text AS nothing, 1.5::numeric AS num FROM t WHERE id = $1`,
      [ins.rows[0].id],
    );
    expect(again.rows).toEqual(r.rows);
  });

  test('null and undefined parameters are SQL NULL', async () => {
    const r = await db.query<{ a: string | null; b: string | null }>(`SELECT $1::text AS a, $2::text AS b`, [
      null,
      undefined,
    ]);
    expect(r.rows[0]).toEqual({ a: null, b: null });
  });

  test('row counts: rows returned by a SELECT, rows touched by INSERT, UPDATE and DELETE', async () => {
    await db.query(`INSERT INTO t (k) SELECT 'c' || g FROM generate_series(1, 3) g`);
    expect((await db.query(`SELECT k FROM t WHERE k LIKE 'c%'`)).rowCount).toBe(3);
    expect((await db.query(`UPDATE t SET n = 1 WHERE k LIKE 'c%'`)).rowCount).toBe(3);
    expect((await db.query(`INSERT INTO t (k) VALUES ($1) ON CONFLICT (k) DO NOTHING`, ['c1'])).rowCount).toBe(0);
    expect((await db.query(`DELETE FROM t WHERE k = $1`, ['c2'])).rowCount).toBe(1);
  });

  test('errors keep their SQLSTATE, and the statement and the connection stay usable after one', async () => {
    const sql = `INSERT INTO t (k) VALUES ($1)`;
    await db.query(sql, ['dup']);
    await expect(db.query(sql, ['dup'])).rejects.toMatchObject({ code: '23505' });
    await expect(db.query(`SELEC oops`)).rejects.toMatchObject({ code: '42601' });
    expect((await db.query(sql, ['dup2'])).rowCount).toBe(1);
    await expect(db.query(`SELECT $1::int AS v`, ['not a number'])).rejects.toMatchObject({ code: '22P02' });
    expect((await db.query<{ v: number }>(`SELECT $1::int AS v`, [7])).rows[0].v).toBe(7);
  });

  test('a statement outside a transaction waits for it and never runs inside it', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inserted!: () => void;
    const didInsert = new Promise<void>((r) => (inserted = r));
    const tx = db.tx(async (q) => {
      await q.query(`INSERT INTO t (k) VALUES ('in-tx')`);
      inserted();
      await held;
      throw new Error('roll back');
    });
    await didInsert;
    // Issued while the transaction is open: inside it, it would see (and lose with it) the row.
    const outside = db.query<{ c: number }>(`SELECT count(*)::int AS c FROM t WHERE k = 'in-tx'`);
    const write = db.query(`INSERT INTO t (k) VALUES ('after-tx')`);
    release();
    await expect(tx).rejects.toThrow('roll back');
    expect((await outside).rows[0].c).toBe(0);
    await write;
    expect((await db.query(`SELECT k FROM t WHERE k IN ('in-tx', 'after-tx')`)).rows).toEqual([{ k: 'after-tx' }]);
  });

  test('past the bound on prepared texts, statements still run (unprepared)', async () => {
    for (let i = 0; i < MAX_PREPARED + 5; i++) {
      const r = await db.query<{ v: number }>(`SELECT $1::int + ${i} AS v`, [1]);
      expect(r.rows[0].v).toBe(1 + i);
    }
    // Texts beyond the bound, run again, go through the unnamed statement each time.
    const r = await db.query<{ v: number; w: string }>(`SELECT $1::int + ${MAX_PREPARED + 1} AS v, $2::text AS w`, [
      1,
      'x',
    ]);
    expect(r.rows[0]).toEqual({ v: MAX_PREPARED + 2, w: 'x' });
  });
});
