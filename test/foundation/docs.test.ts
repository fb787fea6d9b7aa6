// /docs that work anywhere (#16 item 11): a relative server, so "Try it out" calls the host the page came
// from (127.0.0.1, a proxy's name); a getting-started text; the product's name and logo on the page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let behindPrefix: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ publicBaseUrl: 'https://pay.example.kz' });
  behindPrefix = await buildTestApp({ publicBaseUrl: 'https://example.kz/payments/' });
});
afterAll(async () => {
  await t.close();
  await behindPrefix.close();
});

const docOf = async (app: TestApp) => (await app.app.inject({ method: 'GET', url: '/openapi.json' })).json();

describe('the API documentation', () => {
  it('names a relative server: no host is written into the document', async () => {
    expect((await docOf(t)).servers).toEqual([{ url: '/', description: 'this server' }]);
    expect((await docOf(behindPrefix)).servers).toEqual([{ url: '/payments', description: 'this server' }]);
    expect(JSON.stringify(await docOf(t))).not.toContain('pay.example.kz');
  });

  it('starts with a getting-started text', async () => {
    const { info } = await docOf(t);
    expect(info.title).toBe('Tolem API');
    expect(info.description).toContain('Getting started');
    expect(info.description).toContain('Idempotency-Key');
    expect(info.description).toContain('/v2/test/payments/{op_id}/pay');
  });

  it('the page carries the product name and its own logo', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Tolem API</title>');
    const init = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    const logo = /data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/.exec(init.body);
    expect(logo, 'the logo is inlined').not.toBeNull();
    expect(Buffer.from(logo![1], 'base64').toString()).toContain('aria-label="Tolem"');
  });
});
