// The password pages in Chromium at 390 px (decisions 30): "Forgot password?" on the sign-in page -> the
// e-mail -> the confirmation; the e-mailed link -> the new password twice (a mismatch is caught before it
// is sent) -> sign-in with it; the profile page's change; a spent link's error. axe-core on each page,
// screenshots in test-results/dashboard/.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { startHarness, SCREENSHOTS, type Harness } from './harness.ts';
import { newMerchant } from '../helpers/factories.ts';

const SHOTS = `${SCREENSHOTS}/dashboard`;
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

/** The link of the last reset e-mail to `email`, as the driver sends it, on the harness's own port. */
async function resetLink(email: string): Promise<string> {
  const r = await h.t.runtime.deps.db.query<{ body_sealed: string }>(
    `SELECT body_sealed FROM outbox_messages WHERE purpose = 'password_reset' AND recipient = $1 ORDER BY id DESC`,
    [email],
  );
  const url = new URL(/https?:\/\/\S+/.exec(h.t.runtime.deps.secrets.sealer.open(r.rows[0].body_sealed))![0]);
  return `${h.base}${url.pathname}${url.search}`;
}

const login = (email: string, password: string) =>
  h.t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });

describe('password pages at 390 px', () => {
  it('forgot -> e-mailed link -> new password -> sign in -> change it on the profile page', async () => {
    const m = await newMerchant(h.t.app);
    const { page, problems } = await h.page(390);

    await page.goto(`${h.base}/dashboard/login`);
    await page.getByRole('link', { name: 'Забыли пароль?' }).click();
    await page.getByRole('heading', { name: 'Восстановление пароля', level: 1 }).waitFor();
    await accessible(page, 'forgot');
    await page.getByLabel('Эл. почта').fill(m.email);
    await page.getByRole('button', { name: 'Отправить ссылку' }).click();
    await page.getByTestId('reset-sent').waitFor();
    expect(await page.getByTestId('reset-sent').textContent()).toContain(m.email);
    await accessible(page, 'forgot sent');
    await page.screenshot({ path: `${SHOTS}/390-password-forgot-sent.png`, fullPage: true });

    const link = await resetLink(m.email);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Новый пароль', level: 1 }).waitFor();
    await accessible(page, 'reset');
    await page.getByLabel(/^Новый пароль/).fill('a brand new passphrase');
    await page.getByLabel(/^Повторите новый пароль/).fill('a brand new passphrasE');
    await page.getByRole('button', { name: 'Сохранить пароль' }).click();
    await page.getByText('Пароли не совпадают').waitFor();
    await accessible(page, 'reset mismatch');
    await page.screenshot({ path: `${SHOTS}/390-password-reset-mismatch.png`, fullPage: true });
    await page.getByLabel(/^Повторите новый пароль/).fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Сохранить пароль' }).click();
    await page.getByTestId('reset-done').waitFor();
    await accessible(page, 'reset done');

    await page.getByRole('link', { name: 'Войти' }).click();
    await page.getByLabel('Эл. почта').fill(m.email);
    await page.getByLabel('Пароль').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Войти' }).click();
    await page.getByRole('heading', { name: 'Обзор' }).waitFor();

    await page.getByRole('button', { name: 'Меню' }).click();
    await page.getByRole('navigation').getByRole('link', { name: 'Профиль', exact: true }).click();
    await page.getByRole('heading', { name: 'Профиль', level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    await accessible(page, 'profile');
    await page.screenshot({ path: `${SHOTS}/390-profile.png`, fullPage: true });
    await page.getByLabel(/^Текущий пароль/).fill('a brand new passphrase');
    await page.getByLabel(/^Новый пароль/).fill('the third passphrase');
    await page.getByLabel(/^Повторите новый пароль/).fill('the third passphrase');
    await page.getByTestId('change-password').click();
    await page.getByText('Пароль изменён').waitFor();
    expect((await login(m.email, 'the third passphrase')).statusCode).toBe(200);
    // The session that changed the password goes on with the pair it got.
    await page.reload();
    await page.getByRole('heading', { name: 'Профиль', level: 1 }).waitFor();
    expect(problems).toEqual([]);

    // The spent link: the API's refusal, in the dashboard's own words (the code stays for support).
    await page.goto(link);
    await page.getByLabel(/^Новый пароль/).fill('yet another passphrase');
    await page.getByLabel(/^Повторите новый пароль/).fill('yet another passphrase');
    await page.getByRole('button', { name: 'Сохранить пароль' }).click();
    await page.getByRole('alert').waitFor();
    const refusal = await page.getByRole('alert').textContent();
    expect(refusal).toContain('Ссылка для сброса пароля недействительна или уже использована');
    expect(refusal).toContain('reset_token_invalid');
    expect(refusal).not.toContain('not valid');
    await accessible(page, 'reset spent');
  });
});
