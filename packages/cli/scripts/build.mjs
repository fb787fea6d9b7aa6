// The CLI's build: one ES module with everything it runs bundled in (the SDK, openapi-fetch, commander), so
// the packed CLI installs on its own, with no registry access to @tolem/* and no dependency to fetch. The
// licences of what is bundled go beside it (dist/THIRD_PARTY_LICENSES). esbuild is the root package's.
import { build } from 'esbuild';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { publishDist, stagingFor } from '../../../scripts/publish-dist.mjs';

const here = path.resolve(import.meta.dirname, '..');
// Built aside, then put in place file by file: a clean dist (a tarball carries nothing an earlier build
// left) that is never missing while something runs it.
const staging = stagingFor(path.join(here, 'dist'));
const outfile = path.join(staging, 'main.js');

const result = await build({
  entryPoints: [path.join(here, 'src/main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  legalComments: 'none',
  // commander is CommonJS: its require('node:events') needs a real require in an ES module.
  banner: {
    js:
      "import { createRequire as __tolemRequire } from 'node:module'; " +
      'const require = __tolemRequire(import.meta.url);',
  },
  logLevel: 'warning',
  metafile: true,
});
// npm sets the bin's mode when it links it, which may be before this build made the file.
chmodSync(outfile, 0o755);

// What was bundled, by the packages its files came from (node_modules/<name>/..., scoped names too).
const roots = new Set();
for (const input of Object.keys(result.metafile.inputs)) {
  const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input.replace(/\\/g, '/'));
  if (m) roots.add(path.resolve(process.cwd(), m[1]));
}
const licences = [...roots].sort().map((dir) => {
  const { name, version, license } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const file = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
  const text = file ? readFileSync(path.join(dir, file), 'utf8').trim() : '(no licence file in the package)';
  return `${name}@${version} (${license})\n\n${text}\n`;
});
writeFileSync(
  path.join(staging, 'THIRD_PARTY_LICENSES'),
  `The tolem CLI bundles these packages:\n\n${licences.join('\n---\n\n')}`,
);
publishDist(staging, path.join(here, 'dist'));
