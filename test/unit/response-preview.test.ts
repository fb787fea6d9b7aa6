// What is kept of a receiver's answer: 500 characters, storable as PostgreSQL text.
import { describe, expect, it } from 'vitest';
import { responsePreview } from '../../src/domain/webhooks/attempt.ts';

describe('responsePreview', () => {
  it('keeps the first 500 characters', () => {
    expect(responsePreview('a'.repeat(600))).toBe('a'.repeat(500));
    expect(responsePreview('{"ok":true}')).toBe('{"ok":true}');
  });

  it('drops NUL and lone surrogates, keeps pairs', () => {
    expect(responsePreview('a\u0000b\ud800c\udc00d😀')).toBe('abcd😀');
  });

  it('drops a pair cut at the 500th character rather than keep half of it', () => {
    const s = `${'a'.repeat(499)}😀tail`;
    expect(responsePreview(s)).toBe('a'.repeat(499));
  });
});
