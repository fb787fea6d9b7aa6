// The first screens guide (issue 41) in Chromium at 390 and 1280 px, axe-core on every page: the overview's
// first steps, checked off from what the account really has; a menu that shows each role only what it may
// use; invitation pages that name the shop and the role, or the partner; a partner told it is approved;
// the admin's counts of what waits and the confirmation before disabling a client (never its own, never the
// platform's). Screenshots in test-results/dashboard/.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { accessible, startHarness, SCREENSHOTS, type Harness } from './harness.ts';
import { callAs, idsOf, newMerchant, uniqueEmail } from '../helpers/factories.ts';
import { newMember, newPaidPayment, newWebhook } from '../helpers/actors.ts';

const SHOTS = `${SCREENSHOTS}/dashboard`;
let h: Harness;
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  h = await startHarness();
});
afterAll(() => h?.close());

const as = callAs(() => h.t.app);

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** A browser context signed in through the dashboard's own sign-in page. */
async function signedIn(
  m: { email: string; password: string },
  width: number,
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const s = await h.page(width);
  await s.page.goto(`${h.base}/dashboard/login`);
  await s.page.getByLabel('Эл. почта').fill(m.email);
  await s.page.getByLabel('Пароль').fill(m.password);
  await s.page.getByRole('button', { name: 'Войти' }).click();
  await s.page.getByRole('heading', { name: 'Обзор' }).waitFor();
  await s.page.waitForLoadState('networkidle');
  return s;
}

/** The navigation's link labels (opened first on a phone, where it is folded). */
async function menu(page: Page, width: number): Promise<string[]> {
  if (width < 768) await page.getByRole('button', { name: 'Меню' }).click();
  const nav = page.getByRole('navigation');
  await nav.getByRole('link').first().waitFor();
  const labels = (await nav.getByRole('link').allInnerTexts()).map((s) => s.trim());
  if (width < 768) await page.getByRole('button', { name: 'Меню' }).click();
  return labels;
}

// Several sign-ins and pages per test: longer than the suite's 60 s on a loaded 2-core host.
const PAGES_MS = 120_000;
// Two browsers (the partner, the admin) and a dozen pages.
const APPROVAL_MS = 150_000;

const step = (page: Page, id: string) => page.getByTestId(`step-${id}`);
/** The harness serves on its own port; links the API makes name DASHBOARD_URL's. */
const local = (url: string) => `${h.base}${new URL(url).pathname}${new URL(url).search}`;

describe.each([390, 1280])('at %i px', (width) => {
  it(
    'the first steps are checked off from what the account has, and go away when all are done',
    async () => {
      const m = await newMerchant(h.t.app);
      const s = await signedIn(m, width);
      const list = s.page.getByTestId('checklist');
      await list.waitFor();
      for (const id of ['payment', 'link', 'webhook', 'provider'])
        expect(await step(s.page, id).getAttribute('data-done'), id).toBe('no');
      expect(await list.textContent()).toContain('Сделано 0 из 4');
      await accessible(s.page, 'overview with the first steps');
      await shot(s.page, `${width}-guide-overview`);

      // The test payment's step switches to test data and opens the links, where a test payment starts.
      await list.getByRole('button', { name: 'К тестовой оплате' }).click();
      await s.page.getByRole('heading', { name: 'Платёжные ссылки', level: 1 }).waitFor();
      await s.page.getByTestId('test-banner').waitFor();

      // What the account does elsewhere (its API, its other tabs) checks the steps off: nothing is stored.
      await newPaidPayment(h.t.app, m.testKey);
      await newWebhook(h.t.app, m);
      await s.page.goto(`${h.base}/dashboard/`);
      await expect.poll(() => step(s.page, 'payment').getAttribute('data-done')).toBe('yes');
      expect(await step(s.page, 'webhook').getAttribute('data-done')).toBe('yes');
      expect(await step(s.page, 'link').getAttribute('data-done')).toBe('no');
      expect(await list.textContent()).toContain('Сделано 2 из 4');
      await accessible(s.page, 'overview, two steps done');
      await shot(s.page, `${width}-guide-overview-half`);

      const link = await h.t.app.inject({
        method: 'POST',
        url: '/v2/payment-links',
        headers: { 'x-api-key': m.testKey },
        payload: { amount: 5000, description: 'Заказ 1' },
      });
      expect(link.statusCode, link.body).toBe(201);
      // The provider connected in live mode (the sandbox's code), as the provider page would.
      expect((await as(m, 'POST', '/onboarding/provider/start', { phone: '+77015550142' })).statusCode).toBe(200);
      expect((await as(m, 'POST', '/onboarding/provider/verify', { code: '000000' })).statusCode).toBe(200);
      await s.page.reload();
      await s.page.getByRole('heading', { name: 'Обзор' }).waitFor();
      await s.page.waitForLoadState('networkidle');
      expect(await s.page.getByTestId('checklist').count()).toBe(0);
      expect(s.problems).toEqual([]);
      await s.context.close();
    },
    PAGES_MS,
  );

  it(
    'the menu shows each role only what it may use; an accountant has no API keys and no first steps',
    async () => {
      const owner = await newMerchant(h.t.app);
      const o = await signedIn(owner, width);
      const ownerMenu = await menu(o.page, width);
      expect(ownerMenu).toEqual(expect.arrayContaining(['API-ключи', 'Команда', 'Брендинг', 'Журнал запросов']));
      await o.context.close();

      const accountant = await newMember(h.t.app, owner, 'accountant');
      const a = await signedIn(accountant, width);
      const seen = await menu(a.page, width);
      expect(seen).toEqual(expect.arrayContaining(['Обзор', 'Платежи', 'Журнал запросов', 'Профиль']));
      for (const hidden of ['API-ключи', 'Команда', 'Брендинг', 'Подключение провайдера', 'Тариф'])
        expect(seen, hidden).not.toContain(hidden);
      // Nothing of the first steps is the accountant's to do.
      expect(await a.page.getByTestId('checklist').count()).toBe(0);
      await accessible(a.page, "an accountant's overview");
      await shot(a.page, `${width}-guide-accountant`);
      await a.context.close();

      const viewer = await newMember(h.t.app, owner, 'viewer');
      const v = await signedIn(viewer, width);
      const viewerMenu = await menu(v.page, width);
      expect(viewerMenu).toContain('Платежи');
      expect(viewerMenu).not.toContain('Журнал запросов');
      expect(v.problems).toEqual([]);
      await v.context.close();
    },
    PAGES_MS,
  );

  it(
    'invitation pages name the shop and the role, or the partner; a spent one says so',
    async () => {
      const owner = await newMerchant(h.t.app, { name: `Кофейня ${width}` });
      const email = uniqueEmail('acc');
      const inv = (await as(owner, 'POST', '/me/team/invite', { email, role: 'accountant' })).json();
      const s = await h.page(width);
      await s.page.goto(local(inv.invite_url));
      const details = s.page.getByTestId('invite-details');
      await details.waitFor();
      expect(await details.textContent()).toBe(
        `Магазин «Кофейня ${width}» приглашает вас в команду. Ваша роль: бухгалтер.`,
      );
      expect(await s.page.getByLabel('Эл. почта').inputValue()).toBe(email);
      await accessible(s.page, 'team invitation');
      await shot(s.page, `${width}-guide-invite-team`);

      // A partner's invitation names the partner.
      const admin = await newMerchant(h.t.app);
      await h.t.runtime.deps.db.query('UPDATE users SET is_admin = true WHERE email = $1', [admin.email]);
      const partner = await newMerchant(h.t.app);
      const reg = (await as(partner, 'POST', '/partner/auth/register', { company_name: `Agency ${width}` })).json();
      await as(admin, 'POST', `/admin/partners/${reg.id}/approve`);
      const pinv = (await as(partner, 'POST', '/partner/clients/invite', { email: uniqueEmail('shop') })).json();
      await s.page.goto(local(pinv.invite_url));
      await details.waitFor();
      expect(await details.textContent()).toBe(
        `«Agency ${width}» приглашает ваш магазин принимать оплату через Tolem.`,
      );
      await accessible(s.page, "partner's invitation");

      // Revoked: the team invitation is refused in the dashboard's own words before the form is filled.
      await as(owner, 'DELETE', `/me/team/${inv.id}`);
      await s.page.goto(local(inv.invite_url));
      await s.page.getByRole('alert').waitFor();
      expect(await s.page.getByRole('alert').textContent()).toContain('Приглашение недействительно');
      await accessible(s.page, 'spent invitation');
      expect(s.problems.filter((x) => !/status of 400/.test(x))).toEqual([]);
      await s.context.close();
    },
    PAGES_MS,
  );

  it(
    'the partner is told it is approved; the admin sees what waits and confirms before disabling',
    async () => {
      const ops = await newMerchant(h.t.app);
      await h.t.runtime.deps.db.query('UPDATE users SET is_admin = true WHERE email = $1', [ops.email]);
      const partner = await newMerchant(h.t.app);
      const p = await signedIn(partner, width);
      await p.page.goto(`${h.base}/dashboard/partner`);
      await p.page.getByLabel('Название компании').fill(`Told ${width}`);
      await p.page.getByRole('button', { name: 'Стать партнёром' }).click();
      await p.page.getByText('Заявка на рассмотрении').waitFor();

      // The admin's menu counts the application; approving it in the page takes the count down.
      const a = await signedIn(ops, width);
      await a.page.goto(`${h.base}/dashboard/admin`);
      await a.page.getByRole('heading', { name: 'Партнёры на одобрение', level: 1 }).waitFor();
      const pending = a.page.getByTestId('count-partners_pending');
      if (width < 768) await a.page.getByRole('button', { name: 'Меню' }).click();
      await pending.waitFor();
      const before = Number((await pending.textContent())!.replace(/\D/g, ''));
      expect(before).toBeGreaterThan(0);
      await accessible(a.page, 'admin menu with counts');
      await shot(a.page, `${width}-guide-admin-counts`);
      if (width < 768) await a.page.getByRole('button', { name: 'Меню' }).click();
      await a.page
        .getByTestId('admin-partners')
        .getByTestId('row')
        .filter({ hasText: `Told ${width}` })
        .getByRole('button', { name: 'Одобрить' })
        .click();
      await expect
        .poll(async () => ((await pending.count()) ? Number((await pending.textContent())!.replace(/\D/g, '')) : 0))
        .toBe(before - 1);

      // The partner's home says so, and the notification waits in the cabinet.
      await p.page.reload();
      await p.page.getByTestId('partner-approved').waitFor();
      expect(await p.page.getByTestId('partner-approved').textContent()).toContain('Заявка одобрена');
      await accessible(p.page, 'partner approved');
      await shot(p.page, `${width}-guide-partner-approved`);
      await p.page.goto(`${h.base}/dashboard/notifications`);
      await p.page.getByText('Партнёрская программа: заявка одобрена').first().waitFor();
      await p.context.close();

      // Disabling asks first, naming the client; its own client and the platform's are not offered.
      const victim = await newMerchant(h.t.app, { name: `Victim ${width}` });
      await a.page.goto(`${h.base}/dashboard/admin/clients`);
      await a.page.getByRole('heading', { name: 'Клиенты', level: 1 }).waitFor();
      await a.page.getByLabel('Поиск').fill(victim.email);
      const row = a.page.getByTestId('admin-clients').getByTestId('row').filter({ hasText: victim.email });
      const patches: string[] = [];
      a.page.on('request', (r) => {
        if (r.method() === 'PATCH' && r.url().includes('/admin/clients/')) patches.push(r.url());
      });
      await row.getByRole('button', { name: 'Отключить' }).click();
      const dialog = a.page.getByRole('dialog', { name: 'Отключить клиента?' });
      expect(await dialog.getByTestId('disable-what').textContent()).toContain(`«Victim ${width}» (${victim.email})`);
      await accessible(a.page, 'disable confirmation');
      await shot(a.page, `${width}-guide-admin-disable`);
      await dialog.getByRole('button', { name: 'Отмена' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(patches).toEqual([]);
      await row.getByRole('button', { name: 'Отключить' }).click();
      await dialog.getByRole('button', { name: `Отключить «Victim ${width}»` }).click();
      await row.getByRole('button', { name: 'Включить' }).waitFor();
      expect(patches).toHaveLength(1);

      const own = await idsOf(h.t.runtime.deps.db, ops);
      await a.page.getByLabel('Поиск').fill(String(own.clientId));
      const ownRow = a.page.getByTestId('admin-clients').getByTestId('row').filter({ hasText: ops.email });
      await expect.poll(() => ownRow.textContent()).toContain('Ваш клиент');
      expect(await ownRow.getByRole('button', { name: 'Отключить' }).count()).toBe(0);
      await a.page.getByLabel('Поиск').fill('platform@tolem.invalid');
      const platformRow = a.page
        .getByTestId('admin-clients')
        .getByTestId('row')
        .filter({ hasText: 'platform@tolem.invalid' });
      await expect.poll(() => platformRow.textContent()).toContain('Клиент платформы');
      await accessible(a.page, 'admin clients');
      expect(a.problems).toEqual([]);
      await a.context.close();
    },
    APPROVAL_MS,
  );
});
