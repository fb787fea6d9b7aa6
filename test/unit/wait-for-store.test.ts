// A process that starts before its PostgreSQL waits for it (bounded); a refusal that waiting cannot cure
// (a wrong password: 28P01) stops it at once.
import { expect, it } from 'vitest';
import type { Db } from '../../src/db/db.ts';
import { waitForStore } from '../../src/db/wait-for-store.ts';

function store(errors: (string | undefined)[]): { db: Db; calls: () => number } {
  let n = 0;
  const db = {
    query: async () => {
      const code = errors[n++];
      if (code) throw Object.assign(new Error(code), { code });
      return { rows: [], rowCount: 1 };
    },
  } as unknown as Db;
  return { db, calls: () => n };
}

it('waits through refused connections and a starting server, then goes on', async () => {
  const s = store(['ECONNREFUSED', '57P03', 'ENOTFOUND']);
  const said: string[] = [];
  await waitForStore(s.db, { everyMs: 1, log: (m) => said.push(m) });
  expect(s.calls()).toBe(4);
  expect(said[0]).toContain('ECONNREFUSED');
});

it('stops at once on an error that waiting does not cure', async () => {
  const s = store(['28P01']);
  await expect(waitForStore(s.db, { everyMs: 1 })).rejects.toMatchObject({ code: '28P01' });
  expect(s.calls()).toBe(1);
});

it('gives up after its time-out with the last error', async () => {
  const s = store(Array(1000).fill('ECONNREFUSED'));
  await expect(waitForStore(s.db, { everyMs: 5, timeoutMs: 30 })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  expect(s.calls()).toBeGreaterThan(1);
});
