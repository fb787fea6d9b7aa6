// The dashboard's session (packages/dashboard/src/api/session.ts) in Node with a fake clock, storage and
// fetch: a form sign-in after the SDK asked for a token (no session yet) still refreshes when the access
// token runs out (it used to keep a settled `false` and sign out 15 minutes after every sign-in), and only
// a 401 ends the session (a 429 or a 5xx keeps it).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

function storage(): Storage {
  const m = new Map<string, string>();
  return {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, v),
    removeItem: (k) => void m.delete(k),
    clear: () => m.clear(),
    key: (i) => [...m.keys()][i] ?? null,
    get length() {
      return m.size;
    },
  } as Storage;
}

const pair = (n: number) => ({ access_token: `at_${n}`, refresh_token: `rt_${n}`, expires_in: 900 });
let answers: (() => Response)[];
let calls: string[];

beforeEach(() => {
  vi.resetModules();
  vi.useFakeTimers();
  vi.stubGlobal('localStorage', storage());
  vi.stubGlobal('sessionStorage', storage());
  answers = [];
  calls = [];
  vi.stubGlobal('fetch', async (_url: string, init: { body: string }) => {
    calls.push(JSON.parse(init.body).refresh_token);
    return answers.shift()!();
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const json = (status: number, body: unknown) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the dashboard session', () => {
  it(
    'a form sign-in after a token was asked for with no session still ' +
      "refreshes past the access token's lifetime, twice",
    async () => {
      const s = await import('../../packages/dashboard/src/api/session.ts');
      expect(await s.accessToken()).toBeNull(); // the SDK asks before anyone signed in
      s.storePair(pair(1)); // the sign-in form
      expect(await s.accessToken()).toBe('at_1');
      for (const n of [2, 3]) {
        vi.advanceTimersByTime(16 * 60_000); // past the 15-minute access token
        answers.push(json(200, pair(n)));
        expect(await s.accessToken()).toBe(`at_${n}`);
      }
      expect(calls).toEqual(['rt_1', 'rt_2']);
      expect(s.hasSession()).toBe(true);
    },
  );

  it('only a 401 signs out: a 429 or a 503 keeps the session for the next try', async () => {
    const s = await import('../../packages/dashboard/src/api/session.ts');
    s.storePair(pair(1));
    vi.advanceTimersByTime(16 * 60_000);
    answers.push(
      json(429, { error: { code: 'rate_limit_exceeded' } }),
      json(503, { error: { code: 'payment_unavailable' } }),
    );
    expect(await s.refresh()).toBe(false);
    expect(await s.refresh()).toBe(false);
    expect(s.hasSession()).toBe(true);
    answers.push(json(401, { error: { code: 'token_revoked' } }));
    expect(await s.refresh()).toBe(false);
    expect(s.hasSession()).toBe(false);
  });
});
