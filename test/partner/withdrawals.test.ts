// Withdrawals and bank details (decisions 21) through HTTP: the refusals, the messenger code from the
// outbox, confirmation, the admin's payout, wrong codes, concurrency, and paying a client's plan from the
// balance; the ledger invariant after every scenario.
import { describe, expect, it } from 'vitest';
import { withAdmin, type TestApp } from '../helpers/app.ts';
import { callAs, errorOf, idem, type Merchant } from '../helpers/factories.ts';
import { newPartnerWithBalance } from '../helpers/actors.ts';
import { ledgerMismatch } from '../../src/domain/partners/ledger.ts';

let t: TestApp;
let admin: Merchant;
withAdmin((w) => ({ t, admin } = w));
const as = callAs(() => t.app);
const withKey = (who: Merchant, method: string, url: string, payload?: object, k = idem()) =>
  t.app.inject({
    method: method as 'POST',
    url,
    headers: { authorization: `Bearer ${who.access}`, ...k },
    ...(payload ? { payload } : {}),
  });

const BANK = {
  recipient_name: 'ТОО Агентство',
  bin: '990140001233',
  iban: 'KZ86125KZT5004100100',
  bik: 'KCJBKZKX',
  bank_name: 'Bank',
  kbe: '17',
};

/** A partner whose available balance is 6000 x `plans` (professional plans bought by its client). */
const richPartner = (plans: number) => newPartnerWithBalance(t, admin, plans);

// Binding a chat goes through the messenger platform's webhook, which this file's app does not run.
const linkMessenger = (m: Merchant, chat: string) =>
  t.runtime.deps.db.query('UPDATE users SET messenger_chat_id = $2 WHERE email = $1', [m.email, chat]);
const codeSentTo = async (chat: string) => {
  // The text as the messenger driver gets it: the code is sealed at rest (issue 38).
  const r = await t.runtime.deps.db.query<{ body_sealed: string }>(
    `SELECT body_sealed FROM outbox_messages WHERE channel = 'messenger' AND recipient = $1 ORDER BY id DESC LIMIT 1`,
    [chat],
  );
  return /(\d{6})/.exec(t.runtime.deps.secrets.sealer.open(r.rows[0].body_sealed))![1];
};
const invariant = async (partnerId: number) => expect(await ledgerMismatch(t.runtime.deps.db, partnerId)).toBeNull();

describe('withdrawals', () => {
  it(
    'refusals in order; then 202 -> the messenger code -> processing ' +
      '-> paid, commissions paid out; bank frozen meanwhile',
    async () => {
      const p = await richPartner(6); // 36,000 available
      expect((await as(p, 'GET', '/partner/balance')).json()).toMatchObject({ available_kzt: 36000, pending_kzt: 0 });
      expect(errorOf(await withKey(p, 'POST', '/partner/withdrawals', { amount: 29999 })).code).toBe(
        'withdrawal_below_minimum',
      );
      expect(errorOf(await withKey(p, 'POST', '/partner/withdrawals', { amount: 30000 })).code).toBe(
        'bank_details_required',
      );
      expect((await as(p, 'GET', '/partner/me')).json().bank_details_set).toBe(false);
      const bank = await as(p, 'PATCH', '/partner/settings/bank', BANK);
      expect(bank.statusCode, bank.body).toBe(200);
      expect((await as(p, 'GET', '/partner/me')).json().bank_details_set).toBe(true);
      expect(bank.json().iban).toBe('KZ86************0100');
      expect(errorOf(await as(p, 'PATCH', '/partner/settings/bank', { iban: 'KZ00125KZT5004100100' })).param).toBe(
        'iban',
      );
      expect(errorOf(await withKey(p, 'POST', '/partner/withdrawals', { amount: 30000 })).code).toBe(
        'messenger_not_linked',
      );
      const chat = `chat-${p.partnerId}`;
      await linkMessenger(p, chat);
      expect(errorOf(await withKey(p, 'POST', '/partner/withdrawals', { amount: 40000 })).code).toBe(
        'insufficient_balance',
      );

      const w = await withKey(p, 'POST', '/partner/withdrawals', { amount: 30000 });
      expect(w.statusCode, w.body).toBe(202);
      expect(w.json()).toMatchObject({ amount: 30000, status: 'confirmation_required', attempts_left: 5 });
      expect((await as(p, 'GET', '/partner/balance')).json().available_kzt).toBe(6000);
      expect(errorOf(await as(p, 'PATCH', '/partner/settings/bank', { bank_name: 'Other' })).code).toBe(
        'withdrawal_in_progress',
      );
      const code = await codeSentTo(chat);
      const ok = await as(p, 'POST', `/partner/withdrawals/${w.json().id}/confirm`, { code });
      expect(ok.json().status).toBe('processing');
      expect(errorOf(await as(p, 'POST', `/partner/withdrawals/${w.json().id}/confirm`, { code })).code).toBe(
        'withdrawal_state',
      );

      // The admin's payouts list names the partner.
      const queue = (await as(admin, 'GET', '/admin/withdrawals?status=processing')).json().data;
      expect(queue.find((x: { id: number }) => x.id === w.json().id)).toMatchObject({
        partner_id: p.partnerId,
        partner_name: 'Payout Co',
        amount: 30000,
      });
      const paid = await as(admin, 'POST', `/admin/withdrawals/${w.json().id}/mark-paid`, { reference: 'PP-0001' });
      expect(paid.json()).toMatchObject({ status: 'paid', reference: 'PP-0001' });
      expect((await as(p, 'GET', '/partner/commissions?status=paid_out')).json().data).toHaveLength(5);
      expect((await as(p, 'GET', '/partner/balance')).json()).toMatchObject({ available_kzt: 6000, pending_kzt: 0 });
      expect((await as(p, 'GET', '/partner/withdrawals')).json().data[0]).toMatchObject({ status: 'paid' });
      expect((await as(p, 'PATCH', '/partner/settings/bank', { bank_name: 'Other' })).statusCode).toBe(200);
      await invariant(p.partnerId);
    },
  );

  it("five wrong codes cancel it and release the hold; an admin's rejection releases it too", async () => {
    const p = await richPartner(5);
    await as(p, 'PATCH', '/partner/settings/bank', BANK);
    await linkMessenger(p, `chat-${p.partnerId}`);
    const w = (await withKey(p, 'POST', '/partner/withdrawals', { amount: 30000 })).json();
    for (let left = 4; left >= 1; left--) {
      const bad = await as(p, 'POST', `/partner/withdrawals/${w.id}/confirm`, { code: '99999x' });
      expect(errorOf(bad)).toMatchObject({ code: 'confirmation_invalid', attempts_left: left });
    }
    expect(errorOf(await as(p, 'POST', `/partner/withdrawals/${w.id}/confirm`, { code: '99999x' })).attempts_left).toBe(
      0,
    );
    expect((await as(p, 'GET', '/partner/withdrawals')).json().data[0].status).toBe('cancelled');
    expect((await as(p, 'GET', '/partner/balance')).json().available_kzt).toBe(30000);

    const again = (await withKey(p, 'POST', '/partner/withdrawals', { amount: 30000 })).json();
    await as(p, 'POST', `/partner/withdrawals/${again.id}/confirm`, { code: await codeSentTo(`chat-${p.partnerId}`) });
    expect(
      (await as(admin, 'POST', `/admin/withdrawals/${again.id}/reject`, { reason: 'wrong IBAN' })).json(),
    ).toMatchObject({ status: 'rejected', reason: 'wrong IBAN' });
    expect((await as(p, 'GET', '/partner/balance')).json().available_kzt).toBe(30000);
    expect(errorOf(await as(admin, 'POST', `/admin/withdrawals/${again.id}/mark-paid`, { reference: 'x' })).code).toBe(
      'withdrawal_state',
    );
    await invariant(p.partnerId);
  });

  it('a code left past its 10 minutes: the job cancels the withdrawal and releases the hold', async () => {
    const { cancelExpiredWithdrawals } = await import('../../src/domain/partners/money.ts');
    const p = await richPartner(5);
    await as(p, 'PATCH', '/partner/settings/bank', BANK);
    await linkMessenger(p, `chat-exp-${p.partnerId}`);
    const w = (await withKey(p, 'POST', '/partner/withdrawals', { amount: 30000 })).json();
    await cancelExpiredWithdrawals(t.runtime.deps);
    expect((await as(p, 'GET', '/partner/withdrawals')).json().data[0].status).toBe('confirmation_required');
    await t.runtime.deps.db.query(
      `UPDATE withdrawals SET code_expires_at = now() - interval '1 second' WHERE id = $1`,
      [w.id],
    );
    expect(await cancelExpiredWithdrawals(t.runtime.deps)).toBeGreaterThanOrEqual(1);
    expect((await as(p, 'GET', '/partner/withdrawals')).json().data[0]).toMatchObject({
      status: 'cancelled',
      reason: 'the code expired',
    });
    expect((await as(p, 'GET', '/partner/balance')).json().available_kzt).toBe(30000);
    expect(errorOf(await as(p, 'POST', `/partner/withdrawals/${w.id}/confirm`, { code: '000000' })).code).toBe(
      'withdrawal_state',
    );
    await invariant(p.partnerId);
  });

  it('20 concurrent withdrawals never take more than the balance', async () => {
    const p = await richPartner(6);
    await as(p, 'PATCH', '/partner/settings/bank', BANK);
    await linkMessenger(p, `chat-${p.partnerId}`);
    const all = await Promise.all(
      Array.from({ length: 20 }, () => withKey(p, 'POST', '/partner/withdrawals', { amount: 30000 })),
    );
    expect(all.filter((r) => r.statusCode === 202)).toHaveLength(1);
    expect(all.every((r) => r.statusCode === 202 || r.statusCode === 409)).toBe(true);
    expect((await as(p, 'GET', '/partner/balance')).json().available_kzt).toBe(6000);
    await invariant(p.partnerId);
  });
});

describe("paying a client's plan from the balance", () => {
  it(
    'debits the balance, activates the plan, earns no commission; idempotent; ' +
      "409 beyond the balance; another partner's client 404",
    async () => {
      const p = await richPartner(2); // 12,000 available
      const k = idem();
      const paid = await withKey(p, 'POST', `/partner/clients/${p.clientId}/pay-subscription`, { plan: 'starter' }, k);
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json()).toMatchObject({ client_id: p.clientId, plan: 'starter', amount: 10000 });
      expect((await as(p, 'GET', '/partner/balance')).json()).toMatchObject({ available_kzt: 2000, pending_kzt: 0 });
      expect((await as(p, 'GET', `/partner/clients/${p.clientId}`)).json().plan).toBe('starter');
      expect((await as(p, 'GET', '/partner/commissions')).json().data).toHaveLength(2);
      const replay = await withKey(
        p,
        'POST',
        `/partner/clients/${p.clientId}/pay-subscription`,
        { plan: 'starter' },
        k,
      );
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect((await as(p, 'GET', '/partner/balance')).json().available_kzt).toBe(2000);
      expect(
        errorOf(await withKey(p, 'POST', `/partner/clients/${p.clientId}/pay-subscription`, { plan: 'starter' })).code,
      ).toBe('insufficient_balance');
      const other = await richPartner(0);
      expect(
        (await withKey(other, 'POST', `/partner/clients/${p.clientId}/pay-subscription`, { plan: 'starter' }))
          .statusCode,
      ).toBe(404);
      const tx = (await as(p, 'GET', '/partner/balance/transactions?limit=1')).json().data[0];
      expect(tx).toMatchObject({ type: 'subscription', amount: -10000, available_after: 2000 });
      await invariant(p.partnerId);
      await invariant(other.partnerId);
    },
  );
});

describe('the act', () => {
  it(
    "a paid withdrawal's act is a PDF holding its number, the partner's " +
      'requisites and the total in words, the same bytes twice; unpaid ' +
      '409',
    async () => {
      const { PDFParse } = await import('pdf-parse');
      const { writeFileSync } = await import('node:fs');
      const p = await richPartner(5);
      await as(p, 'PATCH', '/partner/settings/bank', BANK);
      await linkMessenger(p, `chat-act-${p.partnerId}`);
      const w = (await withKey(p, 'POST', '/partner/withdrawals', { amount: 30000 })).json();
      expect(errorOf(await as(p, 'GET', `/partner/withdrawals/${w.id}/act`)).code).toBe('withdrawal_not_paid');
      await as(p, 'POST', `/partner/withdrawals/${w.id}/confirm`, {
        code: await codeSentTo(`chat-act-${p.partnerId}`),
      });
      await as(admin, 'POST', `/admin/withdrawals/${w.id}/mark-paid`, { reference: 'PP-77' });
      const first = await as(p, 'GET', `/partner/withdrawals/${w.id}/act`);
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-type']).toBe('application/pdf');
      const bytes = first.rawPayload;
      expect(bytes.subarray(0, 4).toString()).toBe('%PDF');
      const second = await as(p, 'GET', `/partner/withdrawals/${w.id}/act`);
      expect(Buffer.compare(second.rawPayload, bytes)).toBe(0);
      const text = (await new PDFParse({ data: new Uint8Array(bytes) }).getText()).text.replace(/\s+/g, ' ');
      const year = new Date().getUTCFullYear();
      expect(text).toContain(`W-${year}-${w.id}`);
      expect(text).toContain('ТОО Агентство');
      expect(text).toContain('990140001233');
      expect(text).toContain('KZ86125KZT5004100100');
      expect(text).toContain('Тридцать тысяч тенге 00 тиын');
      expect(text).toContain('PP-77');
      // ACT_SAMPLE_DIR=dir keeps the act for looking at it (docs/images/act-sample.png was made so).
      if (process.env.ACT_SAMPLE_DIR) writeFileSync(`${process.env.ACT_SAMPLE_DIR}/act-sample.pdf`, bytes);
      // Another partner cannot read it.
      const other = await richPartner(0);
      expect((await as(other, 'GET', `/partner/withdrawals/${w.id}/act`)).statusCode).toBe(404);
      await invariant(p.partnerId);
    },
  );
});
