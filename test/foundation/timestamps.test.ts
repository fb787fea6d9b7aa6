// The fast timestamptz parser (src/db/timestamps.ts) gives pg's own parser's values, exactly, for every
// shape PostgreSQL sends, and leaves the shapes it does not know to that parser.
import { expect, it } from 'vitest';
import { fastUtcTimestamp, libraryParse, parseTimestamptz } from '../../src/db/timestamps.ts';

const same = (s: string, fastPath: boolean) => {
  // The fast path is taken for exactly the shapes it claims (else it would be a silent no-op).
  expect(fastUtcTimestamp(s) instanceof Date, s).toBe(fastPath);
  const fast = parseTimestamptz(s);
  const lib = libraryParse(s);
  expect(fast instanceof Date ? fast.getTime() : fast, s).toEqual(lib instanceof Date ? lib.getTime() : lib);
};

it('reads UTC values with 0 to 6 fraction digits as the library does, the fraction cut to milliseconds alike', () => {
  for (const s of [
    '2026-11-26 03:17:21+00',
    '2026-11-26 03:17:21.9+00',
    '2026-11-26 03:17:21.95+00',
    '2026-11-26 03:17:21.904+00',
    '2026-11-26 03:17:21.9049+00',
    '2026-11-26 03:17:21.90499+00',
    '2026-11-26 03:17:21.904999+00',
    '1999-12-31 23:59:59.999999+00',
    '2024-02-29 12:00:00.000001+00',
    '1000-01-01 00:00:00+00',
    '9999-12-31 23:59:59.999999+00',
  ])
    same(s, true);
  // Every microsecond of one second: the fraction's float arithmetic must round exactly as the library's.
  for (let us = 0; us < 1_000_000; us += 7) same(`2026-11-26 03:17:21.${String(us).padStart(6, '0')}+00`, true);
  expect((parseTimestamptz('2026-11-26 03:17:21.904123+00') as Date).toISOString()).toBe('2026-11-26T03:17:21.904Z');
});

it('leaves other shapes to the library: offsets, BC, infinity, early years, five-digit years', () => {
  for (const s of [
    '2026-11-26 08:17:21.904+05',
    '2026-11-26 03:17:21.904-03:30',
    '0044-03-15 12:00:00+00 BC',
    '0099-01-01 00:00:00+00',
    '0999-06-01 00:00:00+00',
    '12026-01-01 00:00:00+00',
    'infinity',
    '-infinity',
    '2026-11-26',
    // near misses of the shape the fast path reads by position: seven fraction digits, a 'T', a one-digit field
    '2026-11-26 03:17:21.1234567+00',
    '2026-11-26T03:17:21+00',
    '2026-11-26 3:17:21.904+00',
    '2026-11-26 03:17:21+0000',
  ])
    same(s, false);
  expect(parseTimestamptz('infinity')).toBe(Infinity);
  expect((parseTimestamptz('0099-01-01 00:00:00+00') as Date).getUTCFullYear()).toBe(99);
});
