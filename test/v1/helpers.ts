// Helpers for the v1 tests: calls with an API key, the v1 envelopes, the deprecation headers.
import { expect } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import type { Config } from '../../src/config.ts';
import type { Clock } from '../../src/deps.ts';
import { idem, key } from '../helpers/factories.ts';
import type { PaymentProvider } from '../../src/providers/types.ts';

/**
 * The default sunset is 2026-12-31T23:59:59Z. Tests must not start failing once the real clock passes
 * it, so the apps under test get a sunset at least a year ahead; the default itself is checked apart.
 */
export const TEST_SUNSET = new Date(Math.max(Date.parse('2026-12-31T23:59:59Z'), Date.now() + 365 * 86_400_000));

export function buildV1App(overrides: Partial<Config> = {}, opts: { clock?: Clock } = {}): Promise<TestApp> {
  return buildTestApp({ v1SunsetAt: TEST_SUNSET, ...overrides }, opts);
}

export function v1(
  app: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  apiKey: string | null,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method,
    url,
    payload: payload as object | undefined,
    headers: { ...(apiKey ? key(apiKey) : {}), ...headers },
  });
}

/** POST with a fresh Idempotency-Key (the IDEM calls). */
export const v1Idem = (app: FastifyInstance, url: string, apiKey: string | null, payload: unknown) =>
  v1(app, 'POST', url, apiKey, payload, idem());

/** Asserts a success envelope and returns Data. */
export function dataOf(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body).toBe(200);
  const b = res.json();
  expect(b.StatusCode, res.body).toBe(0);
  return b.Data;
}

/** Asserts a v1 failure envelope with the given HTTP status and StatusCode; returns Message. */
export function expectV1Error(res: LightMyRequestResponse, http: number, code: number): string {
  expect(res.statusCode, res.body).toBe(http);
  const b = res.json();
  expect(Object.keys(b).sort(), res.body).toEqual(['Data', 'Message', 'StatusCode']);
  expect(b.Data).toBeNull();
  expect(b.StatusCode, res.body).toBe(code);
  expect(typeof b.Message).toBe('string');
  return b.Message;
}

export function expectV1Headers(res: LightMyRequestResponse, successor: string | RegExp, sunset = TEST_SUNSET) {
  expect(res.headers.deprecation).toBe('true');
  expect(res.headers.sunset).toBe(sunset.toUTCString());
  const link = String(res.headers.link);
  if (typeof successor === 'string') expect(link).toBe(`<${successor}>; rel="successor-version"`);
  else expect(link).toMatch(successor);
}

/** The v2 operation behind a v1 seq, found the way an integrator would: through GET /v2/payments. */
export async function v2OpOf(
  app: FastifyInstance,
  apiKey: string,
  amount: number,
): Promise<{ operation_id: string; source: string; status: string }> {
  const list = (await app.inject({ method: 'GET', url: '/v2/payments?limit=100', headers: key(apiKey) })).json().data;
  const found = list.filter((p: { amount: number }) => p.amount === amount);
  expect(found, `one payment of ${amount}`).toHaveLength(1);
  return found[0];
}

/**
 * Replaces one method of the live provider for the duration of fn. In tests the live driver is the
 * sandbox object that test mode uses too, so it is wrapped, never mutated.
 */
export async function withLiveProvider<T>(
  t: TestApp,
  patch: Partial<PaymentProvider>,
  fn: () => Promise<T>,
): Promise<T> {
  const deps = t.runtime.deps;
  const real = deps.providers.live;
  deps.providers.live = Object.assign(Object.create(real) as PaymentProvider, patch);
  try {
    return await fn();
  } finally {
    deps.providers.live = real;
  }
}
