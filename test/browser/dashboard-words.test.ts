// The dashboard speaks the user's language, not the API's (issue 41 item 6; decisions 30), in Chromium at 390
// and 1280 px: a refused sign-in and a lost connection in the dashboard's own Russian words (the code kept
// behind "details"); the plan by name, a count agreeing with its number («2 платежа»), event types in words;
// a notification worded from its type and params; the partner's ledger, commissions and clients in words;
// and in Kazakh, dates with Kazakh month names (Chromium's ICU has none: it would print `2026 M11 27`).
// axe-core on every page; screenshots in test-results/dashboard/.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { startHarness, SCREENSHOTS, type Harness } from './harness.ts';
import { idsOf, newAdmin, newMerchant, type Merchant } from '../helpers/factories.ts';
import { newPaidPayment, newPartnerWithBalance } from '../helpers/actors.ts';
import { noticeEndingPlans } from '../../src/domain/notifications/plan-notices.ts';

const SHOTS = `${SCREENSHOTS}/dashboard`;
const KK_MONTHS = 'қаңтар|ақпан|наурыз|сәуір|мамыр|маусым|шілде|тамыз|қыркүйек|қазан|қараша|желтоқсан';
const RU_DATE = /\d{1,2} (января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|ноября|декабря) \d{4} г\./;
// What the pages must not show: a value as the API sent it, or an English sentence of the server.
const RAW = /\b(trial|starter|professional|commission|release|referral|payment\.completed|withdrawal_\w+)\b/i;

let h: Harness;
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  h = await startHarness();
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

async function visit(page: Page, path: string, heading: string, shot: string): Promise<void> {
  await page.goto(`${h.base}/dashboard${path}`);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  await page.waitForLoadState('networkidle');
  await accessible(page, path);
  await page.screenshot({ path: `${SHOTS}/${shot}.png`, fullPage: true });
}

async function signIn(page: Page, m: Merchant, password = m.password): Promise<void> {
  await page.goto(`${h.base}/dashboard/login`);
  await page.getByLabel('Эл. почта').fill(m.email);
  await page.getByLabel('Пароль').fill(password);
  await page.getByRole('button', { name: 'Войти' }).click();
}

/** Problems the page logs for an answer the test caused on purpose, and nothing else, are cleared. */
function expectOnly(problems: string[], expected: RegExp): void {
  expect(problems.filter((p) => !expected.test(p))).toEqual([]);
  problems.length = 0;
}

/** The visible text of the main area (the page, not the navigation). */
const mainText = (page: Page) => page.locator('main').innerText();

describe.each([390, 1280])('the Russian and Kazakh dashboard at %i px', (width) => {
  it('errors, the plan, counts, events, notifications, the ledger in words; Kazakh dates in words', async () => {
    const m = await newMerchant(h.t.app);
    await newPaidPayment(h.t.app, m.testKey, 5000);
    await newPaidPayment(h.t.app, m.testKey, 7000);
    // Moving time: the trial ends in two days, so the worker's pass writes its notification.
    const { clientId } = await idsOf(h.t.runtime.deps.db, m);
    await h.t.runtime.deps.db.query(`UPDATE clients SET trial_ends_at = now() + interval '2 days' WHERE id = $1`, [
      clientId,
    ]);
    await noticeEndingPlans(h.t.runtime.deps.db, new Date());
    const { page, problems } = await h.page(width);
    const tag = `${width}-words`;

    // A refused sign-in: the dashboard's words, not the server's English; the code behind "details".
    await signIn(page, m, 'not the password');
    const refusal = page.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.getByTestId('error-words').innerText()).toBe('Неверная эл. почта или пароль.');
    expect(await refusal.getByTestId('error-details').isVisible()).toBe(false);
    await refusal.getByText('Подробности для поддержки').click();
    expect(await refusal.getByTestId('error-details').innerText()).toMatch(/^invalid_credentials · ID запроса: /);
    expect(await refusal.innerText()).not.toContain('wrong');
    expectOnly(problems, /status of 401/);
    await accessible(page, 'sign-in refused');
    await page.screenshot({ path: `${SHOTS}/${tag}-signin-refused.png`, fullPage: true });

    // The overview of the test data: the plan by name and its end in words; two payments, counted.
    await signIn(page, m);
    await page.getByRole('heading', { name: 'Обзор', level: 1 }).waitFor();
    await page.getByRole('switch', { name: 'Тестовые данные' }).check({ force: true });
    await page.getByTestId('test-banner').waitFor();
    await expect.poll(() => page.getByText('2 платежа').count()).toBe(2); // today and this month
    expect(await page.getByTestId('overview-plan').textContent()).toBe('Пробный');
    expect(await page.getByTestId('overview-plan-until').innerText()).toMatch(
      new RegExp(`^действует до ${RU_DATE.source}$`),
    );
    expect(await mainText(page)).not.toMatch(RAW);
    await accessible(page, 'overview');
    await page.screenshot({ path: `${SHOTS}/${tag}-overview.png`, fullPage: true });

    // A payment's events in words.
    await visit(page, '/payments', 'Платежи', `${tag}-payments`);
    await page.getByTestId('payments-table').getByRole('link').first().click();
    await page.getByText('Платёж оплачен').waitFor();
    expect(await mainText(page)).not.toMatch(RAW);
    await accessible(page, 'payment');
    await page.screenshot({ path: `${SHOTS}/${tag}-payment.png`, fullPage: true });

    // A lost connection (the SDK's own error, no answer at all), in words.
    await visit(page, '/team', 'Команда', `${tag}-team`);
    await page.route('**/me/team/invite', (r) => r.abort('connectionfailed'));
    await page.getByLabel('Эл. почта').fill('new.member@example.kz');
    await page.getByRole('button', { name: 'Пригласить' }).click();
    const offline = page.getByRole('alert', { name: 'Ошибка' });
    await offline.waitFor();
    expect(await offline.getByTestId('error-words').innerText()).toBe(
      'Нет связи с сервером. Проверьте интернет и попробуйте снова.',
    );
    expect(await page.getByTestId('team-table').innerText()).toContain('Владелец');
    expectOnly(problems, /ERR_CONNECTION_FAILED|ERR_FAILED/);
    await accessible(page, 'team, no connection');
    await page.screenshot({ path: `${SHOTS}/${tag}-team-offline.png`, fullPage: true });
    await page.unroute('**/me/team/invite');

    // The trial's notification, worded from its type and params.
    await visit(page, '/notifications', 'Уведомления', `${tag}-notifications`);
    const notice = page.getByTestId('notifications');
    expect(await notice.innerText()).toContain('Пробный период скоро закончится');
    expect(await notice.innerText()).toMatch(new RegExp(`Пробный период закончится ${RU_DATE.source}`));
    expect(await notice.innerText()).not.toMatch(/UTC|trial/);

    // In Kazakh: the same dates with Kazakh month names, never Intl's `2026 M11 27` fallback.
    await page.evaluate(() => localStorage.setItem('tolem.lang', 'kk'));
    await visit(page, '', 'Шолу', `${tag}-overview-kk`);
    const until = await page.getByTestId('overview-plan-until').innerText();
    expect(until).toMatch(new RegExp(`^\\d{1,2} (${KK_MONTHS}) \\d{4} дейін жарамды$`));
    expect(await page.getByTestId('overview-plan').textContent()).toBe('Сынақ');
    await expect.poll(() => page.getByText('2 төлем').count()).toBe(2);
    expect(await mainText(page)).not.toMatch(/\bM\d{1,2}\b/);
    await visit(page, '/notifications', 'Хабарламалар', `${tag}-notifications-kk`);
    expect(await notice.innerText()).toContain('Сынақ кезеңі жақында аяқталады');
    expect(await notice.innerText()).toMatch(new RegExp(`Сынақ кезеңі \\d{1,2} (${KK_MONTHS}) \\d{4} күні аяқталады`));
    expect(problems).toEqual([]);
    await page.context().close();

    // A partner's money: the ledger's entries, the commissions' plan and status, its client's origin.
    const admin = await newAdmin(h.t.app, h.t.runtime.deps.db);
    const partner = await newPartnerWithBalance(h.t, admin, 1, { companyName: `Words ${width}` });
    const p = await h.page(width);
    await signIn(p.page, partner);
    await p.page.getByRole('heading', { name: 'Обзор', level: 1 }).waitFor();
    await visit(p.page, '/partner/money', 'Баланс и комиссии', `${tag}-partner-money`);
    const money = await mainText(p.page);
    for (const w of ['Начислена комиссия', 'Комиссия стала доступна', 'Профессиональный', 'Доступна']) {
      expect(money.toLowerCase()).toContain(w.toLowerCase()); // badges are upper-cased by CSS
    }
    expect(money).not.toMatch(RAW);
    await visit(p.page, '/partner/clients', 'Клиенты', `${tag}-partner-clients`);
    expect(await p.page.getByTestId('partner-clients').innerText()).toContain('Реферальная ссылка');
    expect(await mainText(p.page)).not.toMatch(RAW);
    expect(p.problems).toEqual([]);
    await p.page.context().close();
  }, 150_000);
});
