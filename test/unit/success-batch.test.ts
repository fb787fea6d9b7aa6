// The success batcher's pause on the embedded store: successes that arrive while it waits are written in
// one statement; without a pause (PostgreSQL) the first is written at once. And the worker's window by store.
import { describe, expect, it } from 'vitest';
import { coalesceMsFor, SuccessBatcher } from '../../src/domain/webhooks/success-batch.ts';
import { concurrencyFor } from '../../src/jobs/deliveries.ts';
import type { Deps } from '../../src/deps.ts';

function fakeDb() {
  const batches: number[] = [];
  return {
    batches,
    query: async (_sql: string, params?: unknown[]) => (
      batches.push((params![0] as unknown[]).length), { rows: [], rowCount: 0 }
    ),
  };
}
const success = (id: number) => ({ deliveryId: id, leaseToken: 't', status: 200, response: 'ok', at: new Date() });

describe('SuccessBatcher', () => {
  it('with a pause, successes added meanwhile share one statement', async () => {
    const db = fakeDb();
    const b = new SuccessBatcher(db, coalesceMsFor('pglite'));
    const first = b.add(success(1));
    await new Promise((ok) => setTimeout(ok, 1));
    await Promise.all([first, b.add(success(2)), b.add(success(3))]);
    expect(db.batches).toEqual([3]);
  });

  it('without one, the first is written at once and the rest follow together', async () => {
    const db = fakeDb();
    const b = new SuccessBatcher(db, coalesceMsFor('pg'));
    await Promise.all([b.add(success(1)), b.add(success(2)), b.add(success(3))]);
    expect(db.batches).toEqual([1, 2]);
  });

  it('the window: WEBHOOK_CONCURRENCY, else 500 on the embedded store and 100 on PostgreSQL', () => {
    const deps = (kind: 'pg' | 'pglite', set?: number) =>
      ({ db: { kind }, config: { webhookConcurrency: set } }) as unknown as Deps;
    expect(concurrencyFor(deps('pglite'))).toBe(500);
    expect(concurrencyFor(deps('pg'))).toBe(100);
    expect(concurrencyFor(deps('pg', 120))).toBe(120);
  });
});
