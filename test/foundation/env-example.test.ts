// Every variable the configuration reads is in .env.example (with its default) and in README's table, so an
// operator never learns of one from the source. Names are read from src/config.ts itself: a variable added
// there without its two lines fails here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const read = (f: string) => readFileSync(path.join(root, f), 'utf8');

/** The names src/config.ts reads: env.NAME, int('NAME', ...), secret(env, 'NAME') (+ NAME_FILE), QRAPI_R<n>_URL. */
export function configVariables(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)) names.add(m[1]);
  for (const m of source.matchAll(/secret\(env, '([A-Z][A-Z0-9_]+)'\)/g)) names.add(m[1]).add(`${m[1]}_FILE`);
  if (source.includes('`QRAPI_R${n}_URL`')) for (const n of [1, 2, 3]) names.add(`QRAPI_R${n}_URL`);
  return [...names].sort();
}

it('finds the variables of a made-up configuration, so that an empty list cannot pass', () => {
  const src = "x = env.FOO_BAR; y = secret(env, 'KEY'); z = env[`QRAPI_R${n}_URL`]; env.lower;";
  expect(configVariables(src)).toEqual(['FOO_BAR', 'KEY', 'KEY_FILE', 'QRAPI_R1_URL', 'QRAPI_R2_URL', 'QRAPI_R3_URL']);
});

it('lists every variable of src/config.ts in .env.example and in README.md', () => {
  const vars = configVariables(read('src/config.ts'));
  expect(vars.length).toBeGreaterThan(40);
  const example = read('.env.example');
  const readme = read('README.md')
    .split('\n')
    .filter((l) => l.startsWith('| '))
    .join('\n');
  expect(vars.filter((v) => !new RegExp(`\\b${v}=`).test(example))).toEqual([]);
  expect(vars.filter((v) => !new RegExp(`\\b${v}\\b`).test(readme))).toEqual([]);
});
