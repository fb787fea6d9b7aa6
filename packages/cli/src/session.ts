// The signed-in session: login stores the token pair; every command uses the stored access token while it
// has a minute left, else trades the refresh token for a new pair (refresh tokens are single use: a lock
// file keeps two commands at once, say `listen` and `trigger`, from spending the same one).
import { closeSync, openSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { createTolem, type Tolem } from '@tolem/sdk';
import { configDir, readConfig, writeConfig, type Stored } from './config.js';

export const DEFAULT_URL = 'http://localhost:8080';

export function apiUrl(flag?: string): string {
  return (flag || process.env.TOLEM_API_URL || readConfig()?.api_url || DEFAULT_URL).replace(/\/+$/, '');
}

export async function login(url: string, email: string, password: string): Promise<void> {
  const anon = createTolem({ baseUrl: url, maxRetries: 0 });
  const { data } = await anon.POST('/auth/login', { body: { email, password } });
  writeConfig({
    api_url: url,
    email,
    refresh_token: data!.refresh_token,
    access_token: data!.access_token,
    access_expires_at: Date.now() + data!.expires_in * 1000,
  });
}

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

async function withLock<T>(fn: () => Promise<T>): Promise<T> {
  const lock = path.join(configDir(), 'refresh.lock');
  for (let i = 0; ; i++) {
    try {
      closeSync(openSync(lock, 'wx', 0o600));
      break;
    } catch {
      // A lock older than 30 s was left by a killed process.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 30_000) rmSync(lock, { force: true });
      } catch {
        /* gone meanwhile */
      }
      if (i > 200) throw new Error('another tolem command holds the session lock');
      await sleep(50);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

async function accessToken(): Promise<string> {
  const fresh = (s: Stored | undefined) => s?.access_token && (s.access_expires_at ?? 0) - Date.now() > 60_000;
  const now = readConfig();
  if (!now?.refresh_token) throw new Error('not signed in: run `tolem login` first');
  if (fresh(now)) return now.access_token!;
  return withLock(async () => {
    const s = readConfig()!;
    if (fresh(s)) return s.access_token!; // another command refreshed while this one waited
    const anon = createTolem({ baseUrl: s.api_url, maxRetries: 1 });
    const { data } = await anon.POST('/auth/refresh', { body: { refresh_token: s.refresh_token! } });
    writeConfig({
      ...s,
      refresh_token: data!.refresh_token,
      access_token: data!.access_token,
      access_expires_at: Date.now() + data!.expires_in * 1000,
    });
    return data!.access_token;
  });
}

/** A client signed in as the stored session's user. */
export function client(url?: string): Tolem {
  return createTolem({ baseUrl: apiUrl(url), accessToken: accessToken });
}
