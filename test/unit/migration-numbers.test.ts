// Migrations are applied by number, once: two files with one number would leave one of them unapplied on
// every store that has the other. The list refuses such a pair, and the repository has none.
import { expect, it } from 'vitest';
import { migrationFiles, orderedMigrations } from '../../src/db/migrate.ts';

it('orders migrations by number and refuses two with one number', () => {
  expect(orderedMigrations(['0002_b.sql', 'README.md', '0001_a.sql']).map((m) => m.version)).toEqual([1, 2]);
  expect(() => orderedMigrations(['0025_amount.sql', '0024_x.sql', '0025_trace.sql'])).toThrow(
    'two migrations share a number: 0025_trace.sql',
  );
});

it('the migrations of the repository have one number each, with no gap', () => {
  const versions = migrationFiles().map((m) => m.version);
  expect(versions.length).toBeGreaterThan(25);
  expect(versions).toEqual(versions.map((_, i) => i + 1));
});
