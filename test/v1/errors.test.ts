// The v1 failure model: every failure in the v1 envelope with its HTTP status and StatusCode, the
// deprecation headers on all of them, rate limits, provider failures, the sunset, and the API description.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HIGH_LIMITS, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, idem, key, newMerchant } from '../helpers/factories.ts';
import { connectLive } from '../helpers/payments.ts';
import { loadConfig } from '../../src/config.ts';
import { ProviderSessionExpired, ProviderUnavailable } from '../../src/providers/types.ts';
import { buildV1App, dataOf, expectV1Error, expectV1Headers, v1, v1Idem, withLiveProvider } from './helpers.ts';
import { inlinedDoc } from '../helpers/openapi.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildV1App();
});
afterAll(() => t.close());

const ENDPOINTS: ['GET' | 'POST', string, string, unknown?][] = [
  ['POST', '/v1/qr/create', '/v2/qr', { amount: 100 }],
  ['GET', '/v1/qr/status/1', '/v2/qr'],
  ['POST', '/v1/invoice/create', '/v2/invoices', { phone: '+77012345678', amount: 100 }],
  ['POST', '/v1/invoice/cancel', '/v2/invoices', { operation_id: '1' }],
  ['POST', '/v1/history', '/v2/payments', { period: 0 }],
  ['POST', '/v1/refund', '/v2/refunds', { operation_id: '1', items: [{ price: 1 }] }],
  ['GET', '/v1/client/87012345678', '/v2/client'],
  ['GET', '/v1/status', '/me'],
];

describe('authentication', () => {
  it(
    '-401 on every endpoint without a key, with a malformed, unknown ' + 'or revoked key, or with a JWT instead',
    async () => {
      const unknownKey = `kp_test_${'A'.repeat(40)}`;
      const victim = await newMerchant(t.app);
      await t.app.inject({
        method: 'POST',
        url: '/me/api-key/regenerate',
        headers: bearer(victim),
        payload: { mode: 'test' },
      });
      for (const [method, url, successor, body] of ENDPOINTS) {
        const cases: Record<string, string>[] = [{}, key('nope'), key(unknownKey), key(victim.testKey), bearer(victim)];
        for (const headers of cases) {
          const res = await v1(t.app, method, url, null, body, { ...headers, ...idem() });
          expectV1Error(res, 401, -401);
          expectV1Headers(res, successor);
          expect(res.headers['x-request-id']).toMatch(/^req_/);
          expect(res.headers['x-ratelimit-limit']).toBeDefined();
        }
      }
    },
  );

  it('v2 keeps its own envelope next to v1', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v2/payments' });
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe('invalid_api_key');
    expect(res.headers.deprecation).toBeUndefined();
  });
});

describe('provider failures (live mode)', () => {
  it('-999 with HTTP 503 when the provider session expired; the key can be retried; /v1/status shows it', async () => {
    const m = await newMerchant(t.app);
    await connectLive(t, m);
    const h = idem();
    const expired = async () => {
      throw new ProviderSessionExpired('session over');
    };
    const res = await withLiveProvider(t, { createQr: expired }, () =>
      v1(t.app, 'POST', '/v1/qr/create', m.liveKey, { amount: 100 }, h),
    );
    expect(expectV1Error(res, 503, -999)).toMatch(/session expired/);
    expectV1Headers(res, '/v2/qr');
    expect(dataOf(await v1(t.app, 'GET', '/v1/status', m.liveKey)).session_alive).toBe(false);
    // A 5xx is not stored: the same key creates the QR once the provider answers again.
    expect(dataOf(await v1(t.app, 'POST', '/v1/qr/create', m.liveKey, { amount: 100 }, h)).Status).toBe(
      'QrTokenCreated',
    );
  });

  it('-503 when the provider is unavailable, on creates and on status reads', async () => {
    const m = await newMerchant(t.app);
    await connectLive(t, m);
    const d = dataOf(await v1Idem(t.app, '/v1/qr/create', m.liveKey, { amount: 100 }));
    const down = async () => {
      throw new ProviderUnavailable('connect ECONNREFUSED');
    };
    await withLiveProvider(
      t,
      { createQr: down, createInvoice: down, getStatus: down, findCustomer: down },
      async () => {
        const created = await v1Idem(t.app, '/v1/qr/create', m.liveKey, { amount: 100 });
        expectV1Error(created, 503, -503);
        expectV1Headers(created, '/v2/qr');
        expectV1Error(
          await v1Idem(t.app, '/v1/invoice/create', m.liveKey, { phone: '+77012345678', amount: 100 }),
          503,
          -503,
        );
        expectV1Error(await v1(t.app, 'GET', `/v1/qr/status/${d.QrOperationId}`, m.liveKey), 503, -503);
        expectV1Error(await v1(t.app, 'GET', '/v1/client/87012345678', m.liveKey), 503, -503);
      },
    );
    // An unreachable provider is not a dead session: no reconnect signal.
    expect(dataOf(await v1(t.app, 'GET', '/v1/status', m.liveKey)).session_alive).toBe(true);
  });

  it('-409 for a live create before the provider is connected, -403 when the plan is inactive', async () => {
    const m = await newMerchant(t.app);
    expectV1Error(await v1Idem(t.app, '/v1/qr/create', m.liveKey, { amount: 100 }), 409, -409);
    await connectLive(t, m);
    await t.runtime.deps.db.query(
      `UPDATE clients SET trial_ends_at = now() - interval '1 day' WHERE ` +
        `id = (SELECT client_id FROM users WHERE email = $1)`,
      [m.email],
    );
    expectV1Error(await v1Idem(t.app, '/v1/qr/create', m.liveKey, { amount: 100 }), 403, -403);
  });
});

describe('requests v1 cannot route or parse', () => {
  it('unknown v1 paths are -404 and known paths with another method -405, in the v1 envelope', async () => {
    const m = await newMerchant(t.app);
    const res = await v1(t.app, 'GET', '/v1/qr/list', m.testKey);
    expectV1Error(res, 404, -404);
    expectV1Headers(res, '/openapi.json');
    const wrong = await v1(t.app, 'GET', '/v1/qr/create', m.testKey);
    expectV1Error(wrong, 405, -405);
    expect(wrong.headers.allow).toBe('POST');
    expectV1Headers(wrong, '/openapi.json');
  });

  it('malformed JSON, other media types and non-object bodies are -400', async () => {
    const m = await newMerchant(t.app);
    const headers = { ...key(m.testKey), ...idem() };
    for (const [payload, type] of [
      ['{"amount":', 'application/json'],
      ['amount=5', 'text/plain'],
      ['[1]', 'application/json'],
      ['null', 'application/json'],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/qr/create',
        headers: { ...headers, 'content-type': type },
        payload,
      });
      expectV1Error(res, 400, -400);
      expectV1Headers(res, '/v2/qr');
    }
  });
});

describe('rate limit', () => {
  it('-429 with the rate headers and Retry-After', async () => {
    const limited = await buildV1App({ rateLimits: { ...HIGH_LIMITS, test: 2 } });
    try {
      const m = await newMerchant(limited.app);
      expect(dataOf(await v1(limited.app, 'GET', '/v1/status', m.testKey)).plan).toBe('trial');
      await v1(limited.app, 'GET', '/v1/status', m.testKey);
      const res = await v1(limited.app, 'GET', '/v1/status', m.testKey);
      expectV1Error(res, 429, -429);
      expectV1Headers(res, '/me');
      expect(res.headers['x-ratelimit-limit']).toBe('2');
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      // An IDEM call is refused before its key is claimed, so the key stays usable after the window.
      const h = idem();
      expectV1Error(await v1(limited.app, 'POST', '/v1/qr/create', m.testKey, { amount: 1 }, h), 429, -429);
      const claimed = await limited.runtime.deps.db.query('SELECT 1 FROM idempotency_keys WHERE key = $1', [
        h['idempotency-key'],
      ]);
      expect(claimed.rows).toHaveLength(0);
    } finally {
      await limited.close();
    }
  });
});

describe('sunset', () => {
  it('the default sunset is the end of 2026, as an HTTP-date', () => {
    expect(loadConfig({}).v1SunsetAt.toUTCString()).toBe('Thu, 31 Dec 2026 23:59:59 GMT');
  });

  it('after the sunset instant every v1 call is 410 -410, with or without a valid key; v2 goes on', async () => {
    let now = new Date();
    const sunset = new Date(now.getTime() + 3_600_000);
    const app = await buildV1App({ v1SunsetAt: sunset }, { clock: { now: () => now } });
    try {
      const m = await newMerchant(app.app);
      const before = await v1(app.app, 'GET', '/v1/status', m.testKey);
      expect(before.statusCode).toBe(200);
      expectV1Headers(before, '/me', sunset);
      now = new Date(sunset.getTime()); // the instant itself still works
      expect((await v1(app.app, 'GET', '/v1/status', m.testKey)).statusCode).toBe(200);

      now = new Date(sunset.getTime() + 1);
      for (const [method, url, successor, body] of ENDPOINTS) {
        for (const k of [m.testKey, null]) {
          const res = await v1(app.app, method, url, k, body, idem());
          expect(expectV1Error(res, 410, -410)).toMatch(/v2/);
          expectV1Headers(res, successor, sunset);
          expect(res.headers['x-ratelimit-limit']).toBeDefined();
        }
      }
      expectV1Error(await v1(app.app, 'GET', '/v1/anything', m.testKey), 410, -410);
      expect((await app.app.inject({ method: 'GET', url: '/v2/payments', headers: key(m.testKey) })).statusCode).toBe(
        200,
      );
    } finally {
      await app.close();
    }
  });
});

describe('GET /openapi.json', () => {
  it('describes every v1 route as deprecated, with the v1 envelopes', async () => {
    const doc = await inlinedDoc(t.app);
    const paths: [string, string][] = [
      ['post', '/v1/qr/create'],
      ['get', '/v1/qr/status/{operationId}'],
      ['post', '/v1/invoice/create'],
      ['post', '/v1/invoice/cancel'],
      ['post', '/v1/history'],
      ['post', '/v1/refund'],
      ['get', '/v1/client/{phone}'],
      ['get', '/v1/status'],
    ];
    for (const [method, path] of paths) {
      const op = doc.paths[path]?.[method];
      expect(op, path).toBeDefined();
      expect(op.deprecated, path).toBe(true);
      expect(op.tags, path).toEqual(['v1 (deprecated)']);
      expect(op.security, path).toEqual([{ ApiKey: [] }]);
      expect(Object.keys(op.responses['200'].content['application/json'].schema.properties), path).toEqual([
        'Data',
        'StatusCode',
      ]);
      expect(Object.keys(op.responses['401'].content['application/json'].schema.properties), path).toEqual([
        'Data',
        'StatusCode',
        'Message',
      ]);
    }
    expect(
      doc.paths['/v1/qr/create'].post.parameters.some(
        (p: { name: string; required: boolean }) => p.name === 'Idempotency-Key' && p.required,
      ),
    ).toBe(true);
  });
});
