// The dashboard's pages come in chunks of their own; in Chromium, what happens when one cannot be fetched.
// A network blip: the page retries and shows up. A chunk that stays out of reach: a message in the user's
// language inside the shell, the menu still there, and "try again" loads it once it is back. A deploy that
// replaced the chunks (the chunk answers 404, or index.html names another build): the page reloads once,
// and never again for the same chunk, so a build that lost a chunk shows the message instead of looping.
// Never React Router's "Unexpected Application Error!". And the first load's weight, in the browser: the
// sign-in form's bytes on the wire as Chromium fetches them, and the form drawn the same by its own
// styles as by the full set. axe-core on the message; screenshots in test-results/dashboard/.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Page, Route } from 'playwright-core';
import { startHarness, SCREENSHOTS, type Harness } from './harness.ts';
import { newMerchant } from '../helpers/factories.ts';

const SHOTS = `${SCREENSHOTS}/dashboard`;
let h: Harness;
// The app and a browser: slow to start on a loaded host.
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  h = await startHarness();
}, 120_000);
afterAll(() => h?.close());

/** Transitions run to their end (a spinner's endless one aside). */
const settled = (page: Page) =>
  page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );

async function accessible(page: Page, what: string): Promise<void> {
  // A dialog fading in has its colours half-way for a moment: check what the user is left looking at.
  await settled(page);
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 80)}`).join(' | ')}`),
    what,
  ).toEqual([]);
}

/** The payments page's own chunk (not a shared one it imports). */
const PAYMENTS_CHUNK = /\/dashboard\/assets\/Payments-[\w-]+\.js$/;
const WHITE_SCREEN = 'Unexpected Application Error';
/** How long the network blip lasts: shorter than the wait before the second try. */
const BLIP_MS = 300;

/**
 * A signed-in page on the overview, the session handed over as the sign-in form would leave it. The refresh
 * token is single use: it is put in place for the first load only, later loads (reloads) use the one the
 * page stored.
 */
async function signedIn(width = 1280, before?: (page: Page) => Promise<unknown>) {
  const m = await newMerchant(h.t.app);
  const s = await h.page(width);
  await before?.(s.page);
  await s.page.addInitScript((token) => {
    if (!localStorage.getItem('tolem.refresh')) localStorage.setItem('tolem.refresh', token);
  }, m.refresh);
  await s.page.goto(`${h.base}/dashboard/`);
  await s.page.getByRole('heading', { name: 'Обзор', level: 1 }).waitFor();
  // Loads of the document from here on: a reload counts one.
  const loads = { count: 0 };
  s.page.on('load', () => loads.count++);
  return { ...s, loads };
}

/** Opens the payments from the menu (folded behind its button on a phone). */
async function openPayments(page: Page, width: number): Promise<void> {
  if (width < 768) await page.getByRole('button', { name: 'Меню' }).click();
  await page.getByRole('navigation').getByRole('link', { name: 'Платежи', exact: true }).click();
}

/** What the console says that a failed fetch of a chunk is expected to make it say. */
const expected = (p: string) =>
  /Failed to (load resource|fetch dynamically imported module)|ChunkLoadError|ERR_FAILED|status of 404/.test(p);

describe('a page whose chunk cannot be fetched', () => {
  it('a network blip: the first try fails, the page tries again and shows up', async () => {
    const { context, page, problems, loads } = await signedIn();
    // Every request of the first try fails (the chunk's preload and its import, both at once); the second
    // try comes 400 ms later (lazy-page.ts).
    const asked: number[] = [];
    await page.route(PAYMENTS_CHUNK, (route: Route) => {
      asked.push(Date.now());
      return Date.now() - asked[0] < BLIP_MS ? route.abort('failed') : route.continue();
    });
    await openPayments(page, 1280);
    await page.getByRole('heading', { name: 'Платежи', level: 1 }).waitFor();
    // The page came from a later try: without one, the first failure would have been final.
    expect(asked.filter((at) => at - asked[0] >= BLIP_MS)).toHaveLength(1);
    expect(loads.count).toBe(0);
    expect(await page.getByTestId('page-failed').count()).toBe(0);
    expect(await page.getByText(WHITE_SCREEN).count()).toBe(0);
    expect(problems.filter((p) => !expected(p))).toEqual([]);
    await context.close();
  });

  it.each([390, 1280])(
    'out of reach at %i px: the message in the shell, the menu works, "try again" loads it when it is back',
    async (width) => {
      const { context, page, problems, loads } = await signedIn(width);
      let reachable = false;
      let asked = 0;
      await page.route(PAYMENTS_CHUNK, (route: Route) => {
        if (route.request().method() === 'GET') asked++;
        return reachable ? route.continue() : route.abort('failed');
      });
      await openPayments(page, width);
      const failed = page.getByTestId('page-failed');
      await failed.waitFor();
      expect(await failed.textContent()).toContain('Не удалось загрузить страницу');
      // Three tries, a short wait apart, before it says so (the first one's preload may be a request of its
      // own); no reload (nothing says a new build is out).
      expect(asked).toBeGreaterThanOrEqual(3);
      expect(loads.count).toBe(0);
      expect(await page.getByText(WHITE_SCREEN).count()).toBe(0);
      // The shell is all there: the header, and the menu (behind its button on a phone).
      await page.getByTestId('mode-switch').waitFor();
      if (width < 768) expect(await page.getByRole('button', { name: 'Меню' }).isVisible()).toBe(true);
      else expect(await page.getByRole('navigation').getByRole('link', { name: 'Обзор' }).isVisible()).toBe(true);
      await accessible(page, 'the page failed to load');
      await page.screenshot({ path: `${SHOTS}/${width}-chunk-failed.png`, fullPage: true });

      // Another page takes its place; coming back asks for the chunk again (and fails again).
      if (width < 768) await page.getByRole('button', { name: 'Меню' }).click();
      await page.getByRole('navigation').getByRole('link', { name: 'Вебхуки', exact: true }).click();
      await page.getByRole('heading', { name: 'Вебхуки', level: 1 }).waitFor();
      expect(await failed.count()).toBe(0);
      const before = asked;
      await openPayments(page, width);
      await failed.waitFor();
      expect(asked).toBeGreaterThan(before);

      reachable = true;
      await failed.getByRole('button', { name: 'Попробовать снова' }).click();
      await page.getByRole('heading', { name: 'Платежи', level: 1 }).waitFor();
      expect(loads.count).toBe(0);
      expect(await failed.count()).toBe(0);
      expect(problems.filter((p) => !expected(p))).toEqual([]);
      await context.close();
    },
  );

  it('a deploy removed it (404): the page reloads once and shows the page from the new build', async () => {
    const { context, page, problems, loads } = await signedIn();
    // The old build's chunk is gone until the page reloads (and so asks the server's index.html again).
    await page.route(PAYMENTS_CHUNK, (route: Route) =>
      loads.count === 0 ? route.fulfill({ status: 404, body: '' }) : route.continue(),
    );
    await openPayments(page, 1280);
    await page.getByRole('heading', { name: 'Платежи', level: 1 }).waitFor();
    expect(loads.count).toBe(1);
    expect(await page.evaluate(() => sessionStorage.getItem('tolem.reloaded-for'))).toMatch(PAYMENTS_CHUNK);
    expect(await page.getByText(WHITE_SCREEN).count()).toBe(0);
    expect(problems.filter((p) => !expected(p))).toEqual([]);
    await context.close();
  });

  it('a build that lost it for good: one reload, never a second, then the message', async () => {
    const { context, page, loads } = await signedIn();
    await page.route(PAYMENTS_CHUNK, (route: Route) => route.fulfill({ status: 404, body: '' }));
    await openPayments(page, 1280);
    await page.getByTestId('page-failed').waitFor({ timeout: 20_000 });
    expect(loads.count).toBe(1);
    // Time for a second reload, were there one.
    await page.waitForTimeout(3000);
    expect(loads.count).toBe(1);
    expect(await page.getByTestId('page-failed').isVisible()).toBe(true);
    expect(await page.getByText(WHITE_SCREEN).count()).toBe(0);
    await context.close();
  });

  it('index.html names another build while the chunk is out of reach: one reload', async () => {
    const { context, page, loads } = await signedIn();
    await page.route(PAYMENTS_CHUNK, (route: Route) => route.abort('failed'));
    // The page's own check of the build (a fetch of /dashboard/): a new deploy's index.html.
    await page.route(/\/dashboard\/$/, async (route: Route) => {
      if (route.request().resourceType() !== 'fetch') return route.continue();
      const res = await route.fetch();
      const body = (await res.text()).replace(/assets\/index-[\w-]+\.js/, 'assets/index-NEWBUILD.js');
      return route.fulfill({ response: res, body });
    });
    await openPayments(page, 1280);
    await page.getByTestId('page-failed').waitFor({ timeout: 20_000 });
    expect(loads.count).toBe(1);
    expect(await page.evaluate(() => sessionStorage.getItem('tolem.reloaded-for'))).toMatch(/index-NEWBUILD\.js$/);
    expect(await page.getByText(WHITE_SCREEN).count()).toBe(0);
    await context.close();
  });
});

it('a page that fails to draw (a bug): its place says so in Russian, the menu stays, no reload', async () => {
  const { context, page, loads } = await signedIn();
  await page.route(PAYMENTS_CHUNK, (route: Route) =>
    route.fulfill({
      contentType: 'application/javascript',
      body: 'export default function Payments() { throw new Error("a bug"); }',
    }),
  );
  await openPayments(page, 1280);
  const failed = page.getByTestId('page-failed');
  await failed.waitFor();
  expect(await failed.textContent()).toContain('На этой странице произошла ошибка');
  expect(loads.count).toBe(0);
  expect(await page.getByText(WHITE_SCREEN).count()).toBe(0);
  // The menu still works: another page opens in the failed one's place.
  await page.getByRole('navigation').getByRole('link', { name: 'Вебхуки', exact: true }).click();
  await page.getByRole('heading', { name: 'Вебхуки', level: 1 }).waitFor();
  expect(await failed.count()).toBe(0);
  await context.close();
});

it("a stylesheet that fails to load with the shell's code is asked again: the shell is drawn styled", async () => {
  let asked = 0;
  const { context, page } = await signedIn(1280, (p) =>
    p.route(/\/dashboard\/assets\/full-[\w-]+\.css$/, (route: Route) =>
      ++asked === 1 ? route.abort('failed') : route.continue(),
    ),
  );
  expect(asked).toBe(2);
  // The header's place comes from those styles (AppShell's): fixed at the top.
  expect(await page.locator('header').evaluate((e) => getComputedStyle(e).position)).toBe('fixed');
  expect(await page.getByText(WHITE_SCREEN).count()).toBe(0);
  await context.close();
});

describe('the first load', () => {
  it('the sign-in form takes under 250 KB on the wire, its code and styles brotli-compressed', async () => {
    const { context, page } = await h.page(390);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const got = new Map<string, { url: string; encoding?: string; bytes: number }>();
    cdp.on('Network.responseReceived', (e) =>
      got.set(e.requestId, {
        url: e.response.url,
        encoding: e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'],
        bytes: 0,
      }),
    );
    cdp.on('Network.loadingFinished', (e) => {
      const r = got.get(e.requestId);
      if (r) r.bytes = e.encodedDataLength;
    });
    await page.goto(`${h.base}/dashboard/login`);
    await page.getByRole('button', { name: 'Войти' }).waitFor();
    await page.waitForLoadState('networkidle');
    const all = [...got.values()];
    const total = all.reduce((n, r) => n + r.bytes, 0);
    console.log(`sign-in form in Chromium: ${(total / 1024).toFixed(1)} KB on the wire over ${all.length} responses`);
    expect(total).toBeLessThan(250 * 1024);
    const big = all.filter((r) => /\.(js|css)$/.test(r.url) && r.bytes > 2048);
    expect(big.length).toBeGreaterThan(1);
    for (const r of big) expect(r.encoding, r.url).toBe('br');
    // Nothing of the signed-in frame: its chunk comes after sign-in.
    expect(all.filter((r) => /\/assets\/Shell-/.test(r.url))).toEqual([]);
    await context.close();
  });

  it('the sign-in form looks the same with its own styles as with every style loaded', async () => {
    const { context, page, problems } = await h.page(390);
    await page.goto(`${h.base}/dashboard/login`);
    await page.getByRole('button', { name: 'Войти' }).waitFor();
    const own = await page.screenshot({ fullPage: true });
    // To registration and back in the app: the full styles (loaded by registration) stay in the page.
    await page.getByRole('link', { name: 'Регистрация' }).click();
    await page.getByRole('button', { name: 'Зарегистрироваться' }).waitFor();
    expect(await page.evaluate(() => document.styleSheets.length)).toBeGreaterThan(1);
    await page.goBack();
    await page.getByRole('button', { name: 'Войти' }).waitFor();
    await page.mouse.move(0, 0);
    const full = await page.screenshot({ fullPage: true });
    expect(full.equals(own)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });
});
