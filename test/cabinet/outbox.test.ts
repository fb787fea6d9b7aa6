// The outbox (decisions 18): each channel's real driver against a local fake; a failing channel delays
// its own message (back-off) and fails nothing else; a permanent refusal or the last attempt gives up.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, newAdmin, newMerchant, uniqueEmail, type Merchant } from '../helpers/factories.ts';
import { channels, fakeBotApi, smtpReceiver } from '../helpers/fakes.ts';
import { backoffSeconds, enqueueMessage, MAX_ATTEMPTS, sendDueMessages } from '../../src/domain/channels/outbox.ts';
import { pruneOutbox } from '../../src/jobs/retention.ts';
import { makeSealer } from '../../src/secrets.ts';

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
    channels: channels({
      smtpUrl: smtp.url,
      messenger: { apiUrl: bot.url, botToken: '1:T' },
      smsUrl: `http://127.0.0.1:${(sms.address() as AddressInfo).port}/send`,
    }),
  });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  await bot?.close();
  await new Promise((r) => sms?.close(r));
});

const row = async (id: number) =>
  (
    await t.runtime.deps.db.query<{
      status: string;
      attempts: number;
      driver: string;
      last_error: string | null;
      wait: number;
    }>(
      `SELECT status, attempts, driver, last_error, extract(epoch FROM ` +
        `next_attempt_at - now())::float AS wait FROM outbox_messages WHERE ` +
        `id = $1`,
      [id],
    )
  ).rows[0];

describe('the outbox job', () => {
  it('a failing SMS gateway delays its message; the e-mail and the messenger message beside it are sent', async () => {
    const db = t.runtime.deps.db;
    const email = uniqueEmail('mail');
    const smsId = await enqueueMessage(db, {
      channel: 'sms',
      recipient: '+77010000001',
      body: 'code 123456',
      purpose: 'test',
    });
    const mailId = await enqueueMessage(db, {
      channel: 'email',
      recipient: email,
      subject: 'Hello',
      body: 'Body text',
      purpose: 'test',
    });
    const botId = await enqueueMessage(db, {
      channel: 'messenger',
      recipient: '777',
      body: 'Hi chat',
      purpose: 'test',
    });
    smsStatus = 500;
    await sendDueMessages(t.runtime.deps);
    expect(await row(mailId)).toMatchObject({ status: 'sent', driver: 'smtp', attempts: 1 });
    expect(await row(botId)).toMatchObject({ status: 'sent', driver: 'bot_api' });
    const failed = await row(smsId);
    expect(failed).toMatchObject({
      status: 'pending',
      attempts: 1,
      driver: 'http_gateway',
      last_error: 'sms gateway: 500',
    });
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
      const res = await closed.app.inject({
        method: 'POST',
        url: '/me/team/invite',
        headers: bearer(m),
        payload: { email: uniqueEmail('inv'), role: 'viewer' },
      });
      expect(res.statusCode).toBe(201);
      await sendDueMessages(closed.runtime.deps);
      const r = (
        await closed.runtime.deps.db.query<{ status: string; last_error: string }>(
          `SELECT status, last_error FROM outbox_messages WHERE purpose = 'team_invite' ORDER BY id DESC LIMIT 1`,
        )
      ).rows[0];
      expect(r.status).toBe('pending');
      expect(r.last_error).toMatch(/smtp/);
    } finally {
      await closed.close();
    }
  });

  it('the operator sees the messages, newest first, filtered by channel and status', async () => {
    const admin = await newAdmin(t.app, t.runtime.deps.db);
    const res = await t.app.inject({
      method: 'GET',
      url: '/admin/outbox?channel=sms&status=sent&limit=5',
      headers: bearer(admin),
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((m: { channel: string; status: string }) => m.channel === 'sms' && m.status === 'sent')).toBe(
      true,
    );
  });

  it('settled messages go after 30 days; pending ones and recent ones stay', async () => {
    const db = t.runtime.deps.db;
    const ids = await Promise.all(
      ['old-sent', 'old-pending', 'new-sent'].map((p) =>
        enqueueMessage(db, { channel: 'sms', recipient: '+77010000003', body: p, purpose: p }),
      ),
    );
    await db.query(
      `UPDATE outbox_messages SET status = 'sent', next_attempt_at = now() ` +
        `+ interval '1 day' WHERE id = ANY($1::bigint[])`,
      [[ids[0], ids[2]]],
    );
    await db.query(
      `UPDATE outbox_messages SET created_at = now() - interval '31 days', ` +
        `next_attempt_at = now() + interval '1 day' WHERE id = ANY($1::bigint[])`,
      [[ids[0], ids[1]]],
    );
    await pruneOutbox(t.runtime.deps);
    const left = (
      await db.query<{ id: number }>('SELECT id FROM outbox_messages WHERE id = ANY($1::bigint[]) ORDER BY id', [ids])
    ).rows.map((r) => r.id);
    expect(left).toEqual([ids[1], ids[2]].sort((a, b) => a - b));
  });
});

describe('credentials in messages (issue 38): sealed at rest, clear for the channel, masked for the operator', () => {
  let admin: Merchant;
  beforeAll(async () => {
    admin = await newAdmin(t.app, t.runtime.deps.db);
  });
  const stored = async (id: number) =>
    (await t.runtime.deps.db.query<Record<string, unknown>>('SELECT * FROM outbox_messages WHERE id = $1', [id]))
      .rows[0];
  /** The message as GET /admin/outbox shows it. */
  const operatorSees = async (id: number, channel: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/admin/outbox?channel=${channel}&limit=100`,
      headers: bearer(admin),
    });
    expect(res.statusCode).toBe(200);
    const m = res.json().data.find((x: { id: number }) => x.id === id);
    expect(m, `message ${id} listed`).toBeDefined();
    return m as { body: string };
  };
  const sendUntilSettled = async (id: number) => {
    for (let i = 0; i < 20 && (await stored(id)).status === 'pending'; i++) await sendDueMessages(t.runtime.deps);
  };

  it('a team invite: its row never holds the token; the e-mail carries it; the operator sees it masked', async () => {
    const owner = await newMerchant(t.app);
    const email = uniqueEmail('sealed');
    const inv = (
      await t.app.inject({
        method: 'POST',
        url: '/me/team/invite',
        headers: bearer(owner),
        payload: { email, role: 'viewer' },
      })
    ).json();
    const id = (
      await t.runtime.deps.db.query<{ id: number }>('SELECT id FROM outbox_messages WHERE recipient = $1', [email])
    ).rows[0].id;
    expect(JSON.stringify(await stored(id))).not.toContain(inv.invite_token);
    const seen = await operatorSees(id, 'email');
    expect(seen.body).toContain('/register?invite_token=inv_');
    expect(seen.body).not.toContain(inv.invite_token);

    await sendUntilSettled(id);
    expect((await stored(id)).status).toBe('sent');
    const mail = smtp.mails.find((m) => m.to.includes(email));
    expect(mail!.raw.replace(/=\r?\n/g, '')).toContain(inv.invite_token);
    expect(JSON.stringify(await stored(id))).not.toContain(inv.invite_token);
  });

  it(
    'a code: sealed in its row, sent in clear, masked for the operator; ' +
      'a key that cannot open it fails the message',
    async () => {
      const db = t.runtime.deps.db;
      const id = await enqueueMessage(
        db,
        {
          channel: 'sms',
          recipient: '+77010000011',
          body: 'Tolem: your code is 482913.',
          purpose: 'test_code',
          secrets: ['482913'],
        },
        t.runtime.deps.secrets.sealer,
      );
      expect(JSON.stringify(await stored(id))).not.toContain('482913');
      expect((await operatorSees(id, 'sms')).body).toBe('Tolem: your code is ******.');
      smsStatus = 200;
      await sendUntilSettled(id);
      expect(smsReceived).toContainEqual({ to: '+77010000011', text: 'Tolem: your code is 482913.' });

      // Sealed with an APP_SECRET this instance does not have (dropped from APP_SECRET_PREVIOUS too soon):
      // given up at once, saying why, and nothing is sent.
      const lost = await enqueueMessage(
        db,
        { channel: 'sms', recipient: '+77010000012', body: 'code 111222', purpose: 'test_code', secrets: ['111222'] },
        makeSealer('another-app-secret', []),
      );
      await sendUntilSettled(lost);
      expect(await stored(lost)).toMatchObject({ status: 'failed' });
      expect((await stored(lost)).last_error).toMatch(/APP_SECRET/);
      expect(smsReceived).not.toContainEqual(expect.objectContaining({ to: '+77010000012' }));
    },
  );

  it(
    'sent bodies that carried a credential are purged after a day; pending ' +
      'and recent ones, and plain ones, keep theirs',
    async () => {
      const db = t.runtime.deps.db;
      const sealer = t.runtime.deps.secrets.sealer;
      const put = (body: string, secret?: string, purpose = 'test_code') =>
        enqueueMessage(
          db,
          { channel: 'sms', recipient: '+77010000013', body, purpose, ...(secret ? { secrets: [secret] } : {}) },
          sealer,
        );
      const oldSent = await put('old sent 700001', '700001');
      const newSent = await put('new sent 700002', '700002');
      const oldPending = await put('old pending 700003', '700003');
      const plain = await put('a plain old answer');
      // Written in clear before sealing (or by an older instance during an upgrade): hidden from the
      // operator, and purged like the others once settled.
      const legacyPending = await put(
        'Tolem: the code to confirm withdrawing 30000 tenge is 700004.',
        undefined,
        'withdrawal_code',
      );
      const legacySent = await put(
        'Accept the invitation: https://x/register?invite_token=inv_legacy700005',
        undefined,
        'team_invite',
      );
      await db.query(
        `UPDATE outbox_messages SET status = 'sent', next_attempt_at = now() ` +
          `+ interval '1 day' WHERE id = ANY($1::bigint[])`,
        [[oldSent, newSent, plain, legacySent]],
      );
      await db.query(
        `UPDATE outbox_messages SET next_attempt_at = now() + interval '1 day' WHERE id = ANY($1::bigint[])`,
        [[oldPending, legacyPending]],
      );
      await db.query(
        `UPDATE outbox_messages SET created_at = now() - interval '25 hours' WHERE id = ANY($1::bigint[])`,
        [[oldSent, oldPending, plain, legacySent]],
      );
      expect((await operatorSees(legacyPending, 'sms')).body).not.toContain('700004');
      expect((await operatorSees(legacySent, 'sms')).body).not.toContain('inv_legacy700005');

      await pruneOutbox(t.runtime.deps);
      const after = async (id: number) => JSON.stringify(await stored(id));
      expect(await stored(oldSent)).toMatchObject({ body_sealed: null });
      expect(await after(oldSent)).not.toContain('old sent');
      expect(await after(legacySent)).not.toContain('inv_legacy700005');
      expect((await stored(newSent)).body_sealed).toEqual(expect.any(String));
      expect((await stored(oldPending)).body_sealed).toEqual(expect.any(String));
      expect(await stored(plain)).toMatchObject({ body: 'a plain old answer' });
      // A pending message written in clear is still sent as written.
      expect(await stored(legacyPending)).toMatchObject({
        body: 'Tolem: the code to confirm withdrawing 30000 tenge is 700004.',
      });
    },
  );
});
