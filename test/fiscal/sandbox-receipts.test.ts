// Fiscal receipts in test mode (decisions 27), through HTTP against the store: the sandbox register's set-up,
// a sale receipt for every paid operation with exactly its lines, a return receipt for every completed refund
// carrying its sale as basis, the payment's `receipt`, tenant isolation, and the recovery rules the sandbox
// shares with the real services (a lost answer, a 24-hour shift, a return before its sale's receipt).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiError } from '../helpers/api.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { idem, newMerchant, type Merchant } from '../helpers/factories.ts';
import { issueReceipts, newRegister } from '../helpers/fiscal.ts';
import { newMember } from '../helpers/actors.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function paidQr(m: Merchant, body: Record<string, unknown>) {
  const c = api(t.app, { apiKey: m.testKey });
  const qr = await c.post('/v2/qr', { body: body as never, headers: idem() });
  expect(qr.status).toBe(201);
  const id = (qr.body as { operation_id: string }).operation_id;
  expect((await c.post(`/v2/test/payments/${id}/pay`, { body: {} })).status).toBe(200);
  return id;
}

const receiptsOf = async (m: Merchant, opId: string) =>
  (await api(t.app, { apiKey: m.testKey }).get(`/v2/receipts?operation_id=${opId}`)).body.data;

describe('sandbox registers', () => {
  it('sets up a test register, never shows credentials, refuses the sandbox in live mode', async () => {
    const m = await newMerchant(t.app);
    const g = await newRegister(t, m, { vat_payer: true });
    expect(g).toMatchObject({ driver: 'sandbox', mode: 'test', status: 'active', vat_rate_bps: 1600, auto: true });
    expect(g.id).toMatch(/^fr_/);
    expect(g.register.registration_number).toMatch(/^\d{12}$/);
    expect(JSON.stringify(g)).not.toContain('credentials');
    const live = await api(t.app, m).post('/me/fiscal/registers', {
      body: { driver: 'sandbox', credentials: {}, register_number: 'X1' },
    });
    expect(apiError(live)).toMatchObject({ code: 'invalid_parameter', param: 'driver' });
    const extra = await api(t.app, m).post('/me/fiscal/registers?mode=test', {
      body: { driver: 'sandbox', credentials: { login: 'x' }, register_number: 'X2' },
    });
    expect(apiError(extra)).toMatchObject({ code: 'invalid_parameter', param: 'credentials.login' });
    const again = await api(t.app, m).post('/me/fiscal/registers?mode=test', {
      body: { driver: 'sandbox', credentials: {}, register_number: g.register_number },
    });
    expect(apiError(again).code).toBe('fiscal_register_exists');
    const list = (await api(t.app, m).get('/me/fiscal/registers?mode=test')).body;
    expect(list.data.map((x) => x.id)).toEqual([g.id]);
    // Another client sees none of it.
    const other = await newMerchant(t.app);
    expect((await api(t.app, other).get(`/me/fiscal/registers/${g.id}?mode=test`)).status).toBe(404);
    expect((await api(t.app, other).get('/me/fiscal/registers?mode=test')).body.data).toEqual([]);
  });

  it('a viewer reads registers but cannot set one up; an accountant closes the shift', async () => {
    const m = await newMerchant(t.app);
    const g = await newRegister(t, m);
    const viewer = await newMember(t.app, m, 'viewer');
    expect((await api(t.app, viewer).get(`/me/fiscal/registers/${g.id}?mode=test`)).status).toBe(200);
    const denied = await api(t.app, viewer).post('/me/fiscal/registers?mode=test', {
      body: { driver: 'sandbox', credentials: {}, register_number: 'V1' },
    });
    expect(apiError(denied).code).toBe('forbidden_role');
    const accountant = await newMember(t.app, m, 'accountant');
    const z = await api(t.app, accountant).post(`/me/fiscal/registers/${g.id}/close-shift?mode=test`, { body: {} });
    expect(z.status).toBe(200);
    expect(z.body.shift).toBeNull();
  });
});

describe('sale and return receipts', () => {
  it('a paid QR with items gets one sale receipt with exactly its lines and VAT; the payment shows it', async () => {
    const m = await newMerchant(t.app);
    await newRegister(t, m, { vat_payer: true, vat_rate_bps: 1600 });
    const op = await paidQr(m, {
      amount: 2500,
      items: [
        { name: 'Кофе', price: 1000, quantity: 2 },
        { name: 'Круассан', price: 500 },
      ],
    });
    const [pending] = await receiptsOf(m, op);
    expect(pending).toMatchObject({ kind: 'sale', status: 'pending', amount: 2500, payment_type: 'mobile' });
    await issueReceipts(t);
    await issueReceipts(t);
    const receipts = await receiptsOf(m, op);
    expect(receipts).toHaveLength(1);
    const r = receipts[0];
    expect(r).toMatchObject({ status: 'issued', offline: false, error: null, shift_number: 1 });
    expect(r.fiscal_sign).toMatch(/^\d+$/);
    expect(r.items).toEqual([
      expect.objectContaining({ name: 'Кофе', price: 1000, quantity: 2, total: 2000, vat_rate_bps: 1600 }),
      expect.objectContaining({ name: 'Круассан', price: 500, quantity: 1, total: 500, unit_code: 796 }),
    ]);
    expect(r.check_url).toContain('/fiscal/check?');
    const detail = (await api(t.app, { apiKey: m.testKey }).get(`/v2/qr/${op}`)).body;
    expect(detail.receipt).toEqual({ id: r.id, status: 'issued', check_url: r.check_url });
    const one = await api(t.app, { apiKey: m.testKey }).get(`/v2/receipts/${r.id}`);
    expect(one.body.id).toBe(r.id);
    // The journal has receipt.issued, once.
    const events = (await api(t.app, { apiKey: m.testKey }).get('/v2/events?type=receipt.issued')).body.data;
    expect(events.filter((e) => (e.data as { receipt_id: string }).receipt_id === r.id)).toHaveLength(1);
    // Another client cannot read it.
    const other = await newMerchant(t.app);
    expect((await api(t.app, { apiKey: other.testKey }).get(`/v2/receipts/${r.id}`)).status).toBe(404);
  });

  it('without items, one line: the default name and the comment; no VAT for a non-payer', async () => {
    const m = await newMerchant(t.app);
    await newRegister(t, m, { default_item_name: 'Оплата' });
    const op = await paidQr(m, { amount: 700, comment: 'Столик 4' });
    await issueReceipts(t);
    const [r] = await receiptsOf(m, op);
    expect(r.items).toEqual([
      expect.objectContaining({ name: 'Оплата: Столик 4', price: 700, quantity: 1, total: 700, vat_rate_bps: null }),
    ]);
  });

  it('a refund gets a return receipt after its sale, with the sale as basis; no register, no receipts', async () => {
    const m = await newMerchant(t.app);
    await newRegister(t, m);
    const op = await paidQr(m, { amount: 3000 });
    const c = api(t.app, { apiKey: m.testKey });
    expect((await c.post('/v2/refunds', { body: { operation_id: op, amount: 1200 }, headers: idem() })).status).toBe(
      201,
    );
    // The return was owed before the sale was issued: it waits for it, then goes out in the same worker run.
    await issueReceipts(t);
    const all = await receiptsOf(m, op);
    expect(all.map((x) => [x.kind, x.status, x.amount])).toEqual([
      ['return', 'issued', 1200],
      ['sale', 'issued', 3000],
    ]);
    const events = (await c.get('/v2/events?type=receipt.issued')).body.data;
    expect(events).toHaveLength(2);
    const bare = await newMerchant(t.app);
    const op2 = await paidQr(bare, { amount: 500 });
    expect(await receiptsOf(bare, op2)).toEqual([]);
  });

  it('a retry of a receipt that is not failed is 409; a wrong id is 404', async () => {
    const m = await newMerchant(t.app);
    await newRegister(t, m);
    const op = await paidQr(m, { amount: 100 });
    const [r] = await receiptsOf(m, op);
    const c = api(t.app, { apiKey: m.testKey });
    expect(apiError(await c.post(`/v2/receipts/${r.id}/retry`, { body: {} })).code).toBe('receipt_not_failed');
    expect(apiError(await c.post('/v2/receipts/rc_nope/retry', { body: {} })).code).toBe('receipt_not_found');
  });
});

describe('recovery rules', () => {
  it('a lost answer: the register made the receipt, Tolem looks it up and does not make a second', async () => {
    const m = await newMerchant(t.app);
    const g = await newRegister(t, m);
    const op = await paidQr(m, { amount: 900 });
    const [r] = await receiptsOf(m, op);
    // What a crash between the register's answer and our commit leaves: the register has it, we had sent it.
    const deps = t.runtime.deps;
    const driver = deps.fiscal.driver('sandbox', {
      registerId: g.id,
      registerNumber: g.register_number,
      credentials: {},
    });
    const made = await driver.issue(
      {},
      {
        externalNumber: r.id,
        kind: 'sale',
        lines: [
          {
            name: 'Оплата',
            price: 900,
            quantity: 1,
            total: 900,
            unitCode: 796,
            sectionCode: null,
            ntin: null,
            gtin: null,
            vatRateBps: null,
            positionType: 'goods',
          },
        ],
        total: 900,
        paymentType: 'mobile',
        basis: null,
        customerEmail: null,
        customerPhone: null,
        at: new Date(),
      },
    );
    await deps.db.query('UPDATE fiscal_receipts SET sent_at = now() WHERE id = $1', [r.id]);
    await issueReceipts(t);
    const [after] = await receiptsOf(m, op);
    expect(after).toMatchObject({ status: 'issued', fiscal_sign: made.fiscalSign });
    const n = await deps.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM fiscal_sandbox_receipts WHERE register_id = $1',
      [g.id],
    );
    expect(n.rows[0].n).toBe(1);
  });

  it('a shift open for 24 hours is closed (Z-report) before the next receipt, which opens the next', async () => {
    const m = await newMerchant(t.app);
    const g = await newRegister(t, m);
    await paidQr(m, { amount: 400 });
    await issueReceipts(t);
    // Moves the register's shift back a day, at the register and in Tolem's view of it.
    const deps = t.runtime.deps;
    await deps.db.query(
      `UPDATE fiscal_sandbox_registers SET shift_opened_at = now() - interval '25 hours' WHERE register_id = $1`,
      [g.id],
    );
    await deps.db.query(`UPDATE fiscal_registers SET shift_opened_at = now() - interval '25 hours' WHERE id = $1`, [
      g.id,
    ]);
    const op = await paidQr(m, { amount: 600 });
    await issueReceipts(t);
    const [r] = await receiptsOf(m, op);
    expect(r).toMatchObject({ status: 'issued', shift_number: 2 });
    const shifts = (await api(t.app, m).get(`/me/fiscal/registers/${g.id}/shifts?mode=test`)).body.data;
    expect(shifts[0]).toMatchObject({ number: 2, closed_at: null });
    expect(shifts[1]).toMatchObject({ number: 1, z_report: { sale_count: 1, sale_total: 400, return_count: 0 } });
  });

  it('an issued receipt brings an offline register back to active; one teaching nothing leaves its row', async () => {
    const m = await newMerchant(t.app);
    const g = await newRegister(t, m);
    const db = t.runtime.deps.db;
    const register = async () => (await api(t.app, m).get(`/me/fiscal/registers/${g.id}?mode=test`)).body;
    const updatedAt = async () =>
      (await db.query<{ u: Date }>('SELECT updated_at AS u FROM fiscal_registers WHERE id = $1', [g.id])).rows[0].u;
    await paidQr(m, { amount: 300 });
    await issueReceipts(t);
    expect(await register()).toMatchObject({ status: 'active', shift: { number: 1 } });
    // The register was seen offline (a receipt made while the OFD was unreachable, say); the next one is not.
    await db.query(`UPDATE fiscal_registers SET status = 'offline' WHERE id = $1`, [g.id]);
    await paidQr(m, { amount: 400 });
    await issueReceipts(t);
    expect(await register()).toMatchObject({ status: 'active', shift: { number: 1 } });
    const before = await updatedAt();
    await paidQr(m, { amount: 500 });
    await issueReceipts(t);
    const receipts = (await api(t.app, { apiKey: m.testKey }).get('/v2/receipts?status=issued')).body.data;
    expect(receipts).toHaveLength(3);
    expect(await register()).toMatchObject({ status: 'active', shift: { number: 1 } });
    expect(await updatedAt()).toEqual(before);
  });

  it('a return waits while its sale has no receipt', async () => {
    const m = await newMerchant(t.app);
    await newRegister(t, m);
    const op = await paidQr(m, { amount: 2000 });
    const deps = t.runtime.deps;
    // The sale's receipt is held back (a back-off), so the return comes due first.
    await deps.db.query(
      `UPDATE fiscal_receipts SET next_attempt_at = now() + interval '1 hour' WHERE operation_id = $1`,
      [op],
    );
    const c = api(t.app, { apiKey: m.testKey });
    await c.post('/v2/refunds', { body: { operation_id: op, amount: 500 }, headers: idem() });
    await issueReceipts(t);
    let ret = (await receiptsOf(m, op)).find((x) => x.kind === 'return')!;
    expect(ret).toMatchObject({ status: 'pending', error: { code: 'awaiting_sale' } });
    await deps.db.query(`UPDATE fiscal_receipts SET next_attempt_at = now() WHERE operation_id = $1`, [op]);
    await issueReceipts(t);
    ret = (await receiptsOf(m, op)).find((x) => x.kind === 'return')!;
    expect(ret.status).toBe('issued');
  });
});

describe('APP_SECRET rotation', () => {
  it("reseal re-seals a register's credentials and session; the register keeps issuing", async () => {
    const { resealFiscalCredentials } = await import('../../src/domain/fiscal/reseal.ts');
    const { makeSealer } = await import('../../src/secrets.ts');
    const m = await newMerchant(t.app);
    const g = await newRegister(t, m);
    const deps = t.runtime.deps;
    const { rows } = await deps.db.query<{ client_id: number }>(
      'SELECT client_id FROM fiscal_registers WHERE id = $1',
      [g.id],
    );
    const clientId = rows[0].client_id;
    const read = async () =>
      (
        await deps.db.query<{ c: string; s: string }>(
          'SELECT credentials_sealed AS c, session_sealed AS s FROM fiscal_registers WHERE id = $1',
          [g.id],
        )
      ).rows[0];
    const before = await read();
    const own = deps.config.appSecret ?? 'test-app-secret';
    const other = 'rotated-app-secret'.padEnd(48, 'r');
    const rotated = makeSealer(other, [own]);
    expect(rotated.isCurrent(before.c)).toBe(false);
    expect(await resealFiscalCredentials(deps.db, rotated, clientId)).toBe(1);
    const after = await read();
    expect(rotated.isCurrent(after.c) && rotated.isCurrent(after.s)).toBe(true);
    expect(rotated.open(after.c)).toBe(deps.secrets.sealer.open(before.c));
    expect(await resealFiscalCredentials(deps.db, rotated, clientId)).toBe(0);
    // Back to the store's own key, as the app runs with it; the register then issues as before.
    await resealFiscalCredentials(deps.db, makeSealer(own, [other]), clientId);
    const op = await paidQr(m, { amount: 300 });
    await issueReceipts(t);
    expect((await receiptsOf(m, op))[0].status).toBe('issued');
  });
});
