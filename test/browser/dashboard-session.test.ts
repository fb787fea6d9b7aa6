// The dashboard's session in Chromium (issue 41, items 1 and 2; decisions 30), at 390 and 1280 px:
// - a sign-in through the form survives a clock moved past two access-token lifetimes (the browser's clock
//   by Playwright's page.clock, the server's by the app's clock seam, together): the page refreshes its
//   token each time and its API calls keep working, while the first access token is refused by then;
// - twenty page loads within a minute from one address do not sign the user out: each load refreshes the
//   token (it lives in memory only), and /auth/refresh counts per token family, not against the address's
//   `auth` bucket (10 a minute here, as in production).
// axe-core on the pages; screenshots in test-results/dashboard/.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { startHarness, SCREENSHOTS, type Harness } from './harness.ts';
import { newMerchant, type Merchant } from '../helpers/factories.ts';
import { HIGH_LIMITS } from '../helpers/app.ts';
import { DEFAULT_RATE_LIMITS } from '../../src/config.ts';

const SHOTS = `${SCREENSHOTS}/dashboard`;
const ACCESS_TTL_MIN = 15;
/** How far the server's clock is moved ahead of the real one. */
let shiftMs = 0;
let h: Harness;
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // The production limits where this is about: 10 calls a minute per address to /auth/*, 60 refreshes a
  // minute per token family.
  h = await startHarness(
    { rateLimits: { ...HIGH_LIMITS, auth: DEFAULT_RATE_LIMITS.auth, refresh: DEFAULT_RATE_LIMITS.refresh } },
    { clock: { now: () => new Date(Date.now() + shiftMs) } },
  );
});
afterAll(() => h?.close());

async function accessible(page: Page, what: string): Promise<void> {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 80)}`).join(' | ')}`),
    what,
  ).toEqual([]);
}

/** Opens a page of the shell: through the menu on a phone (the navigation is folded), directly otherwise. */
async function nav(page: Page, label: string, width: number): Promise<void> {
  if (width < 768) await page.getByRole('button', { name: 'Меню' }).click();
  await page.getByRole('navigation').getByRole('link', { name: label, exact: true }).click();
}

async function signInWithForm(page: Page, m: Merchant): Promise<void> {
  await page.goto(`${h.base}/dashboard/login`);
  await page.getByLabel('Эл. почта').fill(m.email);
  await page.getByLabel('Пароль').fill(m.password);
  await page.getByRole('button', { name: 'Войти' }).click();
  await page.getByRole('heading', { name: 'Обзор', level: 1 }).waitFor();
}

/** Every answer the page got to `path` (its status), in order. */
function answersTo(page: Page, path: string): number[] {
  const statuses: number[] = [];
  page.on('response', (r) => {
    if (new URL(r.url()).pathname === path) statuses.push(r.status());
  });
  return statuses;
}

/** The most of `times` (ms) that fall within one minute. */
function mostInAMinute(times: number[]): number {
  return Math.max(0, ...times.map((t0) => times.filter((t) => t >= t0 && t < t0 + 60_000).length));
}

describe.each([390, 1280])('the session at %i px', (width) => {
  it(`a form sign-in stays signed in past two ${ACCESS_TTL_MIN}-minute access tokens, and its calls work`, async () => {
    const m = await newMerchant(h.t.app);
    const { page, problems } = await h.page(width);
    try {
      await page.clock.install();
      const logins: string[] = [];
      page.on('response', async (r) => {
        if (new URL(r.url()).pathname === '/auth/login' && r.ok()) logins.push((await r.json()).access_token);
      });
      const refreshes = answersTo(page, '/auth/refresh');
      const payments = answersTo(page, '/me/payments');
      await signInWithForm(page, m);
      await accessible(page, 'overview after sign-in');

      for (let lifetime = 1; lifetime <= 2; lifetime++) {
        // A minute past the access token's end, on both clocks.
        shiftMs += (ACCESS_TTL_MIN + 1) * 60_000;
        await page.clock.fastForward(`${ACCESS_TTL_MIN + 1}:00`);
        const before = payments.length;
        await nav(page, lifetime === 1 ? 'Платежи' : 'Обзор', width);
        if (lifetime === 1) {
          await page.getByRole('heading', { name: 'Платежи', level: 1 }).waitFor();
          await expect.poll(() => payments.length).toBeGreaterThan(before);
          expect(payments.slice(before)).toEqual(payments.slice(before).map(() => 200));
        } else {
          await page.getByRole('heading', { name: 'Обзор', level: 1 }).waitFor();
          await page.getByTestId('overview-plan').waitFor();
        }
        await expect.poll(() => refreshes.length).toBe(lifetime);
      }
      expect(refreshes).toEqual([200, 200]);
      // The server's clock moved too: the access token of the sign-in is refused by now.
      const first = await h.t.app.inject({
        method: 'GET',
        url: '/me',
        headers: { authorization: `Bearer ${logins[0]}` },
      });
      expect(first.json().error.code).toBe('token_expired');
      // Still signed in: the shell, no sign-in form, the refresh token kept.
      expect(await page.getByRole('button', { name: 'Войти' }).count()).toBe(0);
      expect(await page.evaluate(() => localStorage.getItem('tolem.refresh'))).toBeTruthy();
      await accessible(page, 'overview two lifetimes later');
      await page.screenshot({ path: `${SHOTS}/${width}-session-two-lifetimes.png`, fullPage: true });
      expect(problems).toEqual([]);
    } finally {
      shiftMs = 0;
      await page.context().close();
    }
  }, 120_000);

  it('twenty page loads within a minute from one address keep the user signed in', async () => {
    const m = await newMerchant(h.t.app);
    const { page, problems } = await h.page(width);
    try {
      await signInWithForm(page, m);
      const refreshes = answersTo(page, '/auth/refresh');
      const me = answersTo(page, '/me');
      // When each refresh was answered, and the limit of the bucket that counted it (its X-RateLimit-Limit).
      const at: number[] = [];
      const limits = new Set<string | undefined>();
      page.on('response', (r) => {
        if (new URL(r.url()).pathname !== '/auth/refresh') return;
        at.push(Date.now());
        limits.add(r.headers()['x-ratelimit-limit']);
      });
      for (let i = 1; i <= 20; i++) {
        await page.reload();
        await page.getByRole('heading', { name: 'Обзор', level: 1 }).waitFor();
        // Signed in and served: the page's own data came (the plan, from /me).
        await page.getByTestId('overview-plan').waitFor();
        expect(refreshes.length, `load ${i}`).toBeGreaterThanOrEqual(i);
      }
      // More refreshes within a minute than the address's `auth` bucket allows, every one answered: they count
      // in the token family's bucket. (Loads slower than 5 s each, on a loaded host, would not prove it.)
      expect(refreshes.length).toBeGreaterThanOrEqual(20);
      expect(mostInAMinute(at)).toBeGreaterThan(DEFAULT_RATE_LIMITS.auth);
      expect(refreshes.filter((s) => s !== 200)).toEqual([]);
      expect([...limits]).toEqual([String(DEFAULT_RATE_LIMITS.refresh)]);
      expect(me.filter((s) => s !== 200)).toEqual([]);
      expect(await page.evaluate(() => localStorage.getItem('tolem.refresh'))).toBeTruthy();
      await accessible(page, 'overview after twenty loads');
      await page.screenshot({ path: `${SHOTS}/${width}-session-twenty-loads.png`, fullPage: true });
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  }, 150_000);
});
