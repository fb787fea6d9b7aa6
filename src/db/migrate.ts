// Numbered SQL migrations (src/db/migrations/NNNN_name.sql), applied in order, each once, under an
// advisory lock so that several instances starting together do not race.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { Db } from './db.ts';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const LOCK_ID = 72_653_001;

/**
 * The migration files in order, by their number. Two files with one number (two branches merged, each with
 * its "next" migration) stop everything: an applied number is never run again, so one of the two would be
 * skipped without a word on every store that already has the other.
 */
export function orderedMigrations(files: string[]): { version: number; name: string }[] {
  const named = files
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 4)), name: f }));
  const twice = named.filter((m, i) => i > 0 && named[i - 1].version === m.version);
  if (twice.length)
    throw new Error(`two migrations share a number: ${twice.map((m) => m.name).join(', ')} (renumber one)`);
  return named;
}

export function migrationFiles(): { version: number; name: string; sql: string }[] {
  return orderedMigrations(readdirSync(DIR)).map((m) => ({ ...m, sql: readFileSync(path.join(DIR, m.name), 'utf8') }));
}

/**
 * Statements end with a semicolon at a line end. Line comments are dropped first, so a comment may end
 * with one too. Migrations use no $$ bodies and no '--' inside string literals.
 */
export function statements(sql: string): string[] {
  return sql
    .replace(/--[^\n]*/g, '')
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter(Boolean);
}

export async function migrate(db: Db): Promise<string[]> {
  const applied: string[] = [];
  await db.tx(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_ID]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set(
      (await tx.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version),
    );
    for (const m of migrationFiles()) {
      if (done.has(m.version)) continue;
      for (const stmt of statements(m.sql)) {
        await tx.query(stmt);
      }
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.name);
    }
  });
  return applied;
}
