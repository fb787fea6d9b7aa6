// Partner impersonation as the client controls it (decisions 12, 17): the sessions it sees, `actor` in
// its request log, turning the setting off ending open sessions at once, and what stays blocked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, impersonationToken, newMerchant } from '../helpers/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

const as = (access: string, method: string, url: string, payload?: object) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${access}` },
    ...(payload ? { payload } : {}),
  });

describe('impersonation control', () => {
  it("the client sees each session with its calls, and the log marks the partner's calls with actor", async () => {
    const m = await newMerchant(t.app);
    const { access, sid, partnerId, actorEmail } = await impersonationToken(t.runtime.deps, m, { name: 'Agency' });
    expect((await as(access, 'GET', '/me/payments')).statusCode).toBe(200);
    expect((await as(access, 'GET', '/me/webhooks')).statusCode).toBe(200);
    const sessions = (await as(m.access, 'GET', '/me/partner-impersonation/sessions')).json();
    expect(sessions.data).toHaveLength(1);
    expect(sessions.data[0]).toMatchObject({
      partner_id: partnerId,
      partner_name: 'Agency',
      actor_email: actorEmail,
      ended_at: null,
      ip: '127.0.0.1',
      requests: 2,
    });
    const logs = (await as(m.access, 'GET', '/me/logs')).json().data;
    const partnerCalls = logs.filter((l: { actor: unknown }) => l.actor);
    expect(partnerCalls.map((l: { path: string }) => l.path).sort()).toEqual(['/me/payments', '/me/webhooks']);
    expect(partnerCalls[0].actor).toEqual({ kind: 'partner', partner_id: partnerId, session: sid });
    expect(logs.find((l: { path: string }) => l.path === '/me/partner-impersonation/sessions').actor).toBeNull();
  });

  it("turning it off ends open sessions at once: the partner's next call is 401", async () => {
    const m = await newMerchant(t.app);
    const { access } = await impersonationToken(t.runtime.deps, m);
    expect((await as(access, 'GET', '/me')).statusCode).toBe(200);
    const off = await as(m.access, 'PATCH', '/me/allow-partner-impersonation', { allow: false });
    expect(off.json()).toEqual({ allow: false, ended_sessions: 1 });
    const next = await as(access, 'GET', '/me');
    expect(next.statusCode).toBe(401);
    expect(errorOf(next).code).toBe('impersonation_session_expired');
    // Allowing again does not revive an ended session.
    expect((await as(m.access, 'PATCH', '/me/allow-partner-impersonation', { allow: true })).json()).toEqual({
      allow: true,
      ended_sessions: 0,
    });
    expect((await as(access, 'GET', '/me')).statusCode).toBe(401);
    expect((await as(m.access, 'GET', '/me/partner-impersonation/sessions')).json().data[0].ended_at).not.toBeNull();
  });

  it('an expired session is 401, and the partner may not change the setting, the team or the keys', async () => {
    const m = await newMerchant(t.app);
    const { access, sid } = await impersonationToken(t.runtime.deps, m);
    for (const [method, url, body] of [
      ['PATCH', '/me/allow-partner-impersonation', { allow: true }],
      ['POST', '/me/team/invite', { email: 'x@example.kz', role: 'viewer' }],
      ['POST', '/me/api-key/regenerate', {}],
    ] as const) {
      const res = await as(access, method, url, body);
      expect(res.statusCode, url).toBe(403);
      expect(errorOf(res).code, url).toBe('impersonation_blocked_action');
    }
    await t.runtime.deps.db.query(
      `UPDATE impersonation_sessions SET expires_at = now() - interval '1 second' WHERE sid = $1`,
      [sid],
    );
    expect(errorOf(await as(access, 'GET', '/me')).code).toBe('impersonation_session_expired');
  });

  it('only the owner changes the setting; a bad body is 400', async () => {
    const m = await newMerchant(t.app);
    expect((await as(m.access, 'PATCH', '/me/allow-partner-impersonation', { allow: 'yes' })).statusCode).toBe(400);
    expect((await as(m.access, 'PATCH', '/me/allow-partner-impersonation', {})).statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'GET', url: '/me/partner-impersonation/sessions', headers: bearer(m) })).json(),
    ).toEqual({ data: [], next_cursor: null, has_more: false });
  });
});

describe('integrations board', () => {
  it("derives each integration's status from what is stored", async () => {
    const m = await newMerchant(t.app);
    const board = async () =>
      Object.fromEntries(
        (await as(m.access, 'GET', '/me/integrations')).json().data.map((i: { id: string }) => [i.id, i]),
      );
    let b = await board();
    expect(Object.keys(b).sort()).toEqual(['api_keys', 'messenger', 'partner', 'provider', 'webhooks']);
    expect(b.provider).toMatchObject({ status: 'off', details: { test: { accounts: 1, drivers: ['sandbox'] } } });
    expect(b.webhooks).toMatchObject({ status: 'off', details: { active: 0, failing: 0 } });
    expect(b.messenger.status).toBe('off');
    expect(b.api_keys.status).toBe('off');
    expect(b.partner).toMatchObject({ status: 'off', details: { impersonation_allowed: false } });

    await as(m.access, 'POST', '/me/webhooks', { url: 'https://example.com/hook', events: ['payment.completed'] });
    await t.app.inject({ method: 'GET', url: '/v2/payments', headers: { 'x-api-key': m.liveKey } });
    await t.requestLog.flush();
    b = await board();
    expect(b.webhooks).toMatchObject({ status: 'connected', details: { active: 1, failing: 0 } });
    expect(b.api_keys.status).toBe('connected');
    expect(b.api_keys.details.keys.find((k: { mode: string }) => k.mode === 'live').last_used_at).not.toBeNull();
    await t.runtime.deps.db.query(
      `UPDATE webhooks SET failing_since = now() WHERE client_id = (SELECT client_id FROM users WHERE email = $1)`,
      [m.email],
    );
    expect((await board()).webhooks.status).toBe('attention');
  });
});
