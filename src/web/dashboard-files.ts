// The web dashboard's built files (packages/dashboard/dist, made by Vite at build time), read once into
// memory: a few dozen files. Found beside the repository's root whether the server runs from the bundle
// (dist/main.js) or from the sources (src/web/).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface DashboardFile {
  body: Buffer;
  type: string;
  /** hashed names under assets/ never change: cached for a year; index.html always revalidated */
  immutable: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

function findDir(): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return [path.resolve(here, '../packages/dashboard/dist'), path.resolve(here, '../../packages/dashboard/dist')].find(
    (d) => existsSync(path.join(d, 'index.html')),
  );
}

function readAll(dir: string, prefix = ''): Map<string, DashboardFile> {
  const files = new Map<string, DashboardFile>();
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(full).isDirectory()) {
      for (const [k, v] of readAll(full, rel)) files.set(k, v);
    } else {
      files.set(rel, {
        body: readFileSync(full),
        type: TYPES[path.extname(name)] ?? 'application/octet-stream',
        immutable: rel.startsWith('assets/'),
      });
    }
  }
  return files;
}

/** The files by their path under /dashboard/ (`index.html`, `assets/index-….js`), or undefined if not built. */
export function loadDashboard(): Map<string, DashboardFile> | undefined {
  const dir = findDir();
  return dir ? readAll(dir) : undefined;
}
