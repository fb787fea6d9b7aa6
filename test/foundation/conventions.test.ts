// The conventions every response follows: the error envelope, X-Request-Id, rate-limit headers,
// OpenAPI, timestamps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, newMerchant } from '../helpers/factories.ts';
import { inlinedDoc } from '../helpers/openapi.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('error envelope', () => {
  it('unknown route is 404 not_found', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/no/such/route' });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res)).toMatchObject({ code: 'not_found', type: 'not_found', category: 'permanent' });
  });

  it('wrong method on a known path is 405 with Allow', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/auth/login' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toContain('POST');
    expect(errorOf(res).code).toBe('method_not_allowed');
  });

  it('malformed JSON is 400 invalid_json', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: 'invalid_json', type: 'validation_error', category: 'validation' });
  });

  it('a body over 1 MiB is 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.kz', password: 'x'.repeat(1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(errorOf(res).code).toBe('payload_too_large');
  });

  it('a non-JSON body is 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(res.statusCode).toBe(415);
    expect(errorOf(res).code).toBe('unsupported_media_type');
  });

  it('schema violations are 400 with param', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'x', email: 'not-an-email', password: 'long enough pass' },
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: 'invalid_parameter', param: 'email' });
    const short = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'x', email: 'a@b.kz', password: 'short' },
    });
    expect(errorOf(short)).toMatchObject({ code: 'invalid_parameter', param: 'password' });
    const missing = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { email: 'a@b.kz', password: 'long enough pass' },
    });
    expect(errorOf(missing)).toMatchObject({ code: 'invalid_parameter', param: 'name' });
  });

  it('unknown body fields are 400 naming the field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'a@b.kz', password: 'x', admin: true },
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: 'invalid_parameter', param: 'admin' });
  });

  it('a NUL character in any text is 400 naming where, and nothing is stored', async () => {
    const email = `nul-${Date.now()}@example.kz`;
    const reg = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'a\u0000b', email, password: '0123456789' },
    });
    expect(reg.statusCode).toBe(400);
    expect(errorOf(reg)).toMatchObject({ code: 'invalid_parameter', param: 'name' });
    const again = await t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'ab', email, password: '0123456789' },
    });
    expect(again.statusCode).toBe(201); // the e-mail was not taken by a half-written account
    const m = await newMerchant(t.app);
    const qr = await t.app.inject({
      method: 'POST',
      url: '/v2/qr',
      headers: { 'x-api-key': m.testKey, 'idempotency-key': `nul-${Date.now()}` },
      payload: { amount: 100, items: [{ name: 'x\u0000', price: 100 }] },
    });
    expect(qr.statusCode).toBe(400);
    expect(errorOf(qr).param).toBe('items.0.name');
    const q = await t.app.inject({ method: 'GET', url: '/v2/events?type=%00', headers: { 'x-api-key': m.testKey } });
    expect(errorOf(q)).toMatchObject({ code: 'invalid_parameter', param: 'type' });
  });

  it('a lone surrogate, or nesting past 32 levels, is 400 before the provider is asked', async () => {
    const m = await newMerchant(t.app);
    const headers = () => ({ 'x-api-key': m.testKey, 'idempotency-key': `bad-${Math.random()}` });
    const qr = await t.app.inject({
      method: 'POST',
      url: '/v2/qr',
      headers: headers(),
      payload: { amount: 100, items: [{ name: '\ud800', price: 100 }] },
    });
    expect(errorOf(qr)).toMatchObject({ code: 'invalid_parameter', param: 'items.0.name' });
    // Written out: the test's own JSON.stringify would overflow.
    const deep = `${'['.repeat(100_000)}1${']'.repeat(100_000)}`;
    const link = await t.app.inject({
      method: 'POST',
      url: '/v2/payment-links',
      headers: { ...headers(), 'content-type': 'application/json' },
      payload: `{"amount":100,"description":"x","metadata":{"a":${deep}}}`,
    });
    expect(link.statusCode).toBe(400);
    expect(errorOf(link).code).toBe('invalid_parameter');
    const list = (
      await t.app.inject({ method: 'GET', url: '/v2/payments', headers: { 'x-api-key': m.testKey } })
    ).json();
    expect(list.data).toHaveLength(0);
  });

  it('action endpoints take no fields: an unknown one, or a body that is not an object, is 400', async () => {
    const m = await newMerchant(t.app);
    const api = { 'x-api-key': m.testKey, 'idempotency-key': 'k' };
    const routes: [string, Record<string, string>][] = [
      ['/v2/invoices/op_X/cancel', api],
      ['/v2/payment-links/AAAAAAAAAAAAAAAAAAAAAAAA/refresh-qr', api],
      ['/v2/payment-links/AAAAAAAAAAAAAAAAAAAAAAAA/cancel', api],
      ['/v2/checkout/AAAAAAAAAAAAAAAAAAAAAAAA/refresh-qr', {}],
      ['/me/notifications/read-all', bearer(m)],
      ['/me/accept-terms', bearer(m)],
      ['/me/webhooks/1/test', bearer(m)],
      ['/me/webhooks/1/deliveries/1/retry', bearer(m)],
    ];
    for (const [url, headers] of routes) {
      const unknown = await t.app.inject({ method: 'POST', url, headers, payload: { foo: 1 } });
      expect(unknown.statusCode, url).toBe(400);
      expect(errorOf(unknown)).toMatchObject({ code: 'invalid_parameter', param: 'foo' });
      const array = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: '[]',
      });
      expect(array.statusCode, url).toBe(400);
    }
  });

  it('a URL with broken percent-encoding is a 400 envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v2/qr/%FF' });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe('invalid_parameter');
  });

  it('a JSON array or scalar body is 400, not 500', async () => {
    for (const payload of ['[]', '"text"', '42', 'null']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/login',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      errorOf(res);
    }
  });

  it('an unhandled exception is 500 internal_error with no internal detail', async () => {
    // A store that has gone away mid-flight: the driver throws, the client sees only the envelope.
    const broken = await buildTestApp();
    const m = await newMerchant(broken.app);
    await broken.runtime.deps.db.close();
    const res = await broken.app.inject({ method: 'GET', url: '/me', headers: bearer(m) });
    expect(res.statusCode).toBe(500);
    const e = errorOf(res);
    expect(e).toMatchObject({
      code: 'internal_error',
      type: 'api_error',
      category: 'permanent',
      message: 'internal error',
    });
    expect(res.body).not.toMatch(/PGlite|closed|stack|\.ts/i);
    const ready = await broken.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    await broken.app.close();
  });
});

describe('headers on every response', () => {
  it('X-Request-Id and X-RateLimit-* on success, error and not-found alike', async () => {
    const m = await newMerchant(t.app);
    for (const opts of [
      { method: 'GET' as const, url: '/healthz' },
      { method: 'GET' as const, url: '/nowhere' },
      { method: 'GET' as const, url: '/me', headers: bearer(m) },
      { method: 'GET' as const, url: '/me' },
      { method: 'POST' as const, url: '/auth/login', payload: { email: 'x@y.kz', password: 'nope' } },
    ]) {
      const res = await t.app.inject(opts);
      expect(res.headers['x-request-id'], opts.url).toMatch(/^req_[0-9A-Z]{26}$/);
      expect(Number(res.headers['x-ratelimit-limit']), opts.url).toBeGreaterThan(0);
      expect(res.headers['x-ratelimit-remaining'], opts.url).toBeDefined();
      expect(res.headers['x-ratelimit-reset'], opts.url).toBeDefined();
    }
  });

  it('timestamps are ISO 8601 UTC with milliseconds', async () => {
    const m = await newMerchant(t.app);
    const me = (await t.app.inject({ method: 'GET', url: '/me', headers: bearer(m) })).json();
    expect(me.trial_ends_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});

describe('system endpoints', () => {
  it('healthz, readyz, metrics, jwks', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready' });
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toContain('tolem_http_requests_total');
    const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwks.keys[0].kid).toBeTruthy();
    expect(jwks.keys[0].d).toBeUndefined(); // never the private part
  });

  it('openapi.json is OpenAPI 3.1 with security schemes and error responses', async () => {
    const doc = await inlinedDoc(t.app);
    expect(doc.openapi).toBe('3.1.0');
    // Only the schemes some operation uses (MetricsToken only where METRICS_TOKEN is set).
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['ApiKey', 'BearerAuth', 'PartnerKey']);
    expect(doc.paths['/partner/v1/ping'].get.security).toEqual([{ PartnerKey: [] }]);
    const me = doc.paths['/me'].get;
    expect(me.security).toEqual([{ BearerAuth: [] }]);
    expect(Object.keys(me.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '429', '500']));
    expect(me.responses['401'].content['application/json'].schema.properties.error).toBeDefined();
    const docs = await t.app.inject({ method: 'GET', url: '/docs' });
    expect([200, 302]).toContain(docs.statusCode);
  });
});
