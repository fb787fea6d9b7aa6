// Puts a fresh build in place of a package's dist/ without a moment where a file is missing or half written:
// each built file is renamed over its old copy (a rename within one file system is atomic), then files the
// new build no longer has are removed. Tests run beside `npm pack`, whose prepack rebuilds the same dist/
// that other test files are importing at that moment; deleting dist/ first made them fail now and then.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

/** Paths, relative to `root`, of the files under it. */
function files(root, under = '') {
  if (!existsSync(path.join(root, under))) return [];
  return readdirSync(path.join(root, under)).flatMap((name) => {
    const rel = path.join(under, name);
    return statSync(path.join(root, rel)).isDirectory() ? files(root, rel) : [rel];
  });
}

/** Moves every file of `staging` into `dist` (replacing), drops what `dist` had beyond them, removes `staging`. */
export function publishDist(staging, dist) {
  const fresh = files(staging);
  for (const rel of fresh) {
    mkdirSync(path.dirname(path.join(dist, rel)), { recursive: true });
    renameSync(path.join(staging, rel), path.join(dist, rel));
  }
  const keep = new Set(fresh);
  for (const rel of files(dist)) if (!keep.has(rel)) rmSync(path.join(dist, rel));
  rmSync(staging, { recursive: true, force: true });
}

/** A staging folder beside `dist` (same file system, so the renames are atomic), unique to this process. */
export function stagingFor(dist) {
  const dir = `${dist}.building-${process.pid}`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}
