// timestamptz values as PostgreSQL sends them to a UTC session ('2026-11-26 03:17:21.904123+00'), read
// into Dates without the general parser: pg's (postgres-date) runs three regular expressions per value,
// and a list page has about eighty of them, a visible share of its CPU (docs/performance.md). Anything
// else (another offset, BC, infinity, a year below 1000) goes to the library's parser, and the values
// are the library's exactly (the fraction is read the same way; test/foundation/timestamps.test.ts).
import pg from 'pg';

const UTC_TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?\+00$/;
const TIMESTAMPTZ = 1184;

/** pg's own parser, which every value outside the fast path goes to. */
export const libraryParse = pg.types.getTypeParser(TIMESTAMPTZ) as (s: string) => Date | number | null;
const two = (s: string, at: number) => (s.charCodeAt(at) - 48) * 10 + s.charCodeAt(at + 1) - 48;

/** The fast path alone: the Date of a UTC value in PostgreSQL's shape, undefined for any other shape. */
export function fastUtcTimestamp(s: string): Date | undefined {
  if (!UTC_TIMESTAMP.test(s)) return undefined;
  const year = two(s, 0) * 100 + two(s, 2);
  if (year < 1000) return undefined;
  // As postgres-date: the fraction's digits as milliseconds, cut to an integer by Date.UTC.
  const ms = s.length > 22 ? 1000 * parseFloat(s.slice(19, -3)) : 0;
  return new Date(Date.UTC(year, two(s, 5) - 1, two(s, 8), two(s, 11), two(s, 14), two(s, 17), ms));
}

export const parseTimestamptz = (s: string): Date | number | null => fastUtcTimestamp(s) ?? libraryParse(s);

pg.types.setTypeParser(TIMESTAMPTZ, parseTimestamptz);
