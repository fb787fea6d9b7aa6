// The read-through caches: a value read while an eviction happened is not cached (it may predate the
// change that caused the eviction: a key regenerated while its lookup was in flight).
import { describe, expect, it } from 'vitest';
import { Caches, TtlCache } from '../../src/infra/cache.ts';

describe('TtlCache', () => {
  it('caches a value read with no eviction meanwhile', () => {
    const c = new TtlCache<string>();
    const readAt = c.generation;
    c.set('k', 'v', readAt);
    expect(c.get('k')).toBe('v');
  });

  it('drops a value read while any eviction happened', () => {
    const c = new TtlCache<string>();
    for (const evict of [() => c.delete('k'), () => c.clear(), () => c.deletePrefix('x')]) {
      const readAt = c.generation;
      evict(); // the change commits and its notification evicts while the query runs
      c.set('k', 'stale', readAt);
      expect(c.get('k')).toBeUndefined();
    }
  });

  it('a notification evicts only its own kind and key', () => {
    const caches = new Caches();
    caches.apiKeys.set('h1', 1);
    caches.apiKeys.set('h2', 2);
    caches.accounts.set('7:live', 'a');
    caches.evict('key:h1');
    expect([caches.apiKeys.get('h1'), caches.apiKeys.get('h2'), caches.accounts.get('7:live')]).toEqual([
      undefined,
      2,
      'a',
    ]);
    caches.evict('account:7:');
    expect(caches.accounts.get('7:live')).toBeUndefined();
  });
});
