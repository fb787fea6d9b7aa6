// The messenger binding (decisions 17, 18) against a fake bot HTTP API on 127.0.0.1: the cabinet's
// one-time link, the bot's `/start <token>` update (authenticated by the secret-token header) binding
// the chat, the confirmation and a later message reaching that chat, `/stop`, and the refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, type Merchant, newAdmin, newMerchant } from '../helpers/factories.ts';
import { channels, fakeBotApi } from '../helpers/fakes.ts';
import { sendDueMessages } from '../../src/domain/channels/outbox.ts';
import { SECRET_HEADER } from '../../src/http/messenger/webhook.ts';

const SECRET = 'bot-webhook-secret-123';
let t: TestApp;
let bot: Awaited<ReturnType<typeof fakeBotApi>>;
let admin: Merchant;
beforeAll(async () => {
  bot = await fakeBotApi();
  t = await buildTestApp({
    channels: channels({
      messenger: { apiUrl: bot.url, botToken: '123456:TEST' },
      messengerWebhookSecret: SECRET,
      messengerLinkBase: 'https://messenger.example',
      messengerBotUsername: 'tolem_test_bot',
    }),
  });
  admin = await newAdmin(t.app, t.runtime.deps.db);
});
afterAll(async () => {
  await t?.close();
  await bot?.close();
});

let chatSeq = 5000;
/** `secret` null: no header at all. */
const update = (text: string, chat: number, secret: string | null = SECRET) =>
  t.app.inject({
    method: 'POST',
    url: '/messenger/webhook',
    headers: secret === null ? {} : { [SECRET_HEADER]: secret },
    payload: {
      update_id: chat,
      message: { message_id: 1, chat: { id: chat, type: 'private' }, from: { id: chat }, text },
    },
  });

async function link(m: Merchant): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/me/messenger-link', headers: bearer(m) });
  expect(res.statusCode, res.body).toBe(200);
  const { url, expires_at } = res.json();
  expect(url).toMatch(/^https:\/\/messenger\.example\/tolem_test_bot\?start=[A-Za-z0-9_-]{20,64}$/);
  expect(new Date(expires_at).getTime() - Date.now()).toBeGreaterThan(14 * 60_000);
  return new URL(url).searchParams.get('start')!;
}

describe('binding a chat', () => {
  it('/start binds the chat, the bot API receives the confirmation and later messages, /stop unbinds', async () => {
    const m = await newMerchant(t.app);
    const chat = ++chatSeq;
    const token = await link(m);
    const res = await update(`/start ${token}`, chat);
    expect(res.json()).toEqual({ ok: true, result: 'bound' });
    expect((await t.app.inject({ method: 'GET', url: '/me', headers: bearer(m) })).json().messenger_linked).toBe(true);

    await sendDueMessages(t.runtime.deps);
    const confirm = bot.calls.find((c) => String(c.body.chat_id) === String(chat));
    expect(confirm?.path).toBe('/bot123456:TEST/sendMessage');
    expect(confirm?.body.text).toContain('Connected');

    // A later message to that chat: support answers the user's ticket.
    const ticket = (
      await t.app.inject({
        method: 'POST',
        url: '/me/tickets',
        headers: bearer(m),
        payload: { subject: 'Hi', body: 'Help' },
      })
    ).json();
    await t.app.inject({
      method: 'POST',
      url: `/admin/tickets/${ticket.id}/messages`,
      headers: bearer(admin),
      payload: { body: 'Answer via messenger' },
    });
    await sendDueMessages(t.runtime.deps);
    expect(
      bot.calls.some((c) => String(c.body.chat_id) === String(chat) && c.body.text?.includes('Answer via messenger')),
    ).toBe(true);

    expect((await update('/stop', chat)).json().result).toBe('unbound');
    expect((await t.app.inject({ method: 'GET', url: '/me', headers: bearer(m) })).json().messenger_linked).toBe(false);
  });

  it('a link works once, a newer link replaces the older, an expired one is refused', async () => {
    const m = await newMerchant(t.app);
    const first = await link(m);
    const second = await link(m);
    expect((await update(`/start ${first}`, ++chatSeq)).json().result).toBe('refused');
    expect((await update(`/start ${second}`, ++chatSeq)).json().result).toBe('bound');
    expect((await update(`/start ${second}`, ++chatSeq)).json().result).toBe('refused');
    const third = await link(m);
    await t.runtime.deps.db.query(
      `UPDATE magic_tokens SET expires_at = now() - interval '1 second' ` +
        `WHERE purpose = 'messenger_link' AND used_at IS NULL`,
    );
    expect((await update(`/start ${third}`, ++chatSeq)).json().result).toBe('refused');
  });

  it('a wrong or missing secret token is 401 and binds nothing; unknown updates are 200 and ignored', async () => {
    const m = await newMerchant(t.app);
    const token = await link(m);
    for (const secret of ['wrong', null, '']) {
      const res = await update(`/start ${token}`, ++chatSeq, secret);
      expect(res.statusCode, String(secret)).toBe(401);
      expect(errorOf(res).code).toBe('invalid_token');
    }
    expect((await t.app.inject({ method: 'GET', url: '/me', headers: bearer(m) })).json().messenger_linked).toBe(false);
    const other = await t.app.inject({
      method: 'POST',
      url: '/messenger/webhook',
      headers: { [SECRET_HEADER]: SECRET },
      payload: { update_id: 1, edited_message: { text: 'x' } },
    });
    expect(other.json()).toEqual({ ok: true, result: 'ignored' });
    expect((await update('hello', ++chatSeq)).json().result).toBe('ignored');
    expect((await update('/stop', ++chatSeq)).json().result).toBe('ignored');
    // And the binding still works after all that.
    expect((await update(`/start ${token}`, ++chatSeq)).json().result).toBe('bound');
  });

  it('with no MESSENGER_WEBHOOK_SECRET configured every update is refused', async () => {
    const bare = await buildTestApp();
    try {
      const res = await bare.app.inject({
        method: 'POST',
        url: '/messenger/webhook',
        headers: { [SECRET_HEADER]: 'anything' },
        payload: { message: { chat: { id: 1 }, text: '/stop' } },
      });
      expect(res.statusCode).toBe(401);
    } finally {
      await bare.close();
    }
  });
});
