// The web dashboard's built files (packages/dashboard/dist, made by Vite at build time), read once into
// memory: a few dozen files. Found beside the repository's root whether the server runs from the bundle
// (dist/main.js) or from the sources (src/web/). The build writes a brotli and a gzip copy beside each text
// file (packages/dashboard/precompress.ts); they are kept with the file they compress, never served as files.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/** The content codings the build makes, in the order the server prefers them (brotli is the smaller). */
export const ENCODINGS = ['br', 'gzip'] as const;
export type Encoding = (typeof ENCODINGS)[number];
const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };
const UNPACK: Record<Encoding, (b: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync };

export interface DashboardFile {
  body: Buffer;
  type: string;
  /** hashed names under assets/ never change: cached for a year; index.html always revalidated */
  immutable: boolean;
  /** the file's content hash, quoted: each representation's ETag adds its coding (`"…-br"`) */
  etag: string;
  /** the codings the build made a copy in (Vary: Accept-Encoding when any) */
  encodings: Encoding[];
  /** the copy in that coding, or undefined when there is none or it does not match the file */
  encoded(e: Encoding): Buffer | undefined;
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

/**
 * The copy of `full` in coding `e` if the build made one, read and checked on its first use: one that does
 * not decompress to the file (left from an earlier build, or the file edited after the build) is never
 * sent, since the browser would get another file than the one it asked for. Checking on first use keeps a
 * server's start (and every test app's) free of decompressing the whole build.
 */
function copyOf(full: string, body: Buffer, e: Encoding): (() => Buffer | undefined) | undefined {
  const copy = `${full}${SUFFIX[e]}`;
  if (!existsSync(copy)) return undefined;
  let checked: { packed: Buffer | undefined } | undefined;
  return () => {
    checked ??= { packed: sameFile(readFileSync(copy), body, e) };
    return checked.packed;
  };
}

function sameFile(packed: Buffer, body: Buffer, e: Encoding): Buffer | undefined {
  try {
    return packed.length < body.length && UNPACK[e](packed).equals(body) ? packed : undefined;
  } catch {
    return undefined; // not a valid stream: left out like a stale copy
  }
}

const isCopy = (name: string) => ENCODINGS.some((e) => name.endsWith(SUFFIX[e]));

function readAll(dir: string, prefix = ''): Map<string, DashboardFile> {
  const files = new Map<string, DashboardFile>();
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(full).isDirectory()) {
      for (const [k, v] of readAll(full, rel)) files.set(k, v);
    } else if (!isCopy(name)) {
      const body = readFileSync(full);
      const copies = new Map(ENCODINGS.map((e) => [e, copyOf(full, body, e)] as const).filter(([, c]) => c));
      files.set(rel, {
        body,
        type: TYPES[path.extname(name)] ?? 'application/octet-stream',
        immutable: rel.startsWith('assets/'),
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
        encodings: [...copies.keys()],
        encoded: (e) => copies.get(e)?.(),
      });
    }
  }
  return files;
}

/**
 * The files by their path under /dashboard/ (`index.html`, `assets/index-….js`), or undefined if not built.
 * `dir`: another build than the repository's (a test's).
 */
export function loadDashboard(dir = findDir()): Map<string, DashboardFile> | undefined {
  return dir && existsSync(path.join(dir, 'index.html')) ? readAll(dir) : undefined;
}
