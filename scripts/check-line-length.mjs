// Lists the lines longer than 120 characters in the tracked source files (.ts .tsx .mjs .cjs .js), as
// `path:line: N chars`, and exits 1 if there is any. Biome formats at 120 columns but cannot break long string and
// template literals or comments; this catches those. `--summary` prints only the count per top folder.
// Skips the generated packages/sdk/src/schema.ts and build output (dist/). Run with plain `node`, from anywhere
// in the repository.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const MAX = 120;
const EXTENSIONS = ['.ts', '.tsx', '.mjs', '.cjs', '.js'];
const SKIPPED = new Set(['packages/sdk/src/schema.ts']);

const root = path.resolve(import.meta.dirname, '..');
const summary = process.argv.includes('--summary');

const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  .split('\0')
  .filter((file) => file !== '')
  .filter((file) => EXTENSIONS.includes(path.extname(file)))
  .filter((file) => !SKIPPED.has(file) && !file.split('/').includes('dist'));

const long = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(path.join(root, file), 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') continue; // deleted in the work tree, not yet in the index
    throw error;
  }
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    // Characters, not UTF-16 units: a line with Cyrillic or emoji counts what an editor shows.
    const length = [...lines[i]].length;
    if (length > MAX) long.push({ file, line: i + 1, length });
  }
}

if (summary) {
  const perFolder = new Map();
  for (const { file } of long) {
    const folder = file.includes('/') ? file.slice(0, file.indexOf('/')) : '.';
    perFolder.set(folder, (perFolder.get(folder) ?? 0) + 1);
  }
  for (const [folder, count] of [...perFolder].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`${folder}: ${count}`);
  }
  console.log(`total: ${long.length} line(s) over ${MAX} characters in ${files.length} files`);
} else {
  for (const { file, line, length } of long) console.log(`${file}:${line}: ${length} chars`);
  if (long.length > 0) console.log(`${long.length} line(s) over ${MAX} characters`);
}

process.exitCode = long.length > 0 ? 1 : 0;
