// Builds the workspace packages whose sources are newer than their last build: the SDK (TypeScript to
// dist/) and the CLI (one bundle, in that order: the CLI bundles the SDK's build) and the web dashboard (Vite; the
// server serves packages/dashboard/dist). Run by `npm install` (prepare) and by every `npm run build` (so
// `npm start`); a no-op when nothing changed. `--force` builds all three.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const force = process.argv.includes('--force');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
const bin = (name) => path.join(root, 'node_modules', name);

const PACKAGES = [
  {
    name: 'sdk',
    built: 'dist/index.js',
    sources: ['src', 'scripts', 'package.json', 'tsconfig.json'],
    cmd: ['scripts/build.mjs'],
  },
  // The CLI is bundled (esbuild, the SDK inside), so that its tarball installs on its own.
  {
    name: 'cli',
    built: 'dist/main.js',
    sources: ['src', 'scripts', 'package.json', 'tsconfig.json', '../sdk/dist/index.js'],
    cmd: ['scripts/build.mjs'],
  },
  {
    name: 'dashboard',
    built: 'dist/index.html',
    sources: ['src', 'index.html', 'vite.config.ts', 'precompress.ts', 'package.json'],
    cmd: [bin('vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
  },
];

function newest(p) {
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(p).map((n) => newest(path.join(p, n))));
}

for (const p of PACKAGES) {
  if (only && only !== p.name) continue;
  const dir = path.join(root, 'packages', p.name);
  if (!existsSync(dir)) continue;
  const built = path.join(dir, p.built);
  const sources = p.sources.map((n) => path.join(dir, n)).filter(existsSync);
  if (!force && existsSync(built) && Math.max(...sources.map(newest)) <= statSync(built).mtimeMs) continue;
  // A production build whatever the caller's NODE_ENV (a test runner sets 'test', which would give Vite
  // React's development bundle).
  const r = spawnSync(process.execPath, p.cmd, {
    cwd: dir,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
