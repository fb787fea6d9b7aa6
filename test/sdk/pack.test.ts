// The published shape of the packages: `npm pack` of the SDK and the CLI gives tarballs that each install
// into an empty project of their own with no registry at all, so nothing of @tolem/* is ever asked of a
// registry; the installed `tolem` runs; the repository's examples type-check against the installed SDK, and
// its take-a-payment example takes a payment from a running server. The CLI has no dependency (the SDK is
// bundled into it). The SDK's registry dependencies (openapi-fetch and what it needs) stand in for the
// registry as tarballs packed from the copies `npm ci` installed from the lock file: the npm cache holds
// their tarballs but not the registry's metadata a range like ^0.17.0 needs, so an offline install from
// the cache alone works or fails by what else the machine once installed.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { newMerchant } from '../helpers/factories.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
// No registry: --offline, so a package not in the npm cache (any of @tolem/*: never published) fails the
// install. (The cache is keyed by the registry's address, so it stays the configured one.)
const NO_REGISTRY = { npm_config_loglevel: 'error', npm_config_offline: 'true' };
const run = (cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  promisify(execFile)(cmd, args, { cwd, timeout: 120_000, env: { ...process.env, ...env } });

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t?.close());

/** Tarballs of `pkg`'s registry dependencies and theirs, packed from the repository's node_modules. */
async function packedDependencies(pkg: string, dir: string): Promise<string[]> {
  const seen = new Set<string>();
  const todo = Object.keys(JSON.parse(readFileSync(path.join(ROOT, pkg, 'package.json'), 'utf8')).dependencies ?? {});
  while (todo.length) {
    const name = todo.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8'));
    todo.push(...Object.keys(manifest.dependencies ?? {}));
  }
  const folders = [...seen].map((name) => `./node_modules/${name}`);
  const packed = await run('npm', ['pack', ...folders, '--ignore-scripts', '--pack-destination', dir], ROOT, {
    npm_config_loglevel: 'error',
  });
  return packed.stdout
    .trim()
    .split('\n')
    .map((f) => path.join(dir, f.trim()));
}

function emptyProject(dir: string, name: string): string {
  const app = path.join(dir, name);
  cpSync(path.join(ROOT, 'examples'), path.join(app, 'examples'), { recursive: true });
  writeFileSync(
    path.join(app, 'package.json'),
    JSON.stringify({ name: `tolem-pack-${name}`, private: true, type: 'module' }),
  );
  return app;
}

it('npm pack gives tarballs that install alone with no registry; tolem ' +
  'runs; the SDK example takes a payment', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tolem-pack-'));
  try {
    await run('npm', ['pack', './packages/sdk', './packages/cli', '--pack-destination', dir], ROOT, {
      npm_config_loglevel: 'error',
    });
    const tarballs = readdirSync(dir)
      .filter((f) => f.endsWith('.tgz'))
      .sort();
    expect(tarballs).toEqual(['tolem-cli-0.1.0.tgz', 'tolem-sdk-0.1.0.tgz']);

    // The CLI on its own: nothing to fetch, and it runs.
    const cliApp = emptyProject(dir, 'cli');
    await run(
      'npm',
      ['install', '--no-audit', '--no-fund', path.join(dir, 'tolem-cli-0.1.0.tgz')],
      cliApp,
      NO_REGISTRY,
    );
    const pkg = JSON.parse(readFileSync(path.join(cliApp, 'node_modules/@tolem/cli/package.json'), 'utf8'));
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(readdirSync(path.join(cliApp, 'node_modules/@tolem'))).toEqual(['cli']);
    expect(readdirSync(path.join(cliApp, 'node_modules/@tolem/cli')).sort()).toEqual([
      'LICENSE',
      'README.md',
      'bin',
      'dist',
      'package.json',
    ]);
    expect(readFileSync(path.join(cliApp, 'node_modules/@tolem/cli/dist/THIRD_PARTY_LICENSES'), 'utf8')).toContain(
      'commander@',
    );
    const help = await run(path.join(cliApp, 'node_modules/.bin/tolem'), ['--help'], cliApp);
    expect(help.stdout).toContain('listen');

    // The SDK on its own: its examples type-check against it, and one takes a payment.
    const sdkApp = emptyProject(dir, 'sdk');
    const deps = await packedDependencies('packages/sdk', dir);
    expect(deps.map((f) => path.basename(f))).toContainEqual(expect.stringMatching(/^openapi-fetch-/));
    await run(
      'npm',
      ['install', '--no-audit', '--no-fund', path.join(dir, 'tolem-sdk-0.1.0.tgz'), ...deps],
      sdkApp,
      NO_REGISTRY,
    );
    writeFileSync(
      path.join(sdkApp, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [path.join(ROOT, 'node_modules/@types')],
        },
        include: ['examples'],
      }),
    );
    const tsc = await run(
      process.execPath,
      [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'],
      sdkApp,
    ).catch((e: { stdout: string }) => e);
    expect((tsc as { stdout: string }).stdout).toBe('');
    const m = await newMerchant(t.app);
    const example = await run(
      process.execPath,
      ['--import', path.join(ROOT, 'node_modules/tsx/dist/esm/index.mjs'), 'examples/take-a-payment/index.ts'],
      sdkApp,
      { TOLEM_API_URL: base, TOLEM_API_KEY: m.testKey },
    );
    expect(example.stdout).toMatch(/op_\w+ paid 5000/);
    expect(example.stdout).toMatch(/refunded 2000 left 3000/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 240_000);
