// The return QR in the dashboard, in Chromium at 390 px, against the provider's emulator (live mode, an
// r2 account): a refund of a paid live payment answers pending with a return QR, and the payment's page
// shows the cashier a panel with the QR (its modules are those of return_qr_token), the refund amount and
// its payment, a countdown, the customer-screen link; the payer scans it, the return watcher completes the
// refund, and the panel says so and the payment shows it refunded, without a reload. A return QR nobody
// scans in time fails, and the panel says that too. axe-core on the panel; screenshots in
// test-results/dashboard/.
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import QRCode from 'qrcode';
import { accessible, SCREENSHOTS, WIDTH } from './harness.ts';
import { idem, key, type Merchant } from '../helpers/factories.ts';
import { qrapiWorld, type QrapiWorld } from '../helpers/qrapi.ts';
import { pollReturns } from '../../src/domain/payments/refund-return.ts';

const SHOTS = `${SCREENSHOTS}/dashboard`;
/** The quiet zone the panel draws around the QR (ReturnQr.tsx), in modules. */
const QR_MARGIN = 2;
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

let w: QrapiWorld;
let browser: Browser;
let base: string;
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // The browser harness's app has no emulator behind it: this one is the emulator world's app, listening.
  w = await qrapiWorld();
  await w.t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(w.t.app.server.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
});
afterAll(async () => {
  await browser?.close();
  await w?.close();
});

const deps = () => w.t.runtime.deps;

/** A live QR of the merchant's r2 account, scanned and confirmed by the customer in the provider's app. */
async function paidLiveQr(m: Merchant, amount: number): Promise<string> {
  const res = await w.t.app.inject({
    method: 'POST',
    url: '/v2/qr',
    headers: { ...key(m.liveKey), ...idem() },
    payload: { amount },
  });
  expect(res.statusCode, res.body).toBe(201);
  const opId = res.json().operation_id as string;
  await w.customer('scan', opId);
  await w.customer('confirm', opId);
  const st = await w.t.app.inject({ method: 'GET', url: `/v2/qr/${opId}`, headers: key(m.liveKey) });
  expect(st.json().status).toBe('paid');
  return opId;
}

/** The return watcher's pass, by hand, for this refund made due now. */
async function pollReturnNow(refundId: string, accountId: number): Promise<void> {
  await deps().db.query('UPDATE refunds SET return_next_poll_at = now() WHERE id = $1', [refundId]);
  await pollReturns(deps(), {
    batch: 50,
    accounts: [accountId],
    onError: (err) => {
      throw err;
    },
  });
}

/** A phone-width browser signed in through the dashboard's own sign-in page, on the payment's page. */
async function onPayment(m: Merchant, opId: string) {
  const context = await browser.newContext({ viewport: { width: WIDTH, height: 844 }, locale: 'ru-RU' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`${msg.text()} ${msg.location().url}`);
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${base}/dashboard/login`);
  await page.getByLabel('Эл. почта').fill(m.email);
  await page.getByLabel('Пароль').fill(m.password);
  await page.getByRole('button', { name: 'Войти' }).click();
  await page.getByRole('heading', { name: 'Обзор' }).waitFor();
  await page.goto(`${base}/dashboard/payments/${opId}`);
  await page.getByRole('heading', { name: `Платёж ${opId}`, level: 1 }).waitFor();
  await page.getByText('Оплачен', { exact: true }).first().waitFor();
  return { context, page, problems };
}

/** Submits a refund from the page's form; the API's answer as the page got it. */
async function refundFromPage(page: Page, opId: string, amount: number): Promise<Record<string, string>> {
  await page.getByLabel('Сумма возврата').fill(String(amount));
  const [res] = await Promise.all([
    page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === `/me/payments/${opId}/refund`,
    ),
    (async () => {
      await page.getByRole('button', { name: 'Вернуть', exact: true }).click();
      // The confirmation names the amount before anything is sent.
      await page
        .getByRole('dialog')
        .getByRole('button', { name: /^Вернуть \d/ })
        .click();
    })(),
  ]);
  expect(res.status()).toBe(201);
  return res.json();
}

/** The dark modules of the QR image as drawn in the page, sampled at each module's centre. */
async function drawnModules(page: Page, size: number): Promise<boolean[]> {
  return page.getByTestId('return-qr-image').evaluate(
    (el, [size, margin]) => {
      const img = el as HTMLImageElement;
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const g = canvas.getContext('2d')!;
      g.drawImage(img, 0, 0);
      const px = g.getImageData(0, 0, canvas.width, canvas.height).data;
      const scale = img.naturalWidth / (size + 2 * margin);
      const dark: boolean[] = [];
      for (let r = 0; r < size; r++) {
        for (let c = 0; c < size; c++) {
          const x = Math.floor((margin + c + 0.5) * scale);
          const y = Math.floor((margin + r + 0.5) * scale);
          dark.push(px[(y * canvas.width + x) * 4] < 128);
        }
      }
      return dark;
    },
    [size, QR_MARGIN] as const,
  );
}

describe('the return QR of an r2 refund, at 390 px', () => {
  it(
    'shows the cashier the QR, the countdown and the customer-screen ' +
      'link; the payer scans it; the panel and the payment say refunded, ' +
      'without a reload',
    async () => {
      const m = await w.liveMerchant('r2');
      const opId = await paidLiveQr(m, 6000);
      const { context, page, problems } = await onPayment(m, opId);
      // Live data: the mode switch is off and no test banner shows.
      expect(await page.getByRole('switch', { name: 'Тестовые данные' }).isChecked()).toBe(false);
      expect(await page.getByTestId('test-banner').count()).toBe(0);
      await page.evaluate(() => {
        (window as unknown as { mark: number }).mark = 42;
      });

      const r = await refundFromPage(page, opId, 2000);
      expect(r).toMatchObject({ status: 'pending', amount: 2000 });
      expect(r.return_qr_token).toMatch(/^\d{20,}$/);

      const panel = page.getByTestId('return-qr');
      await panel.getByRole('heading', { name: 'Покажите этот QR-код покупателю' }).waitFor();
      // The refund's amount and the payment it belongs to.
      expect(await panel.getByTestId('return-amount').textContent()).toBe('2\u00a0000\u00a0₸');
      expect(await panel.textContent()).toContain(opId);
      expect(await panel.textContent()).toContain('6\u00a0000\u00a0₸');
      // The QR image, named for a screen reader, its modules those of return_qr_token.
      const img = panel.getByRole('img', { name: 'QR-код возврата 2\u00a0000\u00a0₸' });
      await img.waitFor();
      expect((await img.boundingBox())!.width).toBeGreaterThanOrEqual(200);
      const qr = QRCode.create(r.return_qr_token, { errorCorrectionLevel: 'M' });
      expect(await drawnModules(page, qr.modules.size)).toEqual(Array.from(qr.modules.data, (d) => Boolean(d)));
      // The countdown to expires_at (about 180 s), ticking.
      const countdown = panel.getByTestId('return-countdown');
      const secondsLeft = async () => {
        const [, mm, ss] = /(\d+):(\d\d)/.exec((await countdown.textContent())!)!;
        return Number(mm) * 60 + Number(ss);
      };
      expect(await countdown.textContent()).toMatch(/^QR-код действует ещё \d:\d\d$/);
      const first = await secondsLeft();
      expect(first).toBeGreaterThan(100);
      expect(first).toBeLessThanOrEqual(Math.ceil((new Date(r.expires_at).getTime() - Date.now()) / 1000) + 2);
      await expect.poll(secondsLeft, { timeout: 5000 }).toBeLessThan(first);
      // The customer-facing page, in a new tab.
      const link = panel.getByRole('link', { name: /Открыть на экране покупателя/ });
      expect(await link.getAttribute('href')).toBe(r.return_deep_link);
      expect(await link.getAttribute('target')).toBe('_blank');
      // The live state: waiting for the scan, in a live region; no second refund meanwhile.
      const status = panel.getByRole('status');
      expect(await status.textContent()).toContain('Ждём, когда покупатель отсканирует QR-код');
      expect(await page.getByRole('button', { name: 'Вернуть' }).count()).toBe(0);
      // The panel fits the phone: nothing of it beyond 390 px, nothing scrolled sideways inside it. (The page's
      // own h1, "Платёж op_<26 characters>", is wider than a phone already: Page.tsx's title does not wrap.)
      expect(
        await panel.evaluate((el) =>
          Math.max(...[el, ...el.querySelectorAll('*')].map((e) => e.getBoundingClientRect().right)),
        ),
      ).toBeLessThanOrEqual(WIDTH);
      expect(await panel.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
      await accessible(page, 'return QR panel, waiting');
      await page.screenshot({ path: `${SHOTS}/${WIDTH}-return-qr-waiting.png`, fullPage: true });

      // Not scanned yet: the watcher's pass leaves it waiting.
      await pollReturnNow(r.refund_id, m.accountId);
      await page.waitForTimeout(3500);
      expect(await status.textContent()).toContain('Ждём');

      // The payer scans it in the provider's app; the return watcher completes the refund.
      await w.returnScan('scan', r.refund_id, { opId });
      await pollReturnNow(r.refund_id, m.accountId);
      expect(
        (await deps().db.query<{ status: string }>('SELECT status FROM refunds WHERE id = $1', [r.refund_id])).rows[0]
          .status,
      ).toBe('completed');
      await expect.poll(() => status.textContent(), { timeout: 10_000 }).toContain('Возврат выполнен');
      expect(await status.textContent()).toContain('Возвращён');
      expect(await panel.getByRole('heading').textContent()).toBe('Возврат по QR-коду');
      expect(await panel.getByRole('img').count()).toBe(0);
      // The payment's own data, fetched again: partly refunded, 2 000 ₸ back; the form offers the rest.
      await expect.poll(() => page.getByText('Частично возвращён').count()).toBeGreaterThan(0);
      await expect.poll(() => page.getByText('Возвращено: 2\u00a0000\u00a0₸').count()).toBe(1);
      await page.getByRole('button', { name: 'Вернуть', exact: true }).waitFor();
      await page.getByLabel(/Вернуть весь остаток \(4\s000\s₸\)/).waitFor();
      expect(await page.evaluate(() => (window as unknown as { mark?: number }).mark)).toBe(42);
      await accessible(page, 'return QR panel, refunded');
      await page.screenshot({ path: `${SHOTS}/${WIDTH}-return-qr-refunded.png`, fullPage: true });
      await panel.getByRole('button', { name: 'Закрыть' }).click();
      expect(await panel.count()).toBe(0);
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  it(
    'a return QR nobody scans in time: the panel says the customer did ' +
      'not scan it, and the whole amount can be refunded again',
    async () => {
      const m = await w.liveMerchant('r2');
      const opId = await paidLiveQr(m, 3000);
      const { context, page, problems } = await onPayment(m, opId);
      const r = await refundFromPage(page, opId, 3000);
      expect(r.status).toBe('pending');
      const panel = page.getByTestId('return-qr');
      await panel.getByRole('img', { name: 'QR-код возврата 3\u00a0000\u00a0₸' }).waitFor();

      // Its time is over (and the grace the watcher allows): the watcher fails it, releasing the amount.
      await deps().db.query(`UPDATE refunds SET return_expires_at = now() - interval '5 minutes' WHERE id = $1`, [
        r.refund_id,
      ]);
      await pollReturnNow(r.refund_id, m.accountId);
      expect(
        (await deps().db.query<{ status: string }>('SELECT status FROM refunds WHERE id = $1', [r.refund_id])).rows[0]
          .status,
      ).toBe('failed');
      const status = panel.getByRole('status');
      await expect
        .poll(() => status.textContent(), { timeout: 10_000 })
        .toContain('Покупатель не отсканировал QR-код вовремя');
      expect(await panel.getByRole('img').count()).toBe(0);
      await page.getByRole('button', { name: 'Вернуть', exact: true }).waitFor();
      await page.getByLabel(/Вернуть весь остаток \(3\s000\s₸\)/).waitFor();
      expect(await page.getByText('Оплачен', { exact: true }).count()).toBeGreaterThan(0);
      await accessible(page, 'return QR panel, failed');
      await page.screenshot({ path: `${SHOTS}/${WIDTH}-return-qr-expired.png`, fullPage: true });
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});
