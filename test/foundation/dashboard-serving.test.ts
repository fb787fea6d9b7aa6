// /dashboard: the built single-page app served from memory: its page under a strict CSP, its hashed
// assets cached for good, any app route answered with the page, a missing asset 404. Text files go out
// in the coding the client accepts (the build's brotli and gzip copies), identity for the others; the
// first load is measured in bytes on the wire, as a browser asks for it.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { loadDashboard } from '../../src/web/dashboard-files.ts';
import { pickEncoding } from '../../src/http/dashboard/accept-encoding.ts';

const DIST = 'packages/dashboard/dist';
/** What Chromium sends with every request (over http too). */
const BROWSER_ACCEPT = 'gzip, deflate, br, zstd';

let t: TestApp;
let port: number;
beforeAll(async () => {
  // `npm install` builds it (prepare); a checkout that skipped it is built here (a few seconds).
  if (!existsSync(`${DIST}/index.html`))
    execFileSync(process.execPath, ['scripts/build-packages.mjs', '--only=dashboard'], { stdio: 'inherit' });
  t = await buildTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
}, 120_000);
afterAll(() => t?.close());

/** The page's own files: its script, the chunks it preloads, its styles. */
const firstLoad = () =>
  [...readFileSync(`${DIST}/index.html`, 'utf8').matchAll(/(?:src|href)="\/dashboard\/(assets\/[^"]+)"/g)].map(
    (m) => m[1],
  );

/** A chunk and every chunk it imports statically, as the browser fetches them before running it. */
function withImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = readFileSync(`${DIST}/${file}`, 'utf8');
  for (const m of code.matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)) withImports(`assets/${m[1]}`, seen);
  return seen;
}

/** The bytes one GET takes on the wire (status line, headers and body, HTTP/1.1 over a fresh connection). */
function onTheWire(url: string, acceptEncoding: string): Promise<{ bytes: number; head: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(
        `GET ${url} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept-Encoding: ${acceptEncoding}\r\n` +
          'Connection: close\r\n\r\n',
      ),
    );
    const got: Buffer[] = [];
    socket.on('data', (d) => got.push(d));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(got);
      resolve({ bytes: all.length, head: all.subarray(0, all.indexOf('\r\n\r\n')).toString() });
    });
  });
}

it('serves the app: the page with its CSP, assets for a year, app routes as the page, unknown assets 404', async () => {
  const page = await t.app.inject({ method: 'GET', url: '/dashboard/' });
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(page.headers['content-security-policy']).toContain("script-src 'self'");
  expect(page.headers['cache-control']).toBe('no-cache');
  expect(page.body).toContain('<div id="root"></div>');
  expect(page.body).not.toMatch(/<script>(?!<\/script>)/);
  for (const url of ['/dashboard', '/dashboard/payments/op_01ABC'])
    expect((await t.app.inject({ method: 'GET', url })).body, url).toBe(page.body);
  const js = readdirSync(`${DIST}/assets`).find((f) => f.endsWith('.js'))!;
  const asset = await t.app.inject({ method: 'GET', url: `/dashboard/assets/${js}` });
  expect(asset.statusCode).toBe(200);
  expect(asset.headers['content-type']).toBe('application/javascript; charset=utf-8');
  expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  const missing = await t.app.inject({ method: 'GET', url: '/dashboard/assets/nope.js' });
  expect(missing.statusCode).toBe(404);
  expect(missing.json().error.code).toBe('not_found');
  // The copies are the server's to choose: never served as files of their own.
  const copy = readdirSync(`${DIST}/assets`).find((f) => f.endsWith('.js.br'))!;
  expect((await t.app.inject({ method: 'GET', url: `/dashboard/assets/${copy}` })).statusCode).toBe(404);
});

describe('content codings', () => {
  const big = () => firstLoad().find((f) => /\/index-.*\.js$/.test(f))!;
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('brotli for a browser, gzip for a client without it, the file itself for the rest: each whole', async () => {
    const file = readFileSync(`${DIST}/${big()}`);
    const url = `/dashboard/${big()}`;
    const br = await get(url, { 'accept-encoding': BROWSER_ACCEPT });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).equals(file)).toBe(true);
    const gz = await get(url, { 'accept-encoding': 'gzip, deflate' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(file)).toBe(true);
    for (const accept of [undefined, 'identity', 'deflate', 'br;q=0, gzip;q=0', '*;q=0']) {
      const plain = await get(url, accept ? { 'accept-encoding': accept } : {});
      expect(plain.headers['content-encoding'], accept).toBeUndefined();
      expect(plain.rawPayload.equals(file), accept).toBe(true);
    }
    // Whatever the choice: the length is the body's, caches keep the codings apart, and so do the ETags.
    const tags = new Set<string>();
    for (const r of [br, gz, await get(url)]) {
      expect(Number(r.headers['content-length'])).toBe(r.rawPayload.length);
      expect(r.headers.vary).toBe('Accept-Encoding');
      tags.add(String(r.headers.etag));
    }
    expect(tags.size).toBe(3);
    expect(br.rawPayload.length).toBeLessThan(gz.rawPayload.length);
    expect(gz.rawPayload.length).toBeLessThan(file.length / 2);
  });

  it('follows q values: a refused coding is never sent, a preferred one wins, `*` stands for the rest', async () => {
    const url = `/dashboard/${big()}`;
    const coding = async (accept: string) =>
      (await get(url, { 'accept-encoding': accept })).headers['content-encoding'];
    expect(await coding('br;q=0, gzip')).toBe('gzip');
    expect(await coding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(await coding('gzip;q=0.5, br;q=0.5')).toBe('br');
    expect(await coding('*')).toBe('br');
    expect(await coding('gzip, *;q=0')).toBe('gzip');
    expect(await coding('x-gzip')).toBe('gzip');
    expect(await coding('BR')).toBe('br');
    expect(pickEncoding('br;q=0.001', ['br', 'gzip'])).toBe('br');
    expect(pickEncoding('br;q=0.000', ['br', 'gzip'])).toBeUndefined();
    expect(pickEncoding('gzip', [])).toBeUndefined();
  });

  it('the page answers 304 to the ETag of the representation the browser holds', async () => {
    const first = await get('/dashboard/', { 'accept-encoding': BROWSER_ACCEPT });
    expect(first.headers['content-encoding']).toBe('br');
    const again = await get('/dashboard/login', {
      'accept-encoding': BROWSER_ACCEPT,
      'if-none-match': String(first.headers.etag),
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers['content-security-policy']).toContain("script-src 'self'");
    // The tag of the brotli copy does not name the gzip one.
    const other = await get('/dashboard/', { 'accept-encoding': 'gzip', 'if-none-match': String(first.headers.etag) });
    expect(other.statusCode).toBe(200);
    expect(other.headers['content-encoding']).toBe('gzip');
  });

  it('small files and files without a copy are sent as they are, without Vary', async () => {
    const small = readdirSync(`${DIST}/assets`).find(
      (f) => f.endsWith('.js') && !existsSync(`${DIST}/assets/${f}.br`) && !existsSync(`${DIST}/assets/${f}.gz`),
    );
    expect(small, 'the build leaves its smallest chunks as they are').toBeDefined();
    const r = await get(`/dashboard/assets/${small}`, { 'accept-encoding': BROWSER_ACCEPT });
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.headers.vary).toBeUndefined();
    expect(r.rawPayload.equals(readFileSync(`${DIST}/assets/${small}`))).toBe(true);
  });

  it('a copy that is not the file (a stale build, a corrupt file) is never sent', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tolem-dist-'));
    try {
      const page = Buffer.from(`<!doctype html><title>new</title>${'<p>the new page</p>'.repeat(100)}`);
      writeFileSync(path.join(dir, 'index.html'), page);
      writeFileSync(path.join(dir, 'index.html.gz'), gzipSync(Buffer.from('<!doctype html><title>old</title>')));
      writeFileSync(path.join(dir, 'index.html.br'), Buffer.from('not brotli at all'));
      const files = loadDashboard(dir)!;
      const index = files.get('index.html')!;
      expect(index.encodings).toEqual(['br', 'gzip']);
      expect(index.encoded('br')).toBeUndefined();
      expect(index.encoded('gzip')).toBeUndefined();
      expect([...files.keys()]).toEqual(['index.html']);
      writeFileSync(path.join(dir, 'index.html.gz'), gzipSync(page));
      expect(loadDashboard(dir)!.get('index.html')!.encoded('gzip')?.length).toBeLessThan(page.length);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});

describe('weight on the wire (as Chromium asks: ' + BROWSER_ACCEPT + ')', () => {
  const measure = async (files: Iterable<string>) => {
    let bytes = 0;
    for (const f of files) {
      const r = await onTheWire(`/dashboard/${f}`, BROWSER_ACCEPT);
      expect(r.head, f).toMatch(/^HTTP\/1\.1 200/);
      // Every text file the build compressed (all but the smallest) comes as brotli.
      if (existsSync(`${DIST}/${f}.br`)) expect(r.head, f).toMatch(/^content-encoding: br$/im);
      bytes += r.bytes;
    }
    return bytes;
  };

  it('the sign-in form (the page, its script, the chunks it preloads, its styles) is under 250 KB', async () => {
    const files = ['login', ...firstLoad()];
    const bytes = await measure(files);
    const raw = firstLoad().reduce((n, f) => n + readFileSync(`${DIST}/${f}`).length, 0);
    console.log(`sign-in form: ${(bytes / 1024).toFixed(1)} KB on the wire (${Math.round(raw / 1024)} KB of files)`);
    expect(firstLoad().length).toBeGreaterThan(1);
    expect(bytes).toBeLessThan(250 * 1024);
  });

  it('the first page after sign-in (the menu, the overview and its charts) adds under 250 KB more', async () => {
    const assets = readdirSync(`${DIST}/assets`);
    const chunk = (name: string) => `assets/${assets.find((f) => new RegExp(`^${name}-[\\w-]+\\.js$`).test(f))}`;
    const before = new Set(firstLoad());
    const after = new Set<string>();
    for (const c of [chunk('Shell'), chunk('Overview')])
      for (const f of withImports(c)) if (!before.has(f)) after.add(f);
    // The styles a lazy chunk brings are loaded with it.
    for (const f of assets) if (f.endsWith('.css') && !before.has(`assets/${f}`)) after.add(`assets/${f}`);
    const bytes = await measure(after);
    console.log(`after sign-in: ${(bytes / 1024).toFixed(1)} KB more over ${after.size} files`);
    expect(bytes).toBeLessThan(250 * 1024);
  });
});
