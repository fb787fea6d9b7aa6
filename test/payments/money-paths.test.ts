// The payment paths that matter for money, run the same way against the sandbox (test mode) and against
// the qrapi driver and the shipped emulator (live mode, r3 over client-certificate TLS): create, status,
// the paid webhook, refunds in parts, invoices, cancel, customer lookup, expiry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, idem, newMerchant } from '../helpers/factories.ts';
import { pay, expireAtProvider } from '../helpers/payments.ts';
import { qrapiWorld, type QrapiWorld } from '../helpers/qrapi.ts';
import { pollWatchedQrs } from '../../src/domain/payments/watch.ts';
import { api } from '../helpers/api.ts';
import { sweepExpired } from '../../src/jobs/expiry.ts';

interface Driver {
  t: TestApp;
  /** a merchant and the API key of the mode under test */
  merchant(): Promise<{ key: string; access: string }>;
  /** the customer pays in the provider's app; Tolem learns of it however the driver lets it */
  customerPays(opId: string, apiKey: string): Promise<void>;
  /** the provider's time for this payment runs out */
  runOut(opId: string): Promise<void>;
  close(): Promise<void>;
}

async function sandboxDriver(): Promise<Driver> {
  const t = await buildTestApp({ webhooksAllowPrivate: true });
  return {
    t,
    async merchant() {
      const m = await newMerchant(t.app);
      return { key: m.testKey, access: m.access };
    },
    async customerPays(opId, apiKey) {
      await pay(t.app, apiKey, opId);
    },
    runOut: (opId) => expireAtProvider(t, opId),
    close: () => t.close(),
  };
}

async function qrapiDriver(): Promise<Driver & { world: QrapiWorld }> {
  const world = await qrapiWorld();
  const t = world.t;
  return {
    t,
    world,
    async merchant() {
      const m = await world.liveMerchant('r3');
      return { key: m.liveKey, access: m.access };
    },
    async customerPays(opId) {
      const isQr =
        (await t.runtime.deps.db.query<{ type: string }>('SELECT type FROM operations WHERE id = $1', [opId])).rows[0]
          .type === 'qr';
      await world.customer('scan', opId);
      await world.customer('confirm', opId);
      // A QR is noticed by the watcher, with no read by the merchant; an invoice by the merchant's read.
      if (isQr) {
        await t.runtime.deps.db.query('UPDATE operations SET next_poll_at = now() WHERE id = $1', [opId]);
        await pollWatchedQrs(t.runtime.deps, { batch: 100, perAccount: 100 });
      }
    },
    async runOut() {
      // The emulator's clock, a day on: every QR and invoice of it has run out.
      world.emu.state.offsetMs += 24 * 3600_000 + 1000;
    },
    close: () => world.close(),
  };
}

describe.each([
  ['sandbox', sandboxDriver],
  ['qrapi + emulator', qrapiDriver],
] as const)('money paths: %s', (_name, make) => {
  let d: Driver;
  beforeAll(async () => {
    d = await make();
  }, 30_000);
  afterAll(() => d?.close());
  const byKey = (apiKey: string) => api(d.t.app, { apiKey });

  it('a QR is created, paid, journaled as payment.completed and queued for the webhook', async () => {
    const m = await d.merchant();
    await d.t.app.inject({
      method: 'POST',
      url: `/me/webhooks${m.key.startsWith('kp_test') ? '?mode=test' : ''}`,
      headers: bearer(m),
      payload: { url: 'http://127.0.0.1:9/hook', events: ['payment.completed'] },
    });
    const created = await byKey(m.key).post('/v2/qr', { body: { amount: 5000 }, headers: idem() });
    expect(created.status, created.raw.body).toBe(201);
    const opId = created.body.operation_id;
    expect((await byKey(m.key).get(`/v2/qr/${opId}`)).body.status).toBe('created');
    await d.customerPays(opId, m.key);
    const events = (await byKey(m.key).get('/v2/events?limit=10')).body.data;
    const done = events.find((e) => e.type === 'payment.completed' && e.data.operation_id === opId);
    expect(done, 'payment.completed in the journal').toBeDefined();
    const deliveries = await d.t.runtime.deps.db.query('SELECT 1 FROM webhook_deliveries WHERE event_id = $1', [
      done!.id,
    ]);
    expect(deliveries.rows).toHaveLength(1);
    expect((await byKey(m.key).get(`/v2/qr/${opId}`)).body).toMatchObject({ status: 'paid', amount: 5000 });
  });

  it('refunds in parts, never beyond the payment', async () => {
    const m = await d.merchant();
    const opId = (await byKey(m.key).post('/v2/qr', { body: { amount: 3000 }, headers: idem() })).body.operation_id;
    await d.customerPays(opId, m.key);
    const first = await byKey(m.key).post('/v2/refunds', {
      body: { operation_id: opId, amount: 1000 },
      headers: idem(),
    });
    expect(first.status, first.raw.body).toBe(201);
    expect(first.body).toMatchObject({ status: 'completed', refunded_total: 1000, remaining_refundable: 2000 });
    const over = await byKey(m.key).post('/v2/refunds', {
      body: { operation_id: opId, amount: 2500 },
      headers: idem(),
    });
    expect(over.status).toBe(400);
    expect(errorOf(over).code).toBe('refund_amount_exceeds');
    const rest = await byKey(m.key).post('/v2/refunds', {
      body: { operation_id: opId, amount: 2000 },
      headers: idem(),
    });
    expect(rest.status, rest.raw.body).toBe(201);
    expect(rest.body).toMatchObject({ status: 'completed', refunded_total: 3000, remaining_refundable: 0 });
    expect((await byKey(m.key).get(`/v2/qr/${opId}`)).body.status).toBe('refunded');
  });

  it('an invoice is pushed to a customer, paid, and seen paid on read; another is cancelled', async () => {
    const m = await d.merchant();
    const inv = await byKey(m.key).post('/v2/invoices', {
      body: { phone: '+77011234567', amount: 2000 },
      headers: idem(),
    });
    expect(inv.status, inv.raw.body).toBe(201);
    const opId = inv.body.operation_id;
    await d.customerPays(opId, m.key);
    expect((await byKey(m.key).get(`/v2/invoices/${opId}`)).body.status).toBe('paid');
    const other = (
      await byKey(m.key).post('/v2/invoices', { body: { phone: '+77011234567', amount: 700 }, headers: idem() })
    ).body.operation_id;
    const cancel = await byKey(m.key).post(`/v2/invoices/${other}/cancel`, { body: {}, headers: idem() });
    expect(cancel.status, cancel.raw.body).toBe(200);
    expect((await byKey(m.key).get(`/v2/invoices/${other}`)).body.status).toBe('cancelled');
  });

  it('looks customers up by phone: a customer, and a phone that is none (404)', async () => {
    const m = await d.merchant();
    const found = await byKey(m.key).get('/v2/client?phone=%2B77011234567');
    expect(found.status, found.raw.body).toBe(200);
    expect(found.body).toMatchObject({ exists: true });
    expect(typeof found.body.name).toBe('string');
    const none = await byKey(m.key).get('/v2/client?phone=%2B77012340000');
    expect(none.status).toBe(404);
    expect(errorOf(none).code).toBe('client_not_found');
    expect(
      (await byKey(m.key).post('/v2/invoices', { body: { phone: '+77012340000', amount: 100 }, headers: idem() }))
        .status,
    ).toBe(404);
  });

  it('a QR nobody pays expires, with payment.expired', async () => {
    const m = await d.merchant();
    const opId = (await byKey(m.key).post('/v2/qr', { body: { amount: 900 }, headers: idem() })).body.operation_id;
    await d.runOut(opId);
    await d.t.runtime.deps.db.query(`UPDATE operations SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      opId,
    ]);
    await sweepExpired(d.t.runtime.deps);
    expect((await byKey(m.key).get(`/v2/qr/${opId}`)).body.status).toBe('expired');
    const events = (await byKey(m.key).get('/v2/events?limit=5')).body.data;
    expect(events.some((e) => e.type === 'payment.expired' && e.data.operation_id === opId)).toBe(true);
  });
});
