// Builds the web dashboard (packages/dashboard, Vite) into packages/dashboard/dist when its sources are
// newer than the last build: run by `npm install` (prepare) and by every `npm run build` (so `npm start`),
// a no-op when nothing changed, about 3 s when something did.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const pkg = path.join(root, 'packages/dashboard');
const built = path.join(pkg, 'dist/index.html');

function newest(p) {
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(p).map((n) => newest(path.join(p, n))));
}

if (!existsSync(pkg)) process.exit(0);
const sources = ['src', 'index.html', 'vite.config.ts', 'package.json'].map((n) => path.join(pkg, n)).filter(existsSync);
const stale = !existsSync(built) || Math.max(...sources.map(newest)) > statSync(built).mtimeMs || process.argv.includes('--force');
if (stale) {
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: pkg, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
