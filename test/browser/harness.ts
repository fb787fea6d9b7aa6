// What the browser tests share: the app listening on 127.0.0.1, a tiny "shop" server for success_url,
// the system Chromium through playwright-core, and screenshots under test-results/ (ignored by git).
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

export const SCREENSHOTS = 'test-results';
export const WIDTH = 390;

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export interface Harness {
  t: TestApp;
  base: string;
  shop: string;
  browser: Browser;
  page(width?: number): Promise<{ context: BrowserContext; page: Page; problems: string[] }>;
  close(): Promise<void>;
}

/** The merchant's shop: success_url lands here (http on loopback is allowed for links). */
function shopServer(): Promise<Server> {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Shop</title><h1 id="thanks">Thanks</h1><p>${req.url?.replace(/[<>&"]/g, '')}</p>`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export async function startHarness(
  overrides: Parameters<typeof buildTestApp>[0] = {},
  opts: Parameters<typeof buildTestApp>[1] = {},
): Promise<Harness> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const t = await buildTestApp(overrides, opts);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const shopSrv = await shopServer();
  const shop = `http://127.0.0.1:${(shopSrv.address() as AddressInfo).port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  return {
    t,
    base,
    shop,
    browser,
    async page(width = WIDTH) {
      const context = await browser.newContext({ viewport: { width, height: 844 }, locale: 'ru-RU' });
      const page = await context.newPage();
      // CSP violations and script errors would show up here: a page that works must have none.
      const problems: string[] = [];
      page.on('console', (m) => {
        // A form answered 400 on purpose (the e-mail step's error page) is not a problem.
        if (m.type() !== 'error' || /\/checkout\/[^/]+\/email$/.test(m.location().url)) return;
        problems.push(`${m.text()} ${m.location().url}`);
      });
      page.on('pageerror', (e) => problems.push(e.message));
      return { context, page, problems };
    },
    async close() {
      await browser.close();
      await new Promise((r) => shopSrv.close(r));
      await t.close();
    },
  };
}

export const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });

/**
 * Transitions run to their end (a spinner's endless one aside). A dialog opened by the click just before
 * may not have started its fade yet (its transition begins a frame or two after it mounts), so the page
 * counts as settled only after two looks a few frames apart that find nothing running.
 */
export const settled = (page: Page) =>
  page.evaluate(async () => {
    const frames = () =>
      new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 30))));
    let quiet = 0;
    for (let i = 0; i < 50 && quiet < 2; i++) {
      await frames();
      const running = document
        .getAnimations()
        .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
      if (running.length === 0) quiet++;
      else {
        quiet = 0;
        await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
      }
    }
  });

/** axe-core on the page as the user is left looking at it: no serious or critical violation. */
export async function accessible(page: Page, what: string): Promise<void> {
  // A dialog fading in has its colours half-way for a moment: check what the user is left looking at.
  await settled(page);
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => `${n.target.join(' ')} ${n.html.slice(0, 80)} ${n.failureSummary?.slice(0, 160) ?? ''}`)
          .slice(0, 3)
          .join(' | ')}`,
    ),
    what,
  ).toEqual([]);
}
