// badTextAt: text a request may not carry (NUL, lone surrogates, nesting past MAX_DEPTH), found by path
// without recursion.
import { describe, expect, it } from 'vitest';
import { badTextAt, MAX_DEPTH } from '../../src/http/validation.ts';

const at = (v: unknown) => badTextAt(v)?.path;

describe('badTextAt', () => {
  it('passes ordinary text, emoji (surrogate pairs) included', () => {
    expect(badTextAt({ a: 'ok', b: [1, 'Заказ 😀'], c: null })).toBeUndefined();
    expect(badTextAt(undefined)).toBeUndefined();
  });

  it('names the first string or key holding a NUL', () => {
    expect(at('a\u0000')).toBe('');
    expect(at({ items: [{ name: 'ok' }, { name: 'b\u0000' }] })).toBe('items.1.name');
    expect(at({ meta: { 'k\u0000': 1 } })).toBe('meta.k\u0000');
  });

  it('names a lone surrogate, high or low', () => {
    expect(badTextAt({ name: 'x\ud800' })).toMatchObject({ path: 'name', why: expect.stringContaining('surrogate') });
    expect(at({ metadata: { k: '\udc00y' } })).toBe('metadata.k');
    expect(at({ c: 'é\udc00' })).toBe('c');
  });

  it('refuses nesting past MAX_DEPTH, without overflowing the stack however deep', () => {
    const nest = (n: number) => {
      let v: unknown = 'x';
      for (let i = 0; i < n; i++) v = [v];
      return v;
    };
    expect(badTextAt(nest(MAX_DEPTH))).toBeUndefined();
    expect(badTextAt(nest(MAX_DEPTH + 1))?.why).toMatch(/deeper/);
    expect(badTextAt(nest(200_000))?.why).toMatch(/deeper/);
  });
});
