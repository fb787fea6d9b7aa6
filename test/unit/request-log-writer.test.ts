// The request-log writer: a failed write keeps its rows and does not stop later writes; the buffer is
// bounded while the database cannot take rows.
import { describe, expect, it } from 'vitest';
import { MAX_BUFFERED_ROWS, RequestLogWriter } from '../../src/http/plugins/request-log.ts';
import type { Db } from '../../src/db/db.ts';

/** A store whose writes fail while `down`, counting the rows of the writes that succeed. */
function fakeDb() {
  const state = { down: false, written: 0 };
  const db = {
    relaxed: {
      query: async (_sql: string, params: unknown[]) => {
        if (state.down) throw new Error('connection terminated');
        state.written += (params[0] as unknown[]).length;
        return { rows: [], rowCount: 0 };
      },
    },
  } as unknown as Db;
  return { db, state };
}

const row = (i: number) => ({
  client_id: 1,
  request_id: `req_${i}`,
  method: 'GET',
  path: '/v2/payments',
  status: 200,
  duration_ms: 1,
  api_key_prefix: null,
  actor: null,
  created_at: new Date(),
});

describe('RequestLogWriter', () => {
  it('after a failed write, later writes go on and the failed rows are written with them', async () => {
    const { db, state } = fakeDb();
    const w = new RequestLogWriter(db, 60_000);
    state.down = true;
    for (let i = 0; i < 3; i++) w.push(row(i));
    await expect(w.flush()).rejects.toThrow('connection terminated');
    expect(w.pending).toBe(3);
    state.down = false;
    w.push(row(3));
    await w.flush();
    expect(state.written).toBe(4);
    expect(w.pending).toBe(0);
    await w.close();
  });

  it('while writes fail, pushes do not retry each time: the timer does', async () => {
    const { db, state } = fakeDb();
    let tries = 0;
    const query = db.relaxed.query.bind(db.relaxed);
    (db.relaxed as { query: unknown }).query = async (sql: string, params: unknown[]) => {
      tries++;
      return query(sql, params);
    };
    const w = new RequestLogWriter(db, 60_000);
    state.down = true;
    for (let i = 0; i < 1000; i++) {
      w.push(row(i));
      await new Promise((ok) => setImmediate(ok));
    }
    expect(tries).toBe(1);
    state.down = false;
    await w.close();
    expect(state.written).toBe(1000);
  });

  it('keeps at most MAX_BUFFERED_ROWS while the store is down', async () => {
    const { db, state } = fakeDb();
    const w = new RequestLogWriter(db, 60_000);
    state.down = true;
    for (let i = 0; i < MAX_BUFFERED_ROWS + 500; i++) w.push(row(i));
    await w.flush().catch(() => {});
    expect(w.pending).toBeLessThanOrEqual(MAX_BUFFERED_ROWS);
    state.down = false;
    await w.close();
    expect(state.written).toBeLessThanOrEqual(MAX_BUFFERED_ROWS);
    expect(state.written).toBeGreaterThan(MAX_BUFFERED_ROWS - 200);
  });
});
