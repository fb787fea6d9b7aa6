// The web dashboard in a real Chromium at phone (390 px) and desktop (1280 px) width: register, see the
// test key once, switch to test data, subscribe a webhook, create a payment link, pay it on the hosted
// page with Simulate, find the payment in the table, refund it, and see the webhook's deliveries.
// Screenshots of each main page go to test-results/dashboard/; axe-core checks each for serious or
// critical accessibility violations.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { accessible, startHarness, SCREENSHOTS, type Harness } from './harness.ts';
import { startReceiver, type Receiver } from '../webhooks/helpers.ts';
import { deliverAllDue } from '../../src/jobs/deliveries.ts';

const SHOTS = `${SCREENSHOTS}/dashboard`;
let h: Harness;
let receiver: Receiver;
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  h = await startHarness({ webhooksAllowPrivate: true });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Opens a page of the shell: through the menu on a phone (the navigation is folded), directly otherwise. */
async function nav(page: Page, label: string, width: number): Promise<void> {
  if (width < 768) await page.getByRole('button', { name: 'Меню' }).click();
  await page.getByRole('navigation').getByRole('link', { name: label, exact: true }).click();
}

// The whole first day in one flow (register to refund, webhooks and a secret rotation): longer than the suite's
// 60 s on a loaded 2-core host.
const FIRST_DAY_MS = 150_000;

describe.each([390, 1280])('the merchant at %i px', (width) => {
  it(
    'register -> test key -> link -> paid on the hosted page -> in the ' + 'table -> refunded -> webhook deliveries',
    async () => {
      const { context, page, problems } = await h.page(width);
      const tag = `${width}`;
      const email = `dash-${width}-${Date.now()}@example.kz`;
      await page.goto(`${h.base}/dashboard/register`);
      await accessible(page, 'register');
      await shot(page, `${tag}-register`);
      await page.getByLabel('Название магазина').fill('Кофейня');
      await page.getByLabel('Эл. почта').fill(email);
      await page.getByLabel('Пароль').fill('a long password 1');
      await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
      const keys = page.getByTestId('shown-once');
      await expect.poll(() => keys.count()).toBe(2);
      expect(await keys.first().textContent()).toMatch(/^kp_test_/);
      await accessible(page, 'keys shown once');
      await shot(page, `${tag}-keys-once`);
      await page.getByRole('button', { name: 'Продолжить' }).click();
      await page.getByRole('heading', { name: 'Обзор' }).waitFor();

      // Test data on: the banner shows, and every list is the test mode's.
      await page.getByRole('switch', { name: 'Тестовые данные' }).check({ force: true });
      await page.getByTestId('test-banner').waitFor();
      await page.getByRole('heading', { name: 'Обзор' }).waitFor();
      await accessible(page, 'overview');
      await shot(page, `${tag}-overview`);

      // A webhook to a local receiver, its secret shown once.
      await nav(page, 'Вебхуки', width);
      await page.getByRole('button', { name: 'Новый вебхук' }).click();
      await page.getByLabel('URL').fill(receiver.url);
      await page.getByRole('dialog').getByRole('button', { name: 'Создать' }).click();
      expect(await page.getByRole('dialog').getByTestId('shown-once').textContent()).toMatch(/^whsec_/);
      await page.keyboard.press('Escape');

      // A payment link, paid on the hosted page with Simulate.
      await nav(page, 'Платёжные ссылки', width);
      await page.getByRole('button', { name: 'Новая ссылка' }).click();
      await page.getByRole('dialog').getByLabel('Сумма').fill('15000');
      await page.getByRole('dialog').getByLabel('Описание').fill('Заказ 42');
      await page.getByRole('dialog').getByRole('button', { name: 'Создать' }).click();
      const url = await page.getByTestId('created-link').textContent();
      expect(url).toMatch(/\/checkout\/[0-9A-Za-z]+$/);
      await expect.poll(() => page.getByRole('dialog').getByRole('img', { name: 'QR-код' }).count()).toBe(1);
      await shot(page, `${tag}-link-created`);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await accessible(page, 'links');
      await shot(page, `${tag}-links`);
      const payer = await context.newPage();
      // The link names PUBLIC_BASE_URL; the test's server listens on a port of its own.
      await payer.goto(`${h.base}${new URL(url!).pathname}`);
      await payer.getByRole('button', { name: 'Симулировать оплату' }).click();
      await payer.getByText('Оплата получена').first().waitFor();
      await payer.close();

      // The payment in the table, then refunded from its page.
      await nav(page, 'Платежи', width);
      // A table row on a wide screen, a card on a phone: each record is a "row" either way.
      const row = page.getByTestId('payments-table').getByTestId('row').first();
      await expect.poll(() => row.textContent()).toContain('Оплачен');
      expect(await row.textContent()).toContain('15\u00a0000\u00a0₸');
      await accessible(page, 'payments');
      await shot(page, `${tag}-payments`);
      await row.getByRole('link').click();
      // No amount and no "whole remaining amount": nothing is sent, the field says what it needs.
      const refunds: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'POST' && r.url().includes('/refund')) refunds.push(r.url());
      });
      await page.getByRole('button', { name: 'Вернуть', exact: true }).click();
      await page.getByText(/Введите сумму от 1 до 15\s000\s₸/).waitFor();
      // The whole amount, confirmed: the dialog names the amount and the payment; Cancel sends nothing.
      await page.getByLabel(/Вернуть весь остаток \(15\s000\s₸\)/).check();
      await page.getByRole('button', { name: 'Вернуть', exact: true }).click();
      const confirm = page.getByRole('dialog', { name: 'Подтвердите возврат' });
      expect(await confirm.textContent()).toMatch(
        /Вернуть 15\u00a0000\u00a0₸ покупателю по платежу op_\w+ на 15\u00a0000\u00a0₸/,
      );
      await accessible(page, 'refund confirmation');
      await confirm.getByRole('button', { name: 'Отмена' }).click();
      await confirm.waitFor({ state: 'detached' });
      expect(refunds).toEqual([]);
      await page.getByRole('button', { name: 'Вернуть', exact: true }).click();
      await confirm.getByRole('button', { name: /^Вернуть 15\s000\s₸$/ }).click();
      await page.getByText('Возвращён').first().waitFor();
      expect(refunds).toHaveLength(1);
      // The journal's event in words (issue 41 item 6), not its type as the API names it.
      await expect.poll(() => page.getByText('Возврат по платежу').count()).toBe(1);
      expect(await page.getByText('payment.refunded').count()).toBe(0);
      await accessible(page, 'payment detail');
      await shot(page, `${tag}-payment-detail`);

      // The deliveries of payment.completed and payment.refunded in the webhook's log.
      await deliverAllDue(h.t.runtime.deps);
      await nav(page, 'Вебхуки', width);
      await page.getByTestId('webhooks-table').getByRole('link').first().click();
      const log = page.getByTestId('deliveries-table');
      await expect.poll(() => log.getByText('Доставлена').count(), { timeout: 15_000 }).toBe(2);
      expect(await log.textContent()).toContain('Возврат по платежу');
      expect(await log.textContent()).toContain('HTTP 200');
      await accessible(page, 'webhook deliveries');
      await shot(page, `${tag}-webhook-deliveries`);
      // A new secret is confirmed first, saying how long the old one still verifies (a day unless chosen).
      await page.getByRole('button', { name: 'Новый секрет' }).click();
      const rotation = page.getByRole('dialog', { name: 'Создать новый секрет?' });
      expect(await rotation.textContent()).toContain('Доставки будут подписаны обоими секретами');
      await accessible(page, 'secret rotation');
      const [rotated] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/rotate-secret')),
        rotation.getByRole('button', { name: 'Создать секрет' }).click(),
      ]);
      expect(rotated.status()).toBe(200);
      await expect.poll(() => page.getByTestId('shown-once').count()).toBe(1);
      // The grace chosen in the dialog is the one the server keeps: the old secret verifies for a day.
      const hookId = new URL(page.url()).pathname.split('/').pop();
      const kept = await h.t.runtime.deps.db.query<{ hours: number }>(
        `SELECT extract(epoch FROM previous_secret_expires_at - now()) / 3600 AS hours FROM webhooks WHERE id = $1`,
        [Number(hookId)],
      );
      expect(Number(kept.rows[0].hours)).toBeGreaterThan(23);
      expect(Number(kept.rows[0].hours)).toBeLessThanOrEqual(24);

      await nav(page, 'API-ключи', width);
      await page.getByRole('heading', { name: 'API-ключи' }).waitFor();
      await accessible(page, 'api keys');
      await shot(page, `${tag}-api-keys`);
      expect(problems).toEqual([]);
      await context.close();
    },
    FIRST_DAY_MS,
  );
});
