// The SDK's build: TypeScript to dist/ (with declarations and source maps), compiled aside and then put in
// place file by file, so that dist/ is clean (nothing an earlier build left goes into a tarball) and never
// missing or half written while something imports it (tests run beside `npm pack`, whose prepack builds).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { publishDist, stagingFor } from '../../../scripts/publish-dist.mjs';

const here = path.resolve(import.meta.dirname, '..');
const staging = stagingFor(path.join(here, 'dist'));
// The root package's TypeScript (this build runs in the repository: prepack, npm install's prepare).
const tsc = path.resolve(here, '../../node_modules/typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', staging], {
  cwd: here,
  stdio: 'inherit',
});
if (r.status !== 0) {
  rmSync(staging, { recursive: true, force: true });
  process.exit(r.status ?? 1);
}
publishDist(staging, path.join(here, 'dist'));
