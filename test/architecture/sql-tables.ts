// Which tables each source file names in its SQL, read from the text (dependency-cruiser sees imports, not
// tables). A statement is any string or template literal holding SQL keywords; a table is a name after FROM,
// JOIN, INTO, UPDATE, DELETE FROM or TABLE that a migration creates.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface TableUse {
  table: string;
  write: boolean;
}

const ROOT = join(import.meta.dirname, '../..');

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every table a migration creates. */
export function knownTables(): Set<string> {
  const dir = join(ROOT, 'src/db/migrations');
  const sql = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
  return new Set([...sql.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?(\w+)/gi)].map((m) => m[1]));
}

const LITERAL = /`(?:[^`\\]|\\.)*`|'(?:[^'\\\n]|\\.)*'/g;
const SQL_WORD = /\b(SELECT|INSERT|UPDATE|DELETE|WITH)\b/;
const NAMED = /\b(FROM|JOIN|INTO|UPDATE|TABLE)\s+(\w+)/gi;
const WRITTEN = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?)\s+(\w+)/gi;

/** Every SQL statement text of each file of src/ (migrations aside), path relative to the repository. */
export function statementsBySourceFile(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const abs of walk(join(ROOT, 'src'))) {
    if (abs.includes('/migrations/')) continue;
    const sqls = [...readFileSync(abs, 'utf8').matchAll(LITERAL)].map(([lit]) => lit).filter((l) => SQL_WORD.test(l));
    if (sqls.length) out.set(relative(ROOT, abs), sqls);
  }
  return out;
}

/** The tables each file of src/ (migrations aside) names in SQL, path relative to the repository. */
export function tablesBySourceFile(): Map<string, TableUse[]> {
  const tables = knownTables();
  const out = new Map<string, TableUse[]>();
  for (const abs of walk(join(ROOT, 'src'))) {
    const file = relative(ROOT, abs);
    const uses = new Map<string, boolean>();
    for (const [lit] of readFileSync(abs, 'utf8').matchAll(LITERAL)) {
      if (!SQL_WORD.test(lit)) continue;
      for (const m of lit.matchAll(NAMED)) if (tables.has(m[2])) uses.set(m[2], uses.get(m[2]) ?? false);
      for (const m of lit.matchAll(WRITTEN)) if (tables.has(m[1])) uses.set(m[1], true);
    }
    if (uses.size)
      out.set(
        file,
        [...uses].map(([table, write]) => ({ table, write })),
      );
  }
  return out;
}
