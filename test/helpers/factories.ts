// Test data through the HTTP interface: a fresh merchant per test, so tests never share state.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { randomUUID } from 'node:crypto';
import { apiError, type ApiError, type ApiResponse } from './api.ts';

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

export async function newMerchant(
  app: FastifyInstance,
  overrides: { email?: string; name?: string } = {},
): Promise<Merchant> {
  const email = overrides.email ?? uniqueEmail();
  const password = 'correct horse battery';
  const res = await app.inject({
    method: 'POST',
    url: '/auth/register',
    payload: { name: overrides.name ?? 'Test Shop', email, password },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  const b = res.json();
  return {
    email,
    password,
    access: b.access_token,
    refresh: b.refresh_token,
    liveKey: b.api_keys.live,
    testKey: b.api_keys.test,
  };
}

export const bearer = (m: { access: string }) => ({ authorization: `Bearer ${m.access}` });
export const key = (k: string) => ({ 'x-api-key': k });
export const idem = (k: string = randomUUID()) => ({ 'idempotency-key': k });

export async function call(app: FastifyInstance, opts: InjectOptions): Promise<LightMyRequestResponse> {
  return app.inject(opts);
}

/** Asserts the error envelope of a raw or typed answer and returns its `error` object, typed by the OpenAPI. */
export const errorOf = (res: LightMyRequestResponse | ApiResponse<unknown>): ApiError => apiError(res);

export interface ClientRef {
  clientId: number;
  userId: number;
}

/** The ids behind a merchant, for the few tests that must reach below the API (provider side, clocks). */
export async function idsOf(
  db: { query: (sql: string, p: unknown[]) => Promise<{ rows: unknown[] }> },
  m: Merchant,
): Promise<ClientRef> {
  const r = (await db.query('SELECT id AS "userId", client_id AS "clientId" FROM users WHERE email = $1', [m.email]))
    .rows[0] as ClientRef;
  return r;
}

/**
 * An access token of a partner acting in `m`'s account, on a real session (the partner cabinet's path):
 * an active partner and the member of its team who opens the session (each call checks both), the client
 * allowing impersonation, and the token's `act` claim naming the partner, that member and the session.
 */
export async function impersonationToken(
  deps: import('../../src/deps.ts').Deps,
  m: Merchant,
  partner: { name?: string } = {},
): Promise<{ access: string; sid: string; partnerId: number; actorEmail: string }> {
  const { openImpersonationSession } = await import('../../src/domain/accounts/impersonation.ts');
  const { signAccessToken } = await import('../../src/domain/accounts/tokens.ts');
  const ids = await idsOf(deps.db, m);
  const name = partner.name ?? 'Partner Agency';
  const actorEmail = uniqueEmail('agent');
  const id = async (sql: string, p: unknown[]) => (await deps.db.query<{ id: number }>(sql, p)).rows[0].id;
  const own = await id(`INSERT INTO clients (name, email, trial_ends_at) VALUES ($1, $2, now()) RETURNING id`, [
    name,
    actorEmail,
  ]);
  const actorId = await id(`INSERT INTO users (client_id, email, name) VALUES ($1, $2, 'Agent') RETURNING id`, [
    own,
    actorEmail,
  ]);
  const partnerId = await id(
    `INSERT INTO partners (client_id, company_name, status) VALUES ($1, $2, 'active') RETURNING id`,
    [own, name],
  );
  const sid = `sess_${randomUUID()}`;
  await deps.db.query('UPDATE clients SET allow_partner_impersonation = true WHERE id = $1', [ids.clientId]);
  await openImpersonationSession(deps.db, {
    sid,
    clientId: ids.clientId,
    partnerId,
    partnerName: name,
    actorEmail,
    ip: '127.0.0.1',
  });
  const access = await signAccessToken(deps, {
    sub: String(ids.userId),
    cid: ids.clientId,
    role: 'admin',
    act: { partner_id: partnerId, sub: String(actorId), sid },
  });
  return { access, sid, partnerId, actorEmail };
}

/** A cabinet call as a signed-in user: `as(m, 'PATCH', '/me/x', body)`. The app is read at call time. */
export const callAs =
  (app: () => FastifyInstance) => (who: { access: string }, method: string, url: string, payload?: object) =>
    app().inject({ method: method as 'GET', url, headers: bearer(who), ...(payload ? { payload } : {}) });

/** A signed-in user with is_admin (the operator's admin API), of a client of its own. */
export async function newAdmin(
  app: FastifyInstance,
  db: { query: (sql: string, p: unknown[]) => Promise<unknown> },
): Promise<Merchant> {
  const admin = await newMerchant(app);
  await db.query('UPDATE users SET is_admin = true WHERE email = $1', [admin.email]);
  return admin;
}
