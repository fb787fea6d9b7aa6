// The dashboard on a shop owner's phone (390 px) in Chromium: every page a merchant, a partner and the
// operator's admin can reach, signed out and in, each with some data in its lists, must not scroll
// sideways (document.scrollingElement.scrollWidth <= innerWidth), cut nothing off at the screen's or a
// card's edge, nor a button's label ("Copy" beside a long secret); the payments come as cards with each
// amount on the screen. "Skip to content" is the first thing Tab reaches and moves the focus to the page.
// axe-core on every page; screenshots in test-results/dashboard/phone-*.png.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { accessible, settled, startHarness, SCREENSHOTS, type Harness } from './harness.ts';
import { api } from '../helpers/api.ts';
import { newAdmin, newPaidPayment, newRefund, newWebhook, newWithdrawal, type Merchant } from '../helpers/actors.ts';
import { idem, newMerchant, uniqueEmail } from '../helpers/factories.ts';

const SHOTS = `${SCREENSHOTS}/dashboard`;
const WIDTH = 390;
let h: Harness;
// The app and a browser: slow to start on a loaded host.
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  h = await startHarness();
}, 120_000);
afterAll(() => h?.close());

/**
 * What sticks out on the page as it is: how far the document scrolls sideways; elements past the screen's
 * right edge that no sideways scroll of their own brings into view (cut off, like choices in a row too
 * wide for the screen); button labels cut off by their button; anything a card cuts at its edge.
 */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const describe = (e: Element) => `${e.tagName.toLowerCase()} "${(e.textContent ?? '').trim().slice(0, 40)}"`;
    const scrolls = (e: Element) => {
      for (let p = e.parentElement; p; p = p.parentElement)
        if (/auto|scroll/.test(getComputedStyle(p).overflowX)) return true;
      return false;
    };
    const shown = (e: Element) => e.getBoundingClientRect().width > 0 && getComputedStyle(e).visibility !== 'hidden';
    const sideways = document.scrollingElement!.scrollWidth - window.innerWidth;
    const pastEdge = [...document.querySelectorAll('body *')]
      .filter((e) => shown(e) && e.getBoundingClientRect().right > window.innerWidth + 1 && !scrolls(e))
      .map(describe);
    const cutLabels = [...document.querySelectorAll('.mantine-Button-label')]
      .filter((l) => shown(l) && l.scrollWidth > l.clientWidth + 1)
      .map(describe);
    const clipped = [...document.querySelectorAll('li[data-testid="row"]')].flatMap((card) => {
      const edge = card.getBoundingClientRect().right;
      return [...card.querySelectorAll('*')]
        .filter((e) => e.getBoundingClientRect().right > edge + 1 && !scrolls(e))
        .map(describe);
    });
    return { sideways, pastEdge, cutLabels, clipped };
  });

/** What a user at 390 px would trip over on this page; nothing when all is well. */
async function fits(page: Page, path: string): Promise<string[]> {
  // A notice sliding in from the right is past the edge for a moment: measure once things stand still.
  await settled(page);
  const o = await overflow(page);
  return [
    ...(o.sideways > 0 ? [`${path}: the page scrolls ${o.sideways}px sideways`] : []),
    ...o.pastEdge.slice(-3).map((l) => `${path}: past the screen's edge: ${l}`),
    ...o.cutLabels.map((l) => `${path}: button label cut: ${l}`),
    ...o.clipped.map((l) => `${path}: cut at a card's edge: ${l}`),
  ];
}

/** The element is on the screen and not hidden by what is around it (a scroll container, a card). */
const inSight = (element: Locator) =>
  element.evaluate((e) => {
    const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return r.left >= 0 && r.right <= window.innerWidth && r.width > 0 && (hit === e || e.contains(hit));
  });

/**
 * A user who is a merchant with data in every list (paid, refunded and pending payments in test mode, a
 * link, a webhook, a ticket, an invited member), an approved partner with a referred client, a referral
 * link and a withdrawal, and an operator admin (another partner waits for approval): one session reaches
 * every page of the three.
 */
async function everything(): Promise<{ user: Merchant; opId: string; hookId: number; ticketId: number }> {
  const admin = await newAdmin(h.t.app, h.t.runtime.deps.db);
  const { partner: user } = await newWithdrawal(h.t, admin);
  await h.t.runtime.deps.db.query('UPDATE users SET is_admin = true WHERE email = $1', [user.email]);
  const as = api(h.t.app, user);
  const paid = await newPaidPayment(h.t.app, user.testKey, 1_234_567, {
    comment: 'A long comment that a phone has to wrap, with a long word: Qwertyuiopasdfghjklzxcvbnm1234567890',
  });
  await newRefund(h.t.app, user.testKey, { amount: 1_500 });
  const pending = await api(h.t.app, { apiKey: user.testKey }).post('/v2/qr', {
    body: { amount: 990 },
    headers: idem(),
  });
  expect(pending.status).toBe(201);
  const link = await as.post('/v2/payment-links?mode=test', {
    body: { amount: 25_000, description: 'Торт «Наполеон» на 12 персон с доставкой по Алматы', allow_repeat: true },
  });
  expect(link.status, link.raw.body).toBe(201);
  const hook = await newWebhook(h.t.app, user, { url: `https://hooks.example.kz/${'very-long-path/'.repeat(6)}` });
  const ticket = await as.post('/me/tickets', { body: { subject: 'Где мой возврат по платежу?', body: 'Не пришёл.' } });
  expect(ticket.status, ticket.raw.body).toBe(201);
  expect(
    (await as.post('/me/team/invite', { body: { email: uniqueEmail('member'), role: 'accountant' } })).status,
  ).toBe(201);
  expect((await as.post('/partner/links', { body: { name: 'Instagram' } })).status).toBe(201);
  const waiting = await api(h.t.app, await newAdmin(h.t.app, h.t.runtime.deps.db)).post('/partner/auth/register', {
    body: { company_name: 'Агентство, которое ждёт одобрения' },
  });
  expect(waiting.status).toBe(201);
  return { user, opId: paid.operation_id, hookId: hook.id, ticketId: ticket.body.id };
}

const SIGNED_OUT = ['/login', '/register', '/forgot-password', '/reset-password?token=rst_x'];

it('every page at 390 px: no sideways scroll, no cut label, the amount in sight, axe clean', {
  timeout: 480_000,
}, async () => {
  const { user, opId, hookId, ticketId } = await everything();
  const { page, problems } = await h.page(WIDTH);
  const trips: string[] = [];
  const visit = async (path: string) => {
    await page.goto(`${h.base}/dashboard${path}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    trips.push(...(await fits(page, path)));
    await accessible(page, path);
    await page.screenshot({
      path: `${SHOTS}/phone${path.replace(/\?.*/, '').replaceAll('/', '-')}.png`,
      fullPage: true,
    });
  };
  for (const path of SIGNED_OUT) await visit(path);

  await page.goto(`${h.base}/dashboard/login`);
  await page.getByLabel('Эл. почта').fill(user.email);
  await page.getByLabel('Пароль').fill(user.password);
  await page.getByRole('button', { name: 'Войти' }).click();
  await page.getByRole('heading', { name: 'Обзор' }).waitFor();
  await page.getByRole('switch', { name: 'Тестовые данные' }).check({ force: true });
  await page.getByTestId('test-banner').waitFor();
  const clientId = (await api(h.t.app, user).get('/partner/clients')).body.data[0].id;
  const pages = [
    ...['', 'payments', `payments/${opId}`, 'links', 'webhooks', `webhooks/${hookId}`, 'api-keys', 'branding'],
    ...['organization', 'team', 'tickets', `tickets/${ticketId}`, 'notifications', 'provider', 'subscription'],
    ...['logs', 'profile'],
    ...['', 'clients', `clients/${clientId}`, 'links', 'money', 'withdrawals', 'analytics', 'keys'].map(
      (p) => `partner/${p}`,
    ),
    ...['', 'withdrawals', 'tickets', `tickets/${ticketId}`, 'clients'].map((p) => `admin/${p}`),
  ];
  for (const path of pages) await visit(`/${path.replace(/\/$/, '')}`);

  // The payments as cards: each amount on the screen, not behind a sideways scroll.
  await visit('/payments');
  const cards = page.getByTestId('payments-table').getByTestId('row');
  await expect.poll(() => cards.count()).toBe(3);
  for (const amount of ['1 234 567 ₸', '5 000 ₸', '990 ₸']) {
    const cell = cards.getByText(amount.replaceAll(' ', '\u00a0'), { exact: true });
    // Scrolled to vertically (the search form sits above the cards): what must not happen is sideways.
    await cell.scrollIntoViewIfNeeded();
    expect(await inSight(cell), amount).toBe(true);
  }
  // A secret shown once and a new link: the value wraps, "Copy" stays whole beside it.
  await visit('/api-keys');
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Выпустить новый' }).first().click();
  await page.getByTestId('shown-once').waitFor();
  trips.push(...(await fits(page, 'api-keys, a new key')));
  await visit('/links');
  await page.getByRole('button', { name: 'Новая ссылка' }).click();
  await page.getByRole('dialog').getByLabel('Сумма').fill('1500');
  await page.getByRole('dialog').getByLabel('Описание').fill('Кофе');
  await page.getByRole('dialog').getByRole('button', { name: 'Создать' }).click();
  await page.getByTestId('created-link').waitFor();
  trips.push(...(await fits(page, 'links, a new link')));
  await accessible(page, 'a new link');

  // Kazakh words run longest: the same walk in Kazakh, for what sticks out only.
  await page.evaluate(() => localStorage.setItem('tolem.lang', 'kk'));
  for (const path of pages) {
    await page.goto(`${h.base}/dashboard/${path.replace(/\/$/, '')}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    trips.push(...(await fits(page, `kk /${path}`)));
  }
  expect(await page.locator('html').getAttribute('lang')).toBe('kk');

  expect(trips).toEqual([]);
  expect(problems).toEqual([]);
});

it.each([390, 1280])(
  'at %i px the first Tab reaches "skip to content", out of sight until then; it moves the focus past the menu',
  async (width) => {
    const m = await newMerchant(h.t.app);
    const { context, page, problems } = await h.page(width);
    await page.addInitScript((token) => {
      if (!localStorage.getItem('tolem.refresh')) localStorage.setItem('tolem.refresh', token);
    }, m.refresh);
    await page.goto(`${h.base}/dashboard/payments`);
    await page.getByRole('heading', { name: 'Платежи', level: 1 }).waitFor();
    const skip = page.getByRole('link', { name: 'Перейти к содержимому' });
    expect(await skip.evaluate((e) => e.getBoundingClientRect().bottom <= 0)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await skip.evaluate((e) => e === document.activeElement)).toBe(true);
    expect(await inSight(skip)).toBe(true);
    await accessible(page, 'the skip link, focused');
    await page.screenshot({ path: `${SHOTS}/${width}-skip-link.png` });
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    expect(new URL(page.url()).hash).toBe('');
    // The next stop is the page's first control, not the header or the menu.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Выгрузить CSV');
    expect(problems).toEqual([]);
    await context.close();
  },
);
