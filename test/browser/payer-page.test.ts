// The payer page /pay/{op_id} (decisions 26) and a refund's return QR page in a real Chromium at phone
// width: amount and QR fit the screen, the status turns to paid without a reload once the payment is made
// through the API, the app button shows on a phone only for a link token, and axe-core finds no serious
// or critical violation in either state. Screenshots in test-results/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { bearer, newMerchant, type Merchant } from '../helpers/factories.ts';
import { connectLive, createQr, pay } from '../helpers/payments.ts';
import { newId } from '../../src/domain/ids.ts';
import { issueReceipts, newRegister } from '../helpers/fiscal.ts';
import { SCREENSHOTS, startHarness, WIDTH, type Harness } from './harness.ts';

let h: Harness;
let m: Merchant;
beforeAll(async () => {
  h = await startHarness();
  m = await newMerchant(h.t.app, { name: 'Кофейня «Алма»' });
  await h.t.app.inject({
    method: 'PATCH',
    url: '/me/branding',
    headers: bearer(m),
    payload: { display_name: 'Кофейня «Алма»', brand_color: '#0E7C66', support_email: 'help@alma.kz' },
  });
});
afterAll(() => h?.close());

/** axe-core on the page as it is: no serious or critical violation. */
async function accessible(page: Page, what: string): Promise<void> {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
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

/** A phone: touch, no hover (the media the app button is shown for). */
async function phone() {
  const context = await h.browser.newContext({
    viewport: { width: WIDTH, height: 844 },
    locale: 'ru-RU',
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`${msg.text()} ${msg.location().url}`);
  });
  page.on('pageerror', (e) => problems.push(e.message));
  return { context, page, problems };
}

/** The viewport as the phone shows it (a full-page shot resizes the window and drops the phone's touch media). */
const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png` });

const DIGITS = '51236903777280167836178166503744703123';

describe('payer page in Chromium', () => {
  it(
    'at 390 px: amount and QR; the status turns to paid without a reload ' + 'when the payment is made through the API',
    async () => {
      const qr = await createQr(h.t.app, m.testKey, 5_000, { comment: 'Капучино и круассан' });
      const { page, context, problems } = await phone();
      const res = await page.goto(`${h.base}/pay/${qr.operation_id}`);
      expect(res?.status()).toBe(200);
      expect(await page.locator('#amount').textContent()).toBe('5 000 ₸');
      expect(await page.locator('#merchant-name').textContent()).toBe('Кофейня «Алма»');
      expect(await page.locator('#comment').textContent()).toBe('Капучино и круассан');
      expect(await page.locator('#test-banner').isVisible()).toBe(true);
      const qrImage = page.getByRole('img', { name: 'QR-код для оплаты 5 000 ₸' });
      expect(await qrImage.isVisible()).toBe(true);
      expect((await page.locator('.qr-box').boundingBox())!.width).toBeGreaterThan(200);
      // Fits a phone: nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH);
      // A test QR's token is the sandbox payer's page: on a phone, the app button opens it.
      expect(await page.getByRole('link', { name: 'Открыть в приложении для оплаты' }).isVisible()).toBe(true);
      // With the script running, the refresh link is not needed; the countdown ticks as m:ss.
      expect(await page.locator('#refresh').isVisible()).toBe(false);
      await expect.poll(() => page.locator('#countdown').textContent()).toMatch(/^\d+:\d\d$/);
      expect(await page.getByRole('status').textContent()).toContain('Ожидаем оплату');
      await accessible(page, 'waiting');
      await shot(page, 'payer-waiting-390');

      // A mark on the window survives only if the page is not reloaded.
      await page.evaluate(() => {
        (window as unknown as { mark: number }).mark = 42;
      });
      await pay(h.t.app, m.testKey, qr.operation_id);
      await page.locator('#panel-paid').waitFor({ state: 'visible', timeout: 10_000 });
      expect(await page.evaluate(() => (window as unknown as { mark?: number }).mark)).toBe(42);
      expect(await page.getByRole('heading', { name: 'Оплата получена' }).isVisible()).toBe(true);
      expect(await page.getByRole('status').textContent()).toContain('Оплачено');
      expect(await qrImage.isVisible()).toBe(false);
      expect(await page.locator('#payer').getAttribute('data-state')).toBe('paid');
      await accessible(page, 'paid');
      await shot(page, 'payer-paid-390');
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  it(
    'a live operation with a digit token: the QR, no app button; expired ' + 'says so without a reload (English)',
    async () => {
      await connectLive(h.t, m);
      const qr = await createQr(h.t.app, m.liveKey, 12_500);
      await h.t.runtime.deps.db.query('UPDATE operations SET qr_token = $2 WHERE id = $1', [qr.operation_id, DIGITS]);
      const { page, context, problems } = await phone();
      await page.goto(`${h.base}/pay/${qr.operation_id}?lang=en`);
      expect(await page.locator('#amount').textContent()).toBe('12 500 ₸');
      expect(await page.getByRole('img', { name: 'QR code to pay 12 500 ₸' }).isVisible()).toBe(true);
      expect(await page.locator('#test-banner').count()).toBe(0);
      expect(await page.locator('a.app-link').count()).toBe(0);
      expect(
        await page
          .getByRole('navigation', { name: 'Language' })
          .getByRole('link', { name: 'EN' })
          .getAttribute('aria-current'),
      ).toBe('true');
      await accessible(page, 'live waiting');
      await shot(page, 'payer-live-390');
      // What the sweeper writes when the QR runs out.
      await h.t.runtime.deps.db.query(`UPDATE operations SET status = 'expired' WHERE id = $1`, [qr.operation_id]);
      await page.locator('#panel-expired').waitFor({ state: 'visible', timeout: 10_000 });
      expect(await page.getByRole('status').textContent()).toContain('The QR code has expired');
      await accessible(page, 'expired');
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  it('on a computer the app button is not shown (a mouse scans nothing); the page still fits 390 px', async () => {
    const qr = await createQr(h.t.app, m.testKey, 3_000);
    const { page, context, problems } = await h.page();
    await page.goto(`${h.base}/pay/${qr.operation_id}`);
    expect(await page.locator('a.app-link').count()).toBe(1);
    expect(await page.locator('a.app-link').isVisible()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the return QR of a refund: branding, amounts, the QR; completed without a reload', async () => {
    const qr = await createQr(h.t.app, m.testKey, 8_000);
    await pay(h.t.app, m.testKey, qr.operation_id);
    const rf = newId('rf');
    const { clientId } = (
      await h.t.runtime.deps.db.query<{ clientId: number }>(
        'SELECT client_id AS "clientId" FROM operations WHERE id = $1',
        [qr.operation_id],
      )
    ).rows[0];
    await h.t.runtime.deps.db.query(
      `INSERT INTO refunds (id, operation_id, client_id, mode, amount, status, ` +
        `return_qr_id, return_qr_token, return_expires_at, return_status)
       VALUES ($1, $2, $3, 'test', 3000, 'pending', 'ret-1', $4, now() + interval '10 minutes', 'QrTokenCreated')`,
      [rf, qr.operation_id, clientId, DIGITS],
    );
    const { page, context, problems } = await phone();
    await page.goto(`${h.base}/pay/${qr.operation_id}/refunds/${rf}`);
    expect(await page.locator('#amount').textContent()).toBe('3 000 ₸');
    expect(await page.locator('#refund-of').textContent()).toBe('Возврат 3 000 ₸ за оплату 8 000 ₸');
    expect(await page.getByRole('img', { name: 'QR-код возврата 3 000 ₸' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH);
    await accessible(page, 'refund waiting');
    await shot(page, 'payer-refund-390');
    await h.t.runtime.deps.db.query(
      `UPDATE refunds SET status = 'completed', return_status = 'Success' WHERE id = $1`,
      [rf],
    );
    await page.locator('#panel-completed').waitFor({ state: 'visible', timeout: 10_000 });
    expect(await page.getByRole('status').textContent()).toContain('Деньги возвращены');
    await accessible(page, 'refund completed');
    await shot(page, 'payer-refund-done-390');
    expect(problems).toEqual([]);
    await context.close();
  });

  it(
    'the receipt link appears without a reload once the receipt is issued; ' +
      'the check page fits 390 and 1280 px and passes axe, its 404 too',
    async () => {
      const seller = await newMerchant(h.t.app, { name: 'Кофейня «Береке»' });
      await newRegister(h.t, seller, { vat_payer: true });
      const qr = await createQr(h.t.app, seller.testKey, 2_500, { comment: 'Латте' });
      const { page, context, problems } = await phone();
      await page.goto(`${h.base}/pay/${qr.operation_id}`);
      await pay(h.t.app, seller.testKey, qr.operation_id);
      await page.locator('#panel-paid').waitFor({ state: 'visible', timeout: 10_000 });
      const link = page.getByRole('link', { name: 'Посмотреть чек' });
      expect(await link.isVisible()).toBe(false);
      await issueReceipts(h.t);
      await link.waitFor({ state: 'visible', timeout: 10_000 });
      const href = (await link.getAttribute('href'))!;
      expect(href).toContain('/fiscal/check?');
      await accessible(page, 'paid with its receipt');
      await shot(page, 'payer-receipt-link-390');
      // The check URL names the public host; the harness listens on its own port.
      const check = new URL(href);
      for (const width of [WIDTH, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        const res = await page.goto(`${h.base}${check.pathname}${check.search}`);
        expect(res?.status()).toBe(200);
        expect(await page.locator('#total').textContent()).toBe('2 500,00 ₸');
        expect(await page.locator('#test-mark').isVisible()).toBe(true);
        expect(await page.getByRole('img', { name: 'QR-код этой страницы проверки чека' }).isVisible()).toBe(true);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await accessible(page, `check page at ${width}`);
        await shot(page, `check-page-${width}`);
      }
      expect(problems).toEqual([]);
      const missing = await page.goto(`${h.base}/fiscal/check?i=1&f=2&s=3.00&t=20260101T000000&lang=kk`);
      expect(missing?.status()).toBe(404);
      expect(await page.getByRole('heading', { name: 'Чек табылмады' }).isVisible()).toBe(true);
      await accessible(page, 'check page 404');
      await shot(page, 'check-page-404');
      await context.close();
    },
  );
});
