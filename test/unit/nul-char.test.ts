// nulCharAt: finds a NUL character anywhere in a parsed request part, by path, without recursion.
import { describe, expect, it } from 'vitest';
import { nulCharAt } from '../../src/http/validation.ts';

describe('nulCharAt', () => {
  it('names the first string or key holding a NUL, and nothing otherwise', () => {
    expect(nulCharAt({ a: 'ok', b: [1, 'x'], c: null })).toBeUndefined();
    expect(nulCharAt(undefined)).toBeUndefined();
    expect(nulCharAt('a\u0000')).toBe('');
    expect(nulCharAt({ items: [{ name: 'ok' }, { name: 'b\u0000' }] })).toBe('items.1.name');
    expect(nulCharAt({ meta: { 'k\u0000': 1 } })).toBe('meta.k\u0000');
  });

  it('walks nesting deeper than the call stack allows', () => {
    let v: unknown = 'deep\u0000';
    for (let i = 0; i < 200_000; i++) v = [v];
    expect(nulCharAt(v)).toMatch(/^0(\.0)+$/);
  });
});
