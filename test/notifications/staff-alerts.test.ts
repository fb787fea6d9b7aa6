// Staff alerts (decisions 28, issue 44 item 7), through HTTP against the store: each member's settings per
// mode (defaults by role, validation, nobody else's changed), an alert in the outbox for a paid payment, a
// refund and a failed receipt, only for the members who asked and by the channels they chose (the messenger
// only once a chat is bound), nothing for a revoked member or a disabled client, the payment path's one
// statement when nobody asked, and the daily summary once at its local hour.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, apiError } from '../helpers/api.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { idsOf, newAdmin, newMerchant, type Merchant } from '../helpers/factories.ts';
import { newMember, newPaidPayment, newRefund } from '../helpers/actors.ts';
import { issueReceipts, newRegister } from '../helpers/fiscal.ts';
import { alertStaff } from '../../src/domain/notifications/staff-alerts.ts';
import { localDay, sendDailySummaries } from '../../src/domain/notifications/daily-summary.ts';
import { FiscalError } from '../../src/fiscal/types.ts';
import type { Queryable } from '../../src/db/db.ts';

/** The app's clock: the real time, or the instant a test moved it to. */
const clock = { at: null as Date | null, now: () => clock.at ?? new Date() };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, { clock });
});
afterAll(() => t.close());

interface Sent {
  channel: string;
  recipient: string;
  subject: string | null;
  body: string;
  purpose: string;
}

/** The alerts the outbox holds for this merchant (read below the API: the outbox is the operator's). */
async function alertsOf(m: Merchant, purpose?: string): Promise<Sent[]> {
  const { clientId } = await idsOf(t.runtime.deps.db, m);
  const r = await t.runtime.deps.db.query<Sent>(
    `SELECT channel, recipient, subject, body, purpose FROM outbox_messages
      WHERE client_id = $1 AND purpose LIKE 'alert_%' AND ($2::text IS NULL OR purpose = $2) ORDER BY id`,
    [clientId, purpose ?? null],
  );
  return r.rows;
}

/** Binding a chat goes through the messenger platform's webhook, which the test app does not run. */
async function bindChat(email: string): Promise<string> {
  const chat = `chat-${email}`;
  await t.runtime.deps.db.query('UPDATE users SET messenger_chat_id = $2 WHERE email = $1', [email, chat]);
  return chat;
}

const settings = (who: { access: string }, mode: 'live' | 'test' = 'test') =>
  api(t.app, who).get(`/me/notification-settings?mode=${mode}`);
const patch = (who: { access: string }, body: Record<string, unknown>, mode: 'live' | 'test' = 'test') =>
  api(t.app, who).patch(`/me/notification-settings?mode=${mode}`, { payload: body });

describe('notification settings', () => {
  it('start from the role: receipt-failed by e-mail for owner and admin, nothing for the others', async () => {
    const m = await newMerchant(t.app);
    const admin = await newMember(t.app, m, 'admin');
    const viewer = await newMember(t.app, m, 'viewer');
    const base = { payment_paid: false, refund_completed: false, daily_summary: false, summary_hour: 9 };
    for (const [who, receipt] of [
      [m, true],
      [admin, true],
      [viewer, false],
    ] as const) {
      const res = await settings(who, 'live');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...base,
        mode: 'live',
        receipt_failed: receipt,
        email: true,
        messenger: false,
        messenger_linked: false,
        customized: false,
      });
    }
    await bindChat(viewer.email);
    expect((await settings(viewer)).body.messenger_linked).toBe(true);
  });

  it("a change is the caller's own, in one mode; the fields not given keep their value", async () => {
    const m = await newMerchant(t.app);
    const accountant = await newMember(t.app, m, 'accountant');
    const res = await patch(accountant, { payment_paid: true, summary_hour: 20, messenger: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      mode: 'test',
      payment_paid: true,
      receipt_failed: false,
      summary_hour: 20,
      email: true,
      messenger: true,
      customized: true,
    });
    expect((await settings(accountant)).body).toEqual(res.body);
    const again = await patch(accountant, { email: false });
    expect(again.body).toMatchObject({ payment_paid: true, summary_hour: 20, email: false, messenger: true });
    // The live mode and the owner are as they were.
    expect((await settings(accountant, 'live')).body).toMatchObject({ payment_paid: false, customized: false });
    expect((await settings(m)).body).toMatchObject({ payment_paid: false, receipt_failed: true, customized: false });
  });

  it('refuses an hour outside 0..23, an unknown key and a string for a switch', async () => {
    const m = await newMerchant(t.app);
    for (const body of [{ summary_hour: 24 }, { summary_hour: -1 }, { summary_hour: 7.5 }, { sms: true }]) {
      const res = await patch(m, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(apiError(res).code).toBe('invalid_parameter');
    }
    expect((await patch(m, { payment_paid: 'true' })).status).toBe(400);
    expect((await patch(m, { summary_hour: 0 })).body.summary_hour).toBe(0);
    expect((await patch(m, { summary_hour: 23 })).body.summary_hour).toBe(23);
    // Nothing refused was saved.
    expect((await settings(m)).body).toMatchObject({ payment_paid: false, summary_hour: 23 });
  });

  it('needs a signed-in user; an API key is refused', async () => {
    const m = await newMerchant(t.app);
    expect((await api(t.app).get('/me/notification-settings')).status).toBe(401);
    const byKey = await api(t.app, { apiKey: m.testKey }).patch('/me/notification-settings', {
      payload: { payment_paid: true },
    });
    expect([401, 403]).toContain(byKey.status);
  });
});

describe('alerts of a paid payment and a refund', () => {
  it('go by e-mail to the members who asked, by messenger only once a chat is bound', async () => {
    const m = await newMerchant(t.app);
    const admin = await newMember(t.app, m, 'admin');
    const support = await newMember(t.app, m, 'support');
    await patch(m, { payment_paid: true });
    await patch(admin, { payment_paid: true, email: false, messenger: true });
    // support asked for nothing; the live mode of the owner neither.
    const { operation_id } = await newPaidPayment(t.app, m.testKey, 1_234_500, { comment: 'Table 7' });
    const sent = await alertsOf(m);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ channel: 'email', recipient: m.email, purpose: 'alert_payment_paid' });
    expect(sent[0].subject).toContain('1\u00a0234\u00a0500\u00a0₸');
    expect(sent[0].body).toContain('Оплата получена: 1\u00a0234\u00a0500\u00a0₸ [test]');
    expect(sent[0].body).toContain('Төлем қабылданды');
    expect(sent[0].body).toContain('Payment received');
    expect(sent[0].body).toContain('Table 7');
    expect(sent[0].body).toContain(`${t.config.dashboardUrl}/payments/${operation_id}?mode=test`);
    expect(sent.map((s) => s.recipient)).not.toContain(support.email);

    const chat = await bindChat(admin.email);
    await newPaidPayment(t.app, m.testKey, 700);
    const second = (await alertsOf(m)).slice(1);
    expect(second.map((s) => [s.channel, s.recipient]).sort()).toEqual([
      ['email', m.email],
      ['messenger', chat],
    ]);
  });

  it('a live-mode choice does not alert test payments', async () => {
    const m = await newMerchant(t.app);
    await patch(m, { payment_paid: true }, 'live');
    await newPaidPayment(t.app, m.testKey);
    expect(await alertsOf(m)).toEqual([]);
  });

  it('a completed refund alerts who asked for refunds, with the amount refunded', async () => {
    const m = await newMerchant(t.app);
    const accountant = await newMember(t.app, m, 'accountant');
    await patch(accountant, { refund_completed: true });
    const refund = await newRefund(t.app, m.testKey, { amount: 1000 });
    const sent = await alertsOf(m, 'alert_refund_completed');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ channel: 'email', recipient: accountant.email });
    expect(sent[0].body).toContain('Возврат выполнен: 1\u00a0000\u00a0₸');
    expect(sent[0].body).toContain(`/payments/${refund.operation_id}`);
    // Nobody asked for the paid alert of the payment refunded.
    expect(await alertsOf(m, 'alert_payment_paid')).toEqual([]);
  });

  it('a revoked member and a disabled client get nothing', async () => {
    const m = await newMerchant(t.app);
    const admin = await newMember(t.app, m, 'admin');
    await patch(admin, { payment_paid: true });
    await patch(m, { payment_paid: true });
    expect((await api(t.app, m).delete(`/me/team/${admin.memberId}`)).status).toBeLessThan(300);
    await newPaidPayment(t.app, m.testKey);
    expect((await alertsOf(m)).map((s) => s.recipient)).toEqual([m.email]);

    const ops = await newAdmin(t.app, t.runtime.deps.db);
    const other = await newMerchant(t.app);
    await patch(other, { payment_paid: true });
    const paid = await newPaidPayment(t.app, other.testKey);
    expect(await alertsOf(other)).toHaveLength(1);
    const { clientId } = await idsOf(t.runtime.deps.db, other);
    expect((await api(t.app, ops).patch(`/admin/clients/${clientId}`, { body: { disabled: true } })).status).toBe(200);
    // A disabled client's keys stop, so the paid transition is run below the API, as the watcher would.
    await t.runtime.deps.db.tx((tx) =>
      alertStaff(tx, {
        id: 'evt_x',
        client_id: clientId,
        mode: 'test',
        type: 'payment.completed',
        data: { operation_id: paid.operation_id, amount: 5000 },
        created_at: new Date(),
      }),
    );
    expect(await alertsOf(other)).toHaveLength(1);
  });

  it('when nobody asked, the subscriber runs one statement and writes nothing', async () => {
    const m = await newMerchant(t.app);
    await newMember(t.app, m, 'admin');
    const { operation_id } = await newPaidPayment(t.app, m.testKey);
    const { clientId } = await idsOf(t.runtime.deps.db, m);
    const statements: string[] = [];
    await t.runtime.deps.db.tx(async (tx) => {
      const counting: Queryable = {
        query: (sql: string, params?: unknown[]) => (statements.push(sql), tx.query(sql, params)),
      } as Queryable;
      for (const type of ['payment.completed', 'payment.refunded'] as const)
        await alertStaff(counting, {
          id: 'evt_y',
          client_id: clientId,
          mode: 'test',
          type,
          data: { operation_id, amount: 5000 },
          created_at: new Date(),
        });
    });
    expect(statements).toHaveLength(2);
    expect(statements.every((s) => /FROM notification_settings s/.test(s))).toBe(true);
    expect(await alertsOf(m)).toEqual([]);
  });
});

describe('alerts of a failed receipt', () => {
  it('reach owner and admin by default, and a member who turned them on, by its channels', async () => {
    const m = await newMerchant(t.app);
    const admin = await newMember(t.app, m, 'admin');
    const viewer = await newMember(t.app, m, 'viewer');
    const support = await newMember(t.app, m, 'support');
    await patch(support, { receipt_failed: true, email: false, messenger: true });
    const supportChat = await bindChat(support.email);
    await patch(admin, { receipt_failed: false });
    await newRegister(t, m);
    // The register refuses the receipt for good (a driver fault the domain cannot mend by sending again).
    const deps = t.runtime.deps;
    const original = deps.fiscal.driver.bind(deps.fiscal);
    const spy = vi.spyOn(deps.fiscal, 'driver').mockImplementation((name, binding) => {
      const d = original(name, binding);
      d.issue = async () => {
        throw new FiscalError('rejected', 'the register refused the lines', '9');
      };
      return d;
    });
    try {
      const { operation_id } = await newPaidPayment(t.app, m.testKey, 2500, { comment: 'Coffee' });
      await issueReceipts(t);
      const [receipt] = (await api(t.app, { apiKey: m.testKey }).get(`/v2/receipts?operation_id=${operation_id}`)).body
        .data;
      expect(receipt.status).toBe('failed');
      const sent = await alertsOf(m, 'alert_receipt_failed');
      expect(sent.map((s) => [s.channel, s.recipient]).sort()).toEqual([
        ['email', m.email],
        ['messenger', supportChat],
      ]);
      expect(sent[0].body).toContain('Чек продажи не выдан 2\u00a0500\u00a0₸ (rejected:9)');
      expect(sent[0].body).toContain('Coffee');
      expect(sent[0].body).toContain(`/payments/${operation_id}`);
      expect(sent.map((s) => s.recipient)).not.toContain(viewer.email);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('the daily summary', () => {
  it("is sent once at the member's local hour with the previous day's totals", async () => {
    const m = await newMerchant(t.app);
    const member = await newMember(t.app, m, 'viewer');
    await patch(m, { daily_summary: true, summary_hour: 9, messenger: true });
    const chat = await bindChat(m.email);
    await patch(member, { daily_summary: true, summary_hour: 10 });
    const a = await newPaidPayment(t.app, m.testKey, 3000);
    await newPaidPayment(t.app, m.testKey, 2000);
    await newRefund(t.app, m.testKey, { operationId: a.operation_id, amount: 500 });
    const today = localDay(new Date());
    // Tomorrow, local time (UTC+5): 08:59, 09:00, 09:30, then 10:00.
    const tomorrowAt = (h: number, min: number) => new Date(today.to.getTime() + 86_400_000 + (h * 60 + min) * 60_000);
    const pass = async () => {
      while ((await sendDailySummaries(t.runtime.deps, 100)) >= 100);
    };
    try {
      clock.at = tomorrowAt(8, 59);
      await pass();
      expect(await alertsOf(m, 'alert_daily_summary')).toEqual([]);
      clock.at = tomorrowAt(9, 0);
      await pass();
      const sent = await alertsOf(m, 'alert_daily_summary');
      expect(sent.map((s) => [s.channel, s.recipient]).sort()).toEqual([
        ['email', m.email],
        ['messenger', chat],
      ]);
      const day = localDay(new Date()).today;
      expect(sent[0].body).toContain(`Итоги за ${day} [test]: оплат 2 на 5\u00a0000\u00a0₸, возвратов 1 на 500\u00a0₸`);
      expect(sent[0].body).toContain('Summary of');
      clock.at = tomorrowAt(9, 30);
      await pass();
      expect(await alertsOf(m, 'alert_daily_summary')).toHaveLength(2);
      clock.at = tomorrowAt(10, 0);
      await pass();
      const withMember = await alertsOf(m, 'alert_daily_summary');
      expect(withMember).toHaveLength(3);
      expect(withMember[2]).toMatchObject({ channel: 'email', recipient: member.email });
      // The day after: one more each, of a day with nothing.
      clock.at = new Date(tomorrowAt(10, 0).getTime() + 86_400_000);
      await pass();
      const next = (await alertsOf(m, 'alert_daily_summary')).slice(3);
      expect(next).toHaveLength(3);
      expect(next[0].body).toContain('оплат 0 на 0\u00a0₸');
    } finally {
      clock.at = null;
    }
  });
});
