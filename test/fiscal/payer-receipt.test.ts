// The payer gets the receipt (decisions 27), through HTTP: the hosted checkout's status and page and the
// payer page carry the check link once the sale receipt is issued (never before, never to someone who only
// holds a one-time link), and a payer e-mail the checkout knows gets the link once, by the outbox, with the
// receipt's customer e-mail set for the cash register too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/api.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { key, newMerchant, type Merchant } from '../helpers/factories.ts';
import { issueReceipts, newRegister } from '../helpers/fiscal.ts';
import { createQr, pay } from '../helpers/payments.ts';
import { Browser, createLink } from '../links/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const receiptOf = async (m: Merchant, opId: string) =>
  (await api(t.app, { apiKey: m.testKey }).get(`/v2/receipts?operation_id=${opId}`)).body.data[0];

const receiptMails = async (clientEmail: string) =>
  (
    await t.runtime.deps.db.query<{ recipient: string; subject: string; body: string }>(
      `SELECT recipient, subject, body FROM outbox_messages
        WHERE purpose = 'fiscal_receipt' AND client_id = (SELECT client_id FROM users WHERE email = $1)
        ORDER BY id`,
      [clientEmail],
    )
  ).rows;

/** The href of the page's "Check the receipt" link, or null while it is hidden. */
function receiptHref(html: string): string | null {
  const a = /<a class="receipt-link" id="receipt-link"[^>]*>/.exec(html);
  expect(a, 'the page has the receipt link element').not.toBeNull();
  if (a![0].includes(' hidden')) return null;
  return /href="([^"]*)"/.exec(a![0])![1].replaceAll('&amp;', '&');
}

describe('the hosted checkout', () => {
  it('shows the check link in its status and page only once the receipt is issued', async () => {
    const m = await newMerchant(t.app);
    await newRegister(t, m);
    const link = await createLink(t.app, m.testKey);
    const payer = new Browser(t.app);
    const page = await payer.get(`/checkout/${link.token}?lang=en`);
    expect(page.statusCode).toBe(200);
    expect(receiptHref(page.body)).toBeNull();
    const op = (await payer.get(`/v2/checkout/${link.token}`)).json().qr.operation_id as string;
    const status = async (withOp = true) =>
      (await payer.get(`/v2/checkout/${link.token}/status${withOp ? `?op=${op}` : ''}`)).json();
    expect(await status()).toMatchObject({ status: 'created', check_url: null });
    expect((await payer.post(`/v2/checkout/${link.token}/simulate-payment`, {})).json()).toMatchObject({
      status: 'paid',
      check_url: null,
    });
    // Paid, the receipt still pending at the register: no link yet.
    expect((await receiptOf(m, op)).status).toBe('pending');
    expect(await status()).toMatchObject({ status: 'paid', check_url: null });
    expect(receiptHref((await payer.get(`/checkout/${link.token}?op=${op}&lang=en`)).body)).toBeNull();
    await issueReceipts(t);
    const r = await receiptOf(m, op);
    expect(r.status).toBe('issued');
    expect(r.check_url).toContain('/fiscal/check?');
    expect(await status()).toMatchObject({ status: 'paid', operation_id: op, check_url: r.check_url });
    // Whoever holds a one-time link sees its payment's status, not the payer's receipt.
    expect(await status(false)).toMatchObject({ status: 'paid', operation_id: op, check_url: null });
    const paidPage = await payer.get(`/checkout/${link.token}?op=${op}&lang=en`);
    expect(receiptHref(paidPage.body)).toBe(r.check_url);
    expect(paidPage.body).toContain('>Check the receipt</a>');
    expect((await payer.get(`/checkout/${link.token}?op=${op}&lang=kk`)).body).toContain('>Чекті қарау</a>');
    expect((await payer.get(`/checkout/${link.token}?op=${op}`)).body).toContain('>Посмотреть чек</a>');
  });

  it('a payer e-mail the checkout knows gets the check link once; the receipt carries it', async () => {
    const m = await newMerchant(t.app);
    await newRegister(t, m);
    const link = await createLink(t.app, m.testKey, { email_required: true });
    const payer = new Browser(t.app);
    const opened = await payer.post(`/v2/checkout/${link.token}/email`, { email: 'Aigerim@Mail.kz' });
    expect(opened.statusCode).toBe(200);
    const op = opened.json().qr.operation_id as string;
    expect((await payer.post(`/v2/checkout/${link.token}/simulate-payment`, {})).statusCode).toBe(200);
    const pending = await t.runtime.deps.db.query<{ customer_email: string | null }>(
      `SELECT customer_email FROM fiscal_receipts WHERE operation_id = $1`,
      [op],
    );
    // Set when the receipt is owed, so the cash register gets it with the receipt.
    expect(pending.rows).toEqual([{ customer_email: 'Aigerim@Mail.kz' }]);
    // Nothing is sent before the receipt exists.
    expect(await receiptMails(m.email)).toEqual([]);
    await issueReceipts(t);
    const r = await receiptOf(m, op);
    expect(r.status).toBe('issued');
    const mails = await receiptMails(m.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].recipient).toBe('Aigerim@Mail.kz');
    expect(mails[0].subject).toContain('Фискальный чек');
    expect(mails[0].body).toContain(r.check_url);
    expect(mails[0].body).toContain(`ФП ${r.fiscal_sign}`);
    // Another pass of the worker, or a second issue attempt, sends nothing more.
    await issueReceipts(t);
    expect(await receiptMails(m.email)).toHaveLength(1);
  });

  it('no e-mail known: the receipt has no customer and nobody is mailed', async () => {
    const m = await newMerchant(t.app);
    await newRegister(t, m);
    const link = await createLink(t.app, m.testKey);
    const payer = new Browser(t.app);
    const op = (await payer.get(`/v2/checkout/${link.token}`)).json().qr.operation_id as string;
    await payer.post(`/v2/checkout/${link.token}/simulate-payment`, {});
    await issueReceipts(t);
    expect((await receiptOf(m, op)).status).toBe('issued');
    const row = await t.runtime.deps.db.query('SELECT customer_email FROM fiscal_receipts WHERE operation_id = $1', [
      op,
    ]);
    expect(row.rows).toEqual([{ customer_email: null }]);
    expect(await receiptMails(m.email)).toEqual([]);
  });
});

describe('POST /v2/receipts/{id}/send', () => {
  it("sends an issued receipt's check link by e-mail or SMS; not a pending one, not both at once", async () => {
    const m = await newMerchant(t.app);
    await newRegister(t, m);
    const qr = await createQr(t.app, m.testKey, 1200);
    await pay(t.app, m.testKey, qr.operation_id);
    const c = api(t.app, { apiKey: m.testKey });
    const pending = await receiptOf(m, qr.operation_id);
    const early = await c.post(`/v2/receipts/${pending.id}/send`, { body: { email: 'buyer@mail.kz' } });
    expect(early.status).toBe(400);
    await issueReceipts(t);
    const r = await receiptOf(m, qr.operation_id);
    const both = await c.post(`/v2/receipts/${r.id}/send`, { body: { email: 'buyer@mail.kz', phone: '87011234567' } });
    expect(both.status).toBe(400);
    const mail = await c.post(`/v2/receipts/${r.id}/send`, { body: { email: 'buyer@mail.kz' } });
    expect(mail.status).toBe(202);
    expect(mail.body).toEqual({ receipt_id: r.id, channel: 'email', recipient: 'buyer@mail.kz' });
    const sms = await c.post(`/v2/receipts/${r.id}/send`, { body: { phone: '8 701 123 45 67' } });
    expect(sms.status).toBe(202);
    const sent = await t.runtime.deps.db.query<{ channel: string; subject: string | null; body: string }>(
      `SELECT channel, subject, body FROM outbox_messages
        WHERE purpose = 'fiscal_receipt' AND recipient IN ('buyer@mail.kz', $1) ORDER BY id`,
      [sms.body.recipient],
    );
    expect(sent.rows.map((x) => x.channel)).toEqual(['email', 'sms']);
    expect(sent.rows[0].subject).toBe('Фискальный чек / Фискалдық чек / Fiscal receipt 1200 ₸');
    expect(sent.rows[0].body).toContain(`ФП ${r.fiscal_sign}`);
    expect(sent.rows[0].body).toContain(r.check_url);
    expect(sent.rows[1]).toMatchObject({ subject: null, body: `Чек 1200 ₸: ${r.check_url}` });
  });
});

describe('the payer page', () => {
  it('carries the check link in its status and page once issued, not before; a refund keeps it', async () => {
    const m = await newMerchant(t.app);
    await newRegister(t, m);
    const qr = await createQr(t.app, m.testKey, 4200);
    const op = qr.operation_id as string;
    const statusOf = async () => (await t.app.inject({ method: 'GET', url: `/pay/${op}/status` })).json();
    const pageOf = async (lang = 'en') => (await t.app.inject({ method: 'GET', url: `/pay/${op}?lang=${lang}` })).body;
    expect(await statusOf()).toMatchObject({ status: 'created', check_url: null });
    expect(receiptHref(await pageOf())).toBeNull();
    await pay(t.app, m.testKey, op);
    expect(await statusOf()).toMatchObject({ status: 'paid', check_url: null });
    expect(receiptHref(await pageOf())).toBeNull();
    await issueReceipts(t);
    const r = await receiptOf(m, op);
    expect(r.status).toBe('issued');
    expect(await statusOf()).toMatchObject({ status: 'paid', check_url: r.check_url });
    const html = await pageOf();
    expect(receiptHref(html)).toBe(r.check_url);
    expect(html).toContain('>Check the receipt</a>');
    expect(await pageOf('ru')).toContain('>Посмотреть чек</a>');
    // A refunded payment keeps its sale receipt's link.
    const rf = await t.app.inject({
      method: 'POST',
      url: '/v2/refunds',
      headers: { ...key(m.testKey), 'idempotency-key': `rf-${op}` },
      payload: { operation_id: op, amount: 4200 },
    });
    expect(rf.statusCode).toBe(201);
    expect(await statusOf()).toMatchObject({ status: 'refunded', check_url: r.check_url });
  });

  it('a payment without a register has no receipt and no link', async () => {
    const m = await newMerchant(t.app);
    const qr = await createQr(t.app, m.testKey, 900);
    await pay(t.app, m.testKey, qr.operation_id);
    await issueReceipts(t);
    const s = (await t.app.inject({ method: 'GET', url: `/pay/${qr.operation_id}/status` })).json();
    expect(s).toMatchObject({ status: 'paid', check_url: null });
  });
});
