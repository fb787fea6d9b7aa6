// /dashboard: the built single-page app served from memory: its page under a strict CSP, its hashed
// assets cached for good, any app route answered with the page, a missing asset 404.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  // `npm install` builds it (prepare); a checkout that skipped it is built here (a few seconds).
  if (!existsSync('packages/dashboard/dist/index.html'))
    execFileSync(process.execPath, ['scripts/build-packages.mjs', '--only=dashboard'], { stdio: 'inherit' });
  t = await buildTestApp();
}, 120_000);
afterAll(() => t?.close());

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
  const js = readdirSync('packages/dashboard/dist/assets').find((f) => f.endsWith('.js'))!;
  const asset = await t.app.inject({ method: 'GET', url: `/dashboard/assets/${js}` });
  expect(asset.statusCode).toBe(200);
  expect(asset.headers['content-type']).toBe('application/javascript; charset=utf-8');
  expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  const missing = await t.app.inject({ method: 'GET', url: '/dashboard/assets/nope.js' });
  expect(missing.statusCode).toBe(404);
  expect(missing.json().error.code).toBe('not_found');
});

it(
  "the first load (the page's script, its preloaded chunks and styles, " +
    'plus the charts of the first page) is under 500 KB gzipped',
  () => {
    const dist = 'packages/dashboard/dist';
    const html = readFileSync(`${dist}/index.html`, 'utf8');
    const first = [...html.matchAll(/(?:src|href)="\/dashboard\/(assets\/[^"]+)"/g)].map((m) => m[1]);
    // The overview (the first page after sign-in) draws a chart: its chunk and the charts library's count too.
    const lazy = readdirSync(`${dist}/assets`)
      .filter((f) => /^(Overview|styles)-.*\.js$/.test(f))
      .map((f) => `assets/${f}`);
    const gz = [...new Set([...first, ...lazy])].reduce((n, f) => n + gzipSync(readFileSync(`${dist}/${f}`)).length, 0);
    console.log(`dashboard first load: ${Math.round(gz / 1024)} KB gzipped over ${first.length + lazy.length} files`);
    expect(first.length).toBeGreaterThan(1);
    expect(gz).toBeLessThan(500 * 1024);
  },
);
