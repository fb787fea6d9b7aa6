// Test data through the HTTP interface: a fresh merchant per test, so tests never share state.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { randomUUID } from 'node:crypto';

export interface Merchant {
  email: string;
  password: string;
  access: string;
  refresh: string;
  liveKey: string;
  testKey: string;
}

let counter = 0;
export const uniqueEmail = (tag = 'm') => `${tag}-${process.pid}-${Date.now()}-${++counter}@example.kz`;

export async function newMerchant(app: FastifyInstance, overrides: { email?: string; name?: string } = {}): Promise<Merchant> {
  const email = overrides.email ?? uniqueEmail();
  const password = 'correct horse battery';
  const res = await app.inject({ method: 'POST', url: '/auth/register', payload: { name: overrides.name ?? 'Test Shop', email, password } });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const b = res.json();
  return { email, password, access: b.access_token, refresh: b.refresh_token, liveKey: b.api_keys.live, testKey: b.api_keys.test };
}

export const bearer = (m: { access: string }) => ({ authorization: `Bearer ${m.access}` });
export const key = (k: string) => ({ 'x-api-key': k });
export const idem = (k: string = randomUUID()) => ({ 'idempotency-key': k });

export async function call(app: FastifyInstance, opts: InjectOptions): Promise<LightMyRequestResponse> {
  return app.inject(opts);
}

/** Asserts the error envelope and returns its `error` object. */
export function errorOf(res: LightMyRequestResponse): { type: string; code: string; message: string; request_id: string; param?: string; category: string } {
  const body = res.json();
  if (!body?.error?.code) throw new Error(`not an error envelope: ${res.statusCode} ${res.body}`);
  if (body.error.request_id !== res.headers['x-request-id']) throw new Error('request_id differs from X-Request-Id');
  return body.error;
}

export interface ClientRef {
  clientId: number;
  userId: number;
}

/** The ids behind a merchant, for the few tests that must reach below the API (provider side, clocks). */
export async function idsOf(db: { query: (sql: string, p: unknown[]) => Promise<{ rows: unknown[] }> }, m: Merchant): Promise<ClientRef> {
  const r = (await db.query('SELECT id AS "userId", client_id AS "clientId" FROM users WHERE email = $1', [m.email])).rows[0] as ClientRef;
  return r;
}
