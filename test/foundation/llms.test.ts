// /llms.txt and /llms-full.txt: plain text an AI coding assistant can read; every path the guide names is
// an operation of /openapi.json, and the full text lists every operation of the document.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

it(
  'is plain text whose every named path is an operation of /openapi.json, ' + 'and the full text lists them all',
  async () => {
    const short = await t.app.inject({ method: 'GET', url: '/llms.txt' });
    expect(short.statusCode).toBe(200);
    expect(short.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(short.body).toMatch(/^# Tolem\n/);
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const named = [...short.body.matchAll(/\b(GET|POST|PATCH|DELETE|PUT) (\/[\w/{}.-]+)/g)].map((m) => [
      m[1].toLowerCase(),
      m[2],
    ]);
    expect(named.length).toBeGreaterThan(8);
    for (const [method, path] of named) expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    for (const h of [
      'Idempotency-Key',
      'webhook-signature',
      'X-Webhook-Signature',
      'tolem listen',
      'WEBHOOKS_ALLOW_PRIVATE',
    ])
      expect(short.body).toContain(h);
    const full = (await t.app.inject({ method: 'GET', url: '/llms-full.txt' })).body;
    expect(full.startsWith(short.body)).toBe(true);
    const ops = Object.values(doc.paths as Record<string, object>).flatMap((o) =>
      Object.keys(o).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)),
    );
    expect(full.split('\n').filter((l) => /^- (GET|POST|PUT|PATCH|DELETE) \//.test(l))).toHaveLength(ops.length);
    expect(full).toContain('- POST /v2/qr: Create a payment QR code [ApiKey]');
  },
);
