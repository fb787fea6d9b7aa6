// The staff alerts on the profile page in Chromium at 390 px (decisions 28): the owner sees its role's
// defaults, turns the paid alert and the daily summary on in test mode, picks the hour, and the API has
// exactly that for that mode alone; a viewer sees its own (all off); the alert's link opens the test
// payment in test mode; axe-core on the page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { accessible, shot, startHarness, type Harness } from './harness.ts';
import { newMember, newPaidPayment } from '../helpers/actors.ts';
import { api } from '../helpers/api.ts';
import { newMerchant, type Merchant } from '../helpers/factories.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

async function signIn(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.goto(`${h.base}/dashboard/login`);
  await page.getByLabel('Эл. почта').fill(who.email);
  await page.getByLabel('Пароль').fill(who.password);
  await page.getByRole('button', { name: 'Войти' }).click();
  await page.waitForURL(/\/dashboard\/?$/);
}

const settingsOf = async (who: Merchant | { access: string }, mode: 'live' | 'test') =>
  (await api(h.t.app, who).get(`/me/notification-settings?mode=${mode}`)).body;

describe('staff alerts on the profile page at 390 px', () => {
  it('the owner turns alerts on in test mode; the live mode and a viewer keep theirs', async () => {
    const m = await newMerchant(h.t.app);
    const viewer = await newMember(h.t.app, m, 'viewer');
    const { page, problems } = await h.page(390);
    await signIn(page, m);
    await page.goto(`${h.base}/dashboard/profile`);
    const card = page.getByTestId('alerts-card');
    await card.getByRole('heading', { name: 'Оповещения' }).waitFor();
    await card.getByTestId('alerts-live').waitFor();
    // The owner's defaults: a failed receipt by e-mail, nothing else.
    expect(await card.getByRole('switch', { name: 'Чек не выдан' }).isChecked()).toBe(true);
    expect(await card.getByRole('switch', { name: 'Оплата получена' }).isChecked()).toBe(false);
    await accessible(page, 'profile alerts');

    await card.getByText('Тестовый').click();
    await card.getByTestId('alerts-test').waitFor();
    await card.getByRole('switch', { name: 'Оплата получена' }).click();
    await expect.poll(async () => (await settingsOf(m, 'test')).payment_paid).toBe(true);
    await card.getByRole('switch', { name: 'Итоги дня' }).click();
    await expect.poll(async () => (await settingsOf(m, 'test')).daily_summary).toBe(true);
    await card.getByLabel('Час итогов (время Алматы)').selectOption('20');
    await expect.poll(async () => (await settingsOf(m, 'test')).summary_hour).toBe(20);
    await accessible(page, 'profile alerts, test mode');
    await shot(page, 'dashboard/390-profile-alerts');

    // The alert of a test payment links to its page in test mode, whatever mode this browser was in.
    const { operation_id } = await newPaidPayment(h.t.app, m.testKey, 4321);
    const r = await h.t.runtime.deps.db.query<{ body: string }>(
      `SELECT body FROM outbox_messages WHERE purpose = 'alert_payment_paid' AND recipient = $1`,
      [m.email],
    );
    const link = new URL(/https?:\/\/\S+/.exec(r.rows[0].body)![0]);
    expect(link.pathname).toBe(`/dashboard/payments/${operation_id}`);
    await page.evaluate(() => localStorage.setItem('tolem.mode', 'live'));
    await page.goto(`${h.base}${link.pathname}${link.search}`);
    await page
      .getByText(/4\D?321/)
      .first()
      .waitFor();

    expect(await settingsOf(m, 'live')).toMatchObject({ payment_paid: false, daily_summary: false });
    expect(await settingsOf(viewer, 'test')).toMatchObject({ payment_paid: false, receipt_failed: false });
    expect(problems).toEqual([]);
  });
});
