// The money paths with receipts on (decisions 27, #43): QR, invoice, payment link, v1, refunds in part and by
// items, run with a cash register per merchant: the sandbox register in test mode, and in live mode (the qrapi
// driver against the provider's emulator) a Webkassa register and a reKassa register at the fiscal emulator.
// Each path ends in the same check: every paid operation of the merchant has exactly one issued sale receipt,
// every completed refund exactly one issued return receipt, with the lines, VAT and payment type the register
// and the payment say; and the register itself holds exactly as many receipts (nothing doubled at the service).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/api.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { idem, newMerchant } from '../helpers/factories.ts';
import { issueReceipts, newRegister } from '../helpers/fiscal.ts';
import { pay } from '../helpers/payments.ts';
import { fiscalWorld, heldAt } from '../helpers/fiscal-world.ts';
import { Browser, createLink } from '../links/helpers.ts';
import { v1Idem, dataOf } from '../v1/helpers.ts';
import { pollWatchedQrs } from '../../src/domain/payments/watch.ts';

interface World {
  t: TestApp;
  /** a merchant of the mode under test with a register: its API key and the register's id */
  merchant(): Promise<{ key: string; access: string; registerId: string; registerNumber: string }>;
  customerPays(opId: string, apiKey: string): Promise<void>;
  /** the receipts the register itself holds (the service's count, not Tolem's) */
  registerHolds(registerNumber: string, registerId: string): Promise<number>;
  close(): Promise<void>;
}

async function sandboxWorld(): Promise<World> {
  const t = await buildTestApp();
  return {
    t,
    async merchant() {
      const m = await newMerchant(t.app);
      const g = await newRegister(t, m, { vat_payer: true });
      return { key: m.testKey, access: m.access, registerId: g.id, registerNumber: g.register_number };
    },
    customerPays: async (opId, key) => void (await pay(t.app, key, opId)),
    async registerHolds(_n, registerId) {
      const r = await t.runtime.deps.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM fiscal_sandbox_receipts WHERE register_id = $1',
        [registerId],
      );
      return r.rows[0].n;
    },
    close: () => t.close(),
  };
}

async function liveWorld(driver: 'webkassa' | 'rekassa'): Promise<World> {
  const w = await fiscalWorld(driver);
  const t = w.t;
  return {
    t,
    async merchant() {
      const m = await w.merchant();
      return { key: m.liveKey, access: m.access, registerId: m.registerId, registerNumber: m.unique };
    },
    async customerPays(opId) {
      const type = (
        await t.runtime.deps.db.query<{ type: string }>('SELECT type FROM operations WHERE id = $1', [opId])
      ).rows[0].type;
      await w.qrapi.customer('scan', opId);
      await w.qrapi.customer('confirm', opId);
      if (type === 'qr') {
        await t.runtime.deps.db.query('UPDATE operations SET next_poll_at = now() WHERE id = $1', [opId]);
        await pollWatchedQrs(t.runtime.deps, { batch: 100, perAccount: 100 });
      }
    },
    registerHolds: async (unique) => (await heldAt(w, unique)).length,
    close: () => w.close(),
  };
}

describe.each([
  ['sandbox (test mode)', sandboxWorld],
  ['webkassa at the fiscal emulator (live)', () => liveWorld('webkassa')],
  ['rekassa at the fiscal emulator (live)', () => liveWorld('rekassa')],
] as const)('money paths with receipts: %s', (_name, make) => {
  let w: World;
  beforeAll(async () => {
    w = await make();
  }, 60_000);
  afterAll(() => w?.close());
  const byKey = (key: string) => api(w.t.app, { apiKey: key });

  /** Every paid operation and completed refund of the merchant has exactly one issued receipt, and no more. */
  async function expectReceiptsComplete(m: { key: string; registerId: string; registerNumber: string }) {
    await issueReceipts(w.t);
    const db = w.t.runtime.deps.db;
    const { rows } = await db.query<{ op: string; status: string; sales: number; issued: number }>(
      `SELECT o.id AS op, o.status,
              (SELECT count(*)::int FROM fiscal_receipts r WHERE r.operation_id = o.id AND r.kind = 'sale') AS sales,
              (SELECT count(*)::int FROM fiscal_receipts r
                WHERE r.operation_id = o.id AND r.kind = 'sale' AND r.status = 'issued') AS issued
         FROM operations o JOIN fiscal_registers g ON g.client_id = o.client_id AND g.mode = o.mode
        WHERE g.id = $1 AND o.status IN ('paid', 'partially_refunded', 'refunded')`,
      [m.registerId],
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect([r.op, r.sales, r.issued]).toEqual([r.op, 1, 1]);
    const refunds = await db.query<{ id: string; returns: number; issued: number }>(
      `SELECT f.id, (SELECT count(*)::int FROM fiscal_receipts r WHERE r.refund_id = f.id) AS returns,
              (SELECT count(*)::int FROM fiscal_receipts r WHERE r.refund_id = f.id AND r.status = 'issued') AS issued
         FROM refunds f JOIN fiscal_registers g ON g.client_id = f.client_id AND g.mode = f.mode
        WHERE g.id = $1 AND f.status = 'completed'`,
      [m.registerId],
    );
    for (const r of refunds.rows) expect([r.id, r.returns, r.issued]).toEqual([r.id, 1, 1]);
    const ours = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM fiscal_receipts WHERE register_id = $1',
      [m.registerId],
    );
    expect(await w.registerHolds(m.registerNumber, m.registerId)).toBe(ours.rows[0].n);
  }

  const receiptsOf = async (key: string, opId: string) =>
    (await byKey(key).get(`/v2/receipts?operation_id=${opId}`)).body.data;

  it('a QR with items: the sale lists them with VAT; a refund by items returns exactly those lines', async () => {
    const m = await w.merchant();
    const created = await byKey(m.key).post('/v2/qr', {
      body: {
        amount: 4640,
        items: [
          { name: 'Кофе латте', price: 1160, quantity: 3, vat_rate_bps: 1600 },
          { name: 'Чизкейк', price: 1160, ntin: '0200000000017', position_type: 'goods' },
        ],
      } as never,
      headers: idem(),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const opId = (created.body as { operation_id: string }).operation_id;
    await w.customerPays(opId, m.key);
    const refund = await byKey(m.key).post('/v2/refunds', {
      body: { operation_id: opId, items: [{ index: 0, quantity: 1 }] } as never,
      headers: idem(),
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    await expectReceiptsComplete(m);
    const all = await receiptsOf(m.key, opId);
    const sale = all.find((r) => r.kind === 'sale')!;
    expect(sale).toMatchObject({ status: 'issued', amount: 4640, payment_type: 'mobile' });
    expect(sale.items.map((l) => [l.name, l.price, l.quantity, l.total, l.vat_rate_bps])).toEqual([
      ['Кофе латте', 1160, 3, 3480, 1600],
      ['Чизкейк', 1160, 1, 1160, 1600],
    ]);
    expect(sale.fiscal_sign).toBeTruthy();
    expect(sale.check_url).toMatch(/^https?:\/\//);
    const ret = all.find((r) => r.kind === 'return')!;
    expect(ret).toMatchObject({ status: 'issued', amount: 1160, payment_type: 'mobile' });
    expect(ret.items.map((l) => [l.name, l.quantity, l.total])).toEqual([['Кофе латте', 1, 1160]]);
  });

  it('an invoice and refunds in parts: one sale, one return per refund', async () => {
    const m = await w.merchant();
    const inv = await byKey(m.key).post('/v2/invoices', {
      body: { phone: '+77012345678', amount: 3000, comment: 'Доставка' } as never,
      headers: idem(),
    });
    expect(inv.status, JSON.stringify(inv.body)).toBe(201);
    const opId = (inv.body as { operation_id: string }).operation_id;
    await w.customerPays(opId, m.key);
    expect((await byKey(m.key).get(`/v2/invoices/${opId}`)).body.status).toBe('paid');
    for (const amount of [1000, 2000])
      expect(
        (await byKey(m.key).post('/v2/refunds', { body: { operation_id: opId, amount }, headers: idem() })).status,
      ).toBe(201);
    await expectReceiptsComplete(m);
    const all = await receiptsOf(m.key, opId);
    expect(all.map((r) => [r.kind, r.amount]).sort(), JSON.stringify(all)).toEqual([
      ['return', 1000],
      ['return', 2000],
      ['sale', 3000],
    ]);
    const sale = all.find((r) => r.kind === 'sale')!;
    expect(sale.items).toEqual([
      expect.objectContaining({ name: 'Оплата: Доставка', total: 3000, vat_rate_bps: 1600 }),
    ]);
    expect((await byKey(m.key).get(`/v2/invoices/${opId}`)).body.receipt).toMatchObject({
      id: sale.id,
      status: 'issued',
    });
  });

  it('a payment link paid through its checkout carries the link items to the receipt', async () => {
    const m = await w.merchant();
    const link = await createLink(w.t.app, m.key, {
      amount: 2000,
      items: [{ name: 'Билет', price: 1000, quantity: 2, position_type: 'service', unit_code: 5114 }],
    });
    const b = new Browser(w.t.app);
    expect((await b.get(`/checkout/${link.token}`)).statusCode).toBe(200);
    const opId = (await b.get(`/v2/checkout/${link.token}/status`)).json().operation_id as string;
    expect(opId).toMatch(/^op_/);
    await w.customerPays(opId, m.key);
    await expectReceiptsComplete(m);
    const [sale] = await receiptsOf(m.key, opId);
    expect(sale.items).toEqual([
      expect.objectContaining({ name: 'Билет', quantity: 2, total: 2000, unit_code: 5114, position_type: 'service' }),
    ]);
  });

  it('a v1 QR paid gets its receipt like any other', async () => {
    const m = await w.merchant();
    const data = dataOf(await v1Idem(w.t.app, '/v1/qr/create', m.key, { amount: 1234 }));
    expect(data).toBeTruthy();
    const op = (await byKey(m.key).get('/v2/payments?limit=5')).body.data.find((p) => p.amount === 1234)!;
    await w.customerPays(op.operation_id, m.key);
    await expectReceiptsComplete(m);
    const [sale] = await receiptsOf(m.key, op.operation_id);
    expect(sale).toMatchObject({ kind: 'sale', amount: 1234, status: 'issued' });
  });
});
