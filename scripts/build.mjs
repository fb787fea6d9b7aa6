// Builds dist/main.js: src/ bundled into one ES module by esbuild, packages (but one) left to node_modules, with
// the files the code reads beside it (checkout assets, migrations). Starting from it instead of through
// tsx saves transpiling and resolving ~100 TypeScript modules at every start (about 0.7 s of the ~2.5 s
// to a ready /readyz measured on the 2-core machine; docs/performance.md).
import { build } from 'esbuild';
import { cpSync, readFileSync, rmSync } from 'node:fs';

// Packages stay in node_modules, except the schema builder: typebox is ~700 small ES modules whose
// loading took ~0.17 s of every start; bundled, it is one parse of the code the schemas use.
const BUNDLED = new Set(['typebox']);
const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8'));
const external = Object.keys(dependencies)
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`]);

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  sourcemap: 'linked',
  logLevel: 'warning',
});
// Read relative to the module (import.meta.url), which is now dist/main.js.
cpSync('src/web/assets', 'dist/assets', { recursive: true });
cpSync('src/db/migrations', 'dist/migrations', { recursive: true });
// The workspace packages (SDK, CLI, the dashboard the server serves), if their sources changed.
await import('./build-packages.mjs');
