// Before the drills: the tools they need are there (else a clear failure, never a skip: CI must run them),
// and Tolem is built once (`npm run build`: dist/main.js, what every drill's processes start from).
import { spawnSync } from 'node:child_process';
import { missingTools } from './harness/services.ts';
import { ROOT } from './harness/tolem.ts';

export default function setup(): void {
  const missing = missingTools();
  if (missing) throw new Error(missing);
  const built = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('npm run build failed: the drills run dist/main.js');
}
