// The signed-in session. The access token (15 minutes) lives in memory only; the refresh token (single
// use, 7 days, reuse revokes its family) is kept in localStorage so a reload or a second tab stays signed
// in. The API hands tokens out in JSON bodies (no cookie session), so a script on the page could read the
// refresh token: the server's Content-Security-Policy for /dashboard allows scripts of this origin only,
// which is what keeps foreign scripts off the page (docs/api-notes.md, Dashboard).
export interface TokenPair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

const REFRESH_KEY = 'tolem.refresh';
let access: { token: string; expiresAt: number } | null = null;
let refreshing: Promise<boolean> | null = null;
const listeners = new Set<() => void>();

export function storePair(p: TokenPair): void {
  access = { token: p.access_token, expiresAt: Date.now() + p.expires_in * 1000 };
  localStorage.setItem(REFRESH_KEY, p.refresh_token);
  listeners.forEach((l) => l());
}

export function signOut(): void {
  access = null;
  sessionStorage.removeItem(ACTING_KEY);
  localStorage.removeItem(REFRESH_KEY);
  listeners.forEach((l) => l());
}

export const hasSession = () => access !== null || localStorage.getItem(REFRESH_KEY) !== null;

export function onSessionChange(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/**
 * Trades the refresh token for a new pair; one at a time, so parallel calls share one refresh. The shared
 * promise is forgotten however the trade ends: it once returned early, before the `finally` that cleared
 * it, when there was no token yet (the SDK asks for one before the sign-in form is sent), and every later
 * call got that settled `false`, so the page never refreshed and signed out 15 minutes after a sign-in.
 */
export function refresh(): Promise<boolean> {
  refreshing ??= trade().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/**
 * One trade. Only a 401 ends the session (decisions 30): a 429 or a 5xx says nothing about the token, so
 * the session stays and the next call tries again.
 */
async function trade(): Promise<boolean> {
  const token = localStorage.getItem(REFRESH_KEY);
  if (!token) return false;
  try {
    const res = await fetch('/auth/refresh', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: token }),
    });
    if (res.status === 401) {
      // A refresh token used by another tab a moment ago: that tab stored the new one.
      if (localStorage.getItem(REFRESH_KEY) !== token) return trade();
      signOut();
      return false;
    }
    if (!res.ok) return false;
    storePair((await res.json()) as TokenPair);
    return true;
  } catch {
    return false;
  }
}

// A partner acting in a client's account: a 15-minute token of its own, no refresh, this tab only.
const ACTING_KEY = 'tolem.acting';

export function startActing(token: string, expiresIn: number): void {
  sessionStorage.setItem(ACTING_KEY, JSON.stringify({ token, until: Date.now() + expiresIn * 1000 }));
  listeners.forEach((l) => l());
}

export function stopActing(): void {
  sessionStorage.removeItem(ACTING_KEY);
  listeners.forEach((l) => l());
}

/** The acting token while it lasts, else nothing (an expired one is forgotten). */
export function acting(): string | null {
  const raw = sessionStorage.getItem(ACTING_KEY);
  if (!raw) return null;
  const a = JSON.parse(raw) as { token: string; until: number };
  if (a.until > Date.now()) return a.token;
  sessionStorage.removeItem(ACTING_KEY);
  return null;
}

/** A valid access token, refreshed silently when it is about to expire; the acting one while a partner acts. */
export async function accessToken(): Promise<string | null> {
  const act = acting();
  if (act) return act;
  if (access && access.expiresAt - Date.now() > 30_000) return access.token;
  return (await refresh()) ? access!.token : null;
}
