// The messenger linked from the dashboard, then a withdrawal with its code (issue 41), in Chromium at 390
// and 1280 px, the bot's side driven through the local fake of the bot HTTP API: the withdrawal page sends a
// partner without a chat to the profile; the profile's one-time link (and its QR) is taken by the bot's
// `/start`; the card turns connected; the code of the withdrawal reaches the fake bot and confirms it. And
// the shop's consent to its partner: the owner's switch, the partner's entry in the log, switched off.
// axe-core on every page; screenshots in test-results/dashboard/.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { accessible, startHarness, SCREENSHOTS, type Harness } from './harness.ts';
import { callAs, idem, newMerchant, uniqueEmail, type Merchant } from '../helpers/factories.ts';
import { BANK_DETAILS } from '../helpers/actors.ts';
import { channels, fakeBotApi } from '../helpers/fakes.ts';
import { releaseDueCommissions } from '../../src/domain/partners/commissions.ts';
import { sendDueMessages } from '../../src/domain/channels/outbox.ts';
import { SECRET_HEADER } from '../../src/http/messenger/webhook.ts';

const SHOTS = `${SCREENSHOTS}/dashboard`;
const SECRET = 'browser-bot-secret';
let h: Harness;
let bot: Awaited<ReturnType<typeof fakeBotApi>>;
beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  bot = await fakeBotApi();
  h = await startHarness({
    channels: channels({
      messenger: { apiUrl: bot.url, botToken: '123456:BROWSER' },
      messengerWebhookSecret: SECRET,
      messengerLinkBase: 'https://messenger.example',
      messengerBotUsername: 'tolem_browser_bot',
    }),
  });
});
afterAll(async () => {
  await h?.close();
  await bot?.close();
});

const as = callAs(() => h.t.app);

const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

async function signedIn(
  m: Merchant,
  width: number,
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const s = await h.page(width);
  await s.page.goto(`${h.base}/dashboard/login`);
  await s.page.getByLabel('Эл. почта').fill(m.email);
  await s.page.getByLabel('Пароль').fill(m.password);
  await s.page.getByRole('button', { name: 'Войти' }).click();
  await s.page.getByRole('heading', { name: 'Обзор' }).waitFor();
  return s;
}

/** An admin, and an approved partner with 36,000 ₸ available and bank details, but no messenger chat. */
async function partnerToPay(width: number): Promise<{ partner: Merchant; partnerId: number }> {
  const admin = await newMerchant(h.t.app);
  await h.t.runtime.deps.db.query('UPDATE users SET is_admin = true WHERE email = $1', [admin.email]);
  const partner = await newMerchant(h.t.app);
  const reg = (await as(partner, 'POST', '/partner/auth/register', { company_name: `Chat ${width}` })).json();
  await as(admin, 'POST', `/admin/partners/${reg.id}/approve`);
  const link = (await as(partner, 'POST', '/partner/links')).json();
  const buyer = (
    await h.t.app.inject({
      method: 'POST',
      url: '/auth/register',
      payload: { name: 'Buyer', email: uniqueEmail('buyer'), password: 'a long password 1', referral_code: link.code },
    })
  ).json();
  for (let i = 0; i < 6; i++) {
    const q = await h.t.app.inject({
      method: 'POST',
      url: '/v1/subscription/pay',
      headers: { authorization: `Bearer ${buyer.access_token}`, ...idem() },
      payload: { plan: 'professional' },
    });
    await as(admin, 'POST', `/admin/sandbox/payments/${q.json().operation_id}/pay`);
  }
  // Moving time: the commissions' hold would run out days later.
  await h.t.runtime.deps.db.query('UPDATE commissions SET available_at = now() WHERE partner_id = $1', [reg.id]);
  await releaseDueCommissions(h.t.runtime.deps);
  expect((await as(partner, 'PATCH', '/partner/settings/bank', BANK_DETAILS)).statusCode).toBe(200);
  return { partner, partnerId: reg.id };
}

/** The bot platform delivering a user's message to the app's webhook, as it would. */
const botUpdate = (chat: number, text: string) =>
  h.t.app.inject({
    method: 'POST',
    url: '/messenger/webhook',
    headers: { [SECRET_HEADER]: SECRET },
    payload: {
      update_id: chat,
      message: { message_id: 1, chat: { id: chat, type: 'private' }, from: { id: chat }, text },
    },
  });

/** The texts the fake bot API was asked to send to `chat`, once the outbox has sent what is due. */
async function sentTo(chat: number): Promise<string[]> {
  await sendDueMessages(h.t.runtime.deps);
  return bot.calls.filter((c) => String(c.body.chat_id) === String(chat)).map((c) => String(c.body.text));
}

// Ten referred plan payments, then two browser flows: longer than the suite's 60 s on a loaded 2-core host.
const FLOW_MS = 150_000;

describe.each([390, 1280])('at %i px', (width) => {
  it(
    'a partner without a chat is sent to the profile, links the messenger, then withdraws with the code it gets',
    async () => {
      const { partner } = await partnerToPay(width);
      const chat = 7_000_000 + width;
      const p = await signedIn(partner, width);
      await p.page.goto(`${h.base}/dashboard/partner/withdrawals`);
      await p.page.getByRole('heading', { name: 'Выводы средств', level: 1 }).waitFor();
      const needs = p.page.getByTestId('needs-messenger');
      await needs.waitFor();
      await accessible(p.page, 'withdrawals without a messenger');
      await shot(p.page, `${width}-messenger-needed`);
      await needs.getByRole('link', { name: 'Подключить в профиле' }).click();

      await p.page.getByRole('heading', { name: 'Профиль', level: 1 }).waitFor();
      const card = p.page.getByTestId('messenger-card');
      await expect.poll(() => card.getByTestId('messenger-state').textContent()).toBe('Не подключён');
      await card.getByRole('button', { name: 'Подключить мессенджер' }).click();
      const open = card.getByRole('link', { name: 'Открыть бота в мессенджере' });
      const href = (await open.getAttribute('href'))!;
      expect(href).toMatch(/^https:\/\/messenger\.example\/tolem_browser_bot\?start=[A-Za-z0-9_-]{20,64}$/);
      await card.getByRole('img', { name: 'QR-код ссылки на бота' }).waitFor();
      expect(await card.textContent()).toMatch(/Ссылка одноразовая, действует до \d\d\.\d\d\.\d{4}/);
      await accessible(p.page, 'profile with the messenger link');
      await shot(p.page, `${width}-messenger-link`);

      // The user presses Start in the messenger: the bot platform sends /start <token> to the webhook.
      const bound = await botUpdate(chat, `/start ${new URL(href).searchParams.get('start')}`);
      expect(bound.json()).toEqual({ ok: true, result: 'bound' });
      await expect.poll(() => card.getByTestId('messenger-state').textContent(), { timeout: 15_000 }).toBe('Подключён');
      expect(await card.getByRole('link', { name: 'Открыть бота в мессенджере' }).count()).toBe(0);
      expect((await sentTo(chat)).some((text) => text.startsWith('Connected'))).toBe(true);
      await accessible(p.page, 'profile, messenger connected');
      await shot(p.page, `${width}-messenger-connected`);

      // The withdrawal: no more warning; its code arrives at the fake bot API and confirms it.
      await p.page.goto(`${h.base}/dashboard/partner/withdrawals`);
      await p.page.getByRole('heading', { name: 'Выводы средств', level: 1 }).waitFor();
      await p.page.waitForLoadState('networkidle');
      expect(await needs.count()).toBe(0);
      await p.page.getByLabel('Сумма вывода').fill('30000');
      await p.page.getByRole('button', { name: 'Вывести' }).click();
      const codeInput = p.page.getByLabel('Код из мессенджера');
      await codeInput.waitFor();
      const code = (await sentTo(chat))
        .map((text) => /\b(\d{6})\b/.exec(text)?.[1])
        .filter(Boolean)
        .pop();
      expect(code).toMatch(/^\d{6}$/);
      await codeInput.fill(code!);
      await p.page.getByRole('button', { name: 'Подтвердить' }).click();
      const row = p.page.getByTestId('withdrawals').getByTestId('row').filter({ hasText: '30 000' });
      await expect.poll(() => row.textContent()).toContain('В обработке');
      await accessible(p.page, 'withdrawal processing');
      await shot(p.page, `${width}-messenger-withdrawal`);
      expect(p.problems).toEqual([]);
      await p.context.close();
    },
    FLOW_MS,
  );

  it(
    "the shop's owner lets its partner in, sees the partner's entry, and shuts it out again",
    async () => {
      const admin = await newMerchant(h.t.app);
      await h.t.runtime.deps.db.query('UPDATE users SET is_admin = true WHERE email = $1', [admin.email]);
      const partner = await newMerchant(h.t.app);
      const reg = (await as(partner, 'POST', '/partner/auth/register', { company_name: `Access ${width}` })).json();
      await as(admin, 'POST', `/admin/partners/${reg.id}/approve`);
      const email = uniqueEmail('shop');
      const inv = (await as(partner, 'POST', '/partner/clients/invite', { email })).json();
      const joined = await h.t.app.inject({
        method: 'POST',
        url: '/auth/register',
        payload: { name: `Shop ${width}`, email, password: 'a long password 1', invite_token: inv.invite_token },
      });
      expect(joined.statusCode, joined.body).toBe(201);
      const clientId = (await as(partner, 'GET', '/partner/clients')).json().data[0].id;
      const enter = () => as(partner, 'POST', `/partner/clients/${clientId}/impersonate`);
      expect((await enter()).statusCode).toBe(403);

      const owner = { email, password: 'a long password 1' } as Merchant;
      const s = await signedIn(owner, width);
      await s.page.goto(`${h.base}/dashboard/team`);
      await s.page.getByRole('heading', { name: 'Команда', level: 1 }).waitFor();
      const card = s.page.getByTestId('partner-access');
      await card.waitFor();
      expect(await card.textContent()).toContain(`Ваш партнёр: Access ${width}.`);
      const allow = card.getByRole('switch', { name: `Разрешить «Access ${width}» входить в кабинет` });
      expect(await allow.isChecked()).toBe(false);
      await accessible(s.page, 'team with the partner access');
      await allow.click({ force: true });
      await s.page.getByText('Доступ партнёра включён').waitFor();
      await expect.poll(() => allow.isChecked()).toBe(true);

      const session = await enter();
      expect(session.statusCode, session.body).toBe(201);
      await s.page.reload();
      const log = s.page.getByTestId('partner-sessions');
      await log.waitFor();
      expect(await log.textContent()).toContain(partner.email);
      await accessible(s.page, 'team with the partner entries');
      await shot(s.page, `${width}-partner-access`);

      await allow.click({ force: true });
      await s.page.getByText('Доступ партнёра выключен. Завершено сеансов: 1').waitFor();
      const ended = await h.t.app.inject({
        method: 'GET',
        url: '/me',
        headers: { authorization: `Bearer ${session.json().access_token}` },
      });
      expect(ended.statusCode).toBe(401);
      expect(s.problems).toEqual([]);
      await s.context.close();
    },
    FLOW_MS,
  );
});
