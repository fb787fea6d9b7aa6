// The outbox (decisions 18): each channel's real driver against a local fake; a failing channel delays
// its own message (back-off) and fails nothing else; a permanent refusal or the last attempt gives up.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, newMerchant, uniqueEmail } from '../helpers/factories.ts';
import { channels, fakeBotApi, smtpReceiver } from '../helpers/fakes.ts';
import { backoffSeconds, enqueueMessage, MAX_ATTEMPTS, sendDueMessages } from '../../src/domain/channels/outbox.ts';
import { pruneOutbox } from '../../src/jobs/retention.ts';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof smtpReceiver>>;
let bot: Awaited<ReturnType<typeof fakeBotApi>>;
let sms: Server;
let smsStatus = 500;
const smsReceived: unknown[] = [];

beforeAll(async () => {
  smtp = await smtpReceiver();
  bot = await fakeBotApi();
  sms = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      smsReceived.push(JSON.parse(data));
      res.writeHead(smsStatus).end();
    });
  });
  await new Promise<void>((r) => sms.listen(0, '127.0.0.1', r));
  t = await buildTestApp({
    channels: channels({ smtpUrl: smtp.url, messenger: { apiUrl: bot.url, botToken: '1:T' }, smsUrl: `http://127.0.0.1:${(sms.address() as AddressInfo).port}/send` }),
  });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  await bot?.close();
  await new Promise((r) => sms?.close(r));
});

const row = async (id: number) =>
  (await t.runtime.deps.db.query<{ status: string; attempts: number; driver: string; last_error: string | null; wait: number }>(
    `SELECT status, attempts, driver, last_error, extract(epoch FROM next_attempt_at - now())::float AS wait FROM outbox_messages WHERE id = $1`, [id])).rows[0];

describe('the outbox job', () => {
  it('a failing SMS gateway delays its message; the e-mail and the messenger message beside it are sent', async () => {
    const db = t.runtime.deps.db;
    const email = uniqueEmail('mail');
    const smsId = await enqueueMessage(db, { channel: 'sms', recipient: '+77010000001', body: 'code 123456', purpose: 'test' });
    const mailId = await enqueueMessage(db, { channel: 'email', recipient: email, subject: 'Hello', body: 'Body text', purpose: 'test' });
    const botId = await enqueueMessage(db, { channel: 'messenger', recipient: '777', body: 'Hi chat', purpose: 'test' });
    smsStatus = 500;
    await sendDueMessages(t.runtime.deps);
    expect(await row(mailId)).toMatchObject({ status: 'sent', driver: 'smtp', attempts: 1 });
    expect(await row(botId)).toMatchObject({ status: 'sent', driver: 'bot_api' });
    const failed = await row(smsId);
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, driver: 'http_gateway', last_error: 'sms gateway: 500' });
    expect(failed.wait).toBeGreaterThan(backoffSeconds(1) - 2);
    expect(smtp.mails.some((m) => m.to.includes(email))).toBe(true);
    expect(bot.calls.some((c) => c.body.text === 'Hi chat' && String(c.body.chat_id) === '777')).toBe(true);

    // Not due yet: a second pass leaves it alone. Once due and the gateway is back, it is sent.
    await sendDueMessages(t.runtime.deps);
    expect((await row(smsId)).attempts).toBe(1);
    await db.query('UPDATE outbox_messages SET next_attempt_at = now() WHERE id = $1', [smsId]);
    smsStatus = 200;
    await sendDueMessages(t.runtime.deps);
    expect(await row(smsId)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(smsReceived).toContainEqual({ to: '+77010000001', text: 'code 123456' });
  });

  it('a permanent refusal (the bot is blocked: 403) is not retried; the last attempt gives up', async () => {
    const db = t.runtime.deps.db;
    bot.answer(403, { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' });
    const blocked = await enqueueMessage(db, { channel: 'messenger', recipient: '778', body: 'x', purpose: 'test' });
    await sendDueMessages(t.runtime.deps);
    expect(await row(blocked)).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await row(blocked)).last_error).toContain('403');
    bot.answer(200, { ok: true, result: {} });

    smsStatus = 503;
    const tired = await enqueueMessage(db, { channel: 'sms', recipient: '+77010000002', body: 'y', purpose: 'test' });
    await db.query('UPDATE outbox_messages SET attempts = $2 WHERE id = $1', [tired, MAX_ATTEMPTS - 1]);
    await sendDueMessages(t.runtime.deps);
    expect(await row(tired)).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
  });

  it('a request that enqueues a message never waits for the channel', async () => {
    // The SMTP receiver is closed: the invite still answers 201 at once, and its e-mail waits in the outbox.
    const closed = await buildTestApp({ channels: channels({ smtpUrl: 'smtp://127.0.0.1:9' }) });
    try {
      const m = await newMerchant(closed.app);
      const res = await closed.app.inject({ method: 'POST', url: '/me/team/invite', headers: bearer(m), payload: { email: uniqueEmail('inv'), role: 'viewer' } });
      expect(res.statusCode).toBe(201);
      await sendDueMessages(closed.runtime.deps);
      const r = (await closed.runtime.deps.db.query<{ status: string; last_error: string }>(
        `SELECT status, last_error FROM outbox_messages WHERE purpose = 'team_invite' ORDER BY id DESC LIMIT 1`)).rows[0];
      expect(r.status).toBe('pending');
      expect(r.last_error).toMatch(/smtp/);
    } finally {
      await closed.close();
    }
  });

  it('the operator sees the messages, newest first, filtered by channel and status', async () => {
    const admin = await newMerchant(t.app);
    await t.runtime.deps.db.query('UPDATE users SET is_admin = true WHERE email = $1', [admin.email]);
    const res = await t.app.inject({ method: 'GET', url: '/admin/outbox?channel=sms&status=sent&limit=5', headers: bearer(admin) });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((m: { channel: string; status: string }) => m.channel === 'sms' && m.status === 'sent')).toBe(true);
  });

  it('settled messages go after 30 days; pending ones and recent ones stay', async () => {
    const db = t.runtime.deps.db;
    const ids = await Promise.all(['old-sent', 'old-pending', 'new-sent'].map((p) => enqueueMessage(db, { channel: 'sms', recipient: '+77010000003', body: p, purpose: p })));
    await db.query(`UPDATE outbox_messages SET status = 'sent', next_attempt_at = now() + interval '1 day' WHERE id = ANY($1::bigint[])`, [[ids[0], ids[2]]]);
    await db.query(`UPDATE outbox_messages SET created_at = now() - interval '31 days', next_attempt_at = now() + interval '1 day' WHERE id = ANY($1::bigint[])`, [[ids[0], ids[1]]]);
    await pruneOutbox(t.runtime.deps);
    const left = (await db.query<{ id: number }>('SELECT id FROM outbox_messages WHERE id = ANY($1::bigint[]) ORDER BY id', [ids])).rows.map((r) => r.id);
    expect(left).toEqual([ids[1], ids[2]].sort((a, b) => a - b));
  });
});
