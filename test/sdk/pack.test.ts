// The published shape of the packages: `npm pack` of the SDK and the CLI gives tarballs that install into
// an empty project (the SDK's one dependency, openapi-fetch, from the npm cache or registry); the
// repository's examples type-check against the installed SDK; the installed `tolem` runs.
import { expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = (cmd: string, args: string[], cwd: string) => promisify(execFile)(cmd, args, { cwd, timeout: 120_000, env: { ...process.env, npm_config_loglevel: 'error' } });

it('npm pack gives installable tarballs; the examples type-check against the installed SDK; tolem runs', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tolem-pack-'));
  try {
    await run('npm', ['pack', './packages/sdk', './packages/cli', '--pack-destination', dir], ROOT);
    const tarballs = readdirSync(dir).filter((f) => f.endsWith('.tgz')).sort();
    expect(tarballs).toEqual(['tolem-cli-0.1.0.tgz', 'tolem-sdk-0.1.0.tgz']);
    const app = path.join(dir, 'app');
    cpSync(path.join(ROOT, 'examples'), path.join(app, 'examples'), { recursive: true });
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'tolem-pack-check', private: true, type: 'module' }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(dir, 'tolem-sdk-0.1.0.tgz'), path.join(dir, 'tolem-cli-0.1.0.tgz')], app);
    writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true,
        types: ['node'], typeRoots: [path.join(ROOT, 'node_modules/@types')],
      },
      include: ['examples'],
    }));
    const tsc = await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'], app).catch((e: { stdout: string }) => e);
    expect((tsc as { stdout: string }).stdout).toBe('');
    const help = await run(path.join(app, 'node_modules/.bin/tolem'), ['--help'], app);
    expect(help.stdout).toContain('tolem listen');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);
