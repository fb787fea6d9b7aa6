// The live driver as the provider's document describes it (decisions 26), against the emulator following
// the same document: refusals that are not outages, every date style, digit QR tokens with Tolem's payer
// page as deep_link, r2 refunds through the payer's return QR, the cancel that reads the status, r3's
// egress allow-list, installation-scoped devices, device deletion as a durable job, onboarding from idle.
import { api } from '../helpers/api.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { callAs, errorOf, idem, newMerchant } from '../helpers/factories.ts';
import { BIN, qrapiWorld, type QrapiWorld } from '../helpers/qrapi.ts';
import { pollReturns } from '../../src/domain/payments/refund-return.ts';
import { deleteReleasedDevices } from '../../src/domain/payments/device-deletion.ts';
import { retryPendingRefunds } from '../../src/jobs/refund-retry.ts';
import { pollWatchedQrs } from '../../src/domain/payments/watch.ts';
import { deliverAllDue } from '../../src/jobs/deliveries.ts';
import { startReceiver, type Receiver } from '../webhooks/helpers.ts';

let w: QrapiWorld;
let receiver: Receiver;
beforeAll(async () => {
  w = await qrapiWorld();
  receiver = await startReceiver();
}, 30_000);
afterAll(async () => {
  await w?.close();
  await receiver?.close();
});

const deps = () => w.t.runtime.deps;
const as = callAs(() => w.t.app);
const byKey = (apiKey: string) => api(w.t.app, { apiKey });
const base = () => deps().config.publicBaseUrl;

async function paidQr(m: { liveKey: string }, amount: number): Promise<string> {
  const res = await byKey(m.liveKey).post('/v2/qr', { body: { amount }, headers: idem() });
  expect(res.status, res.raw.body).toBe(201);
  const opId = res.body.operation_id as string;
  await w.customer('scan', opId);
  await w.customer('confirm', opId);
  expect((await byKey(m.liveKey).get(`/v2/qr/${opId}`)).body.status).toBe('paid');
  return opId;
}

/** The return watcher's pass, by hand, for one account's refunds made due now. */
async function pollReturnsNow(accountId: number): Promise<void> {
  // Moving time: the return QRs' next poll is due.
  await deps().db.query(
    `UPDATE refunds SET return_next_poll_at = now() WHERE return_next_poll_at IS NOT NULL
        AND operation_id IN (SELECT id FROM operations WHERE provider_account_id = $1)`,
    [accountId],
  );
  await pollReturns(deps(), {
    batch: 50,
    accounts: [accountId],
    onError: (err) => {
      throw err;
    },
  });
}

describe('refusals are not outages', () => {
  it(
    'twenty lookups and invoices refused with documented codes leave ' + 'the breaker closed, and the next QR is made',
    async () => {
      const m = await w.liveMerchant();
      // Phones ending 0000..0004: the emulator's customer-lookup codes -1401, -1404, 990000029, 990000031, 990000032.
      for (let i = 0; i < 10; i++) {
        const phone = `+7701123000${i % 5}`;
        const lookup = await byKey(m.liveKey).get(`/v2/client?phone=${encodeURIComponent(phone)}`);
        expect(lookup.status, lookup.raw.body).toBe(404);
        expect(errorOf(lookup).code).toBe('client_not_found');
        const invoice = await byKey(m.liveKey).post('/v2/invoices', { body: { phone, amount: 1000 }, headers: idem() });
        expect(invoice.status, invoice.raw.body).toBe(404);
        expect(errorOf(invoice).code).toBe('client_not_found');
      }
      const qr = await byKey(m.liveKey).post('/v2/qr', { body: { amount: 500 }, headers: idem() });
      expect(qr.status, qr.raw.body).toBe(201);
    },
  );

  it(
    "remote/create's own codes are named; a trade point refusing QR is " + '409, and the next payment still goes',
    async () => {
      const m = await w.liveMerchant();
      w.faults([{ path: 'remote/create', kind: 'code', code: -1404, times: 1 }]);
      expect(
        errorOf(
          await byKey(m.liveKey).post('/v2/invoices', {
            body: { phone: '+77011234567', amount: 900 },
            headers: idem(),
          }),
        ).code,
      ).toBe('client_not_found');
      // A phone ending 0010: remote/create answers 99000010, which the document lists without a meaning.
      const odd = await byKey(m.liveKey).post('/v2/invoices', {
        body: { phone: '+77011230010', amount: 900 },
        headers: idem(),
      });
      expect(odd.status, odd.raw.body).toBe(409);
      expect(errorOf(odd)).toMatchObject({ code: 'provider_refused' });
      expect(errorOf(odd).message).toContain('99000010');
      w.faults([{ path: 'qr/create', kind: 'code', code: -990000026, times: 6 }]);
      for (let i = 0; i < 6; i++)
        expect(errorOf(await byKey(m.liveKey).post('/v2/qr', { body: { amount: 100 }, headers: idem() })).code).toBe(
          'provider_trade_point_refused',
        );
      expect((await byKey(m.liveKey).post('/v2/qr', { body: { amount: 100 }, headers: idem() })).status).toBe(201);
      // A code nobody documents: 502 naming it, and still no outage.
      w.faults([{ path: 'qr/create', kind: 'code', code: 4242, times: 6 }]);
      for (let i = 0; i < 6; i++) {
        const res = await byKey(m.liveKey).post('/v2/qr', { body: { amount: 100 }, headers: idem() });
        expect(res.status).toBe(502);
        expect(errorOf(res).message).toContain('4242');
      }
      expect((await byKey(m.liveKey).post('/v2/qr', { body: { amount: 100 }, headers: idem() })).status).toBe(201);
    },
  );

  it("an outage storm on lookups still opens the account's breaker", async () => {
    const m = await w.liveMerchant();
    w.faults([{ path: 'remote/client-info', kind: 'code', code: -999 }]);
    try {
      for (let i = 0; i < 2; i++)
        expect((await byKey(m.liveKey).get('/v2/client?phone=%2B77011234567')).status).toBe(502);
      const calls = w.emu.state.requests.length;
      const qr = await byKey(m.liveKey).post('/v2/qr', { body: { amount: 100 }, headers: idem() });
      expect(qr.status).toBe(502);
      expect(errorOf(qr).message).toMatch(/not answering/);
      expect(w.emu.state.requests.length, 'no call while open').toBe(calls);
    } finally {
      w.faults([]);
    }
  });

  it('-1503 at onboarding is 409 provider_device_conflict', async () => {
    const m = await newMerchant(w.t.app);
    const r3 = {
      scheme: 'r3',
      certificate_pfx_base64: readFileSync(w.emu.clientPfx).toString('base64'),
      password: w.emu.clientPassword,
    };
    expect((await as(m, 'POST', '/onboarding/provider/start', { org_bin: BIN, credentials: r3 })).statusCode).toBe(200);
    w.faults([{ path: 'device/register', kind: 'code', code: -1503, times: 1 }]);
    const v = await as(m, 'POST', '/onboarding/provider/verify', { trade_point_id: 1 });
    expect(v.statusCode, v.body).toBe(409);
    expect(errorOf(v).code).toBe('provider_device_conflict');
  });
});

describe('every date style of the document', () => {
  for (const style of ['doc', 'offset', 'local', 'vary'] as const) {
    it(
      `${style}: QR, watcher and paid webhook with its transaction id, ` + `refunds on r3 and r2, invoice and cancel`,
      async () => {
        await w.control('date-style', { style });
        try {
          const m = await w.liveMerchant();
          await as(m, 'POST', '/me/webhooks', { url: `${receiver.url}/${style}`, events: ['payment.completed'] });
          for (let i = 0; i < (style === 'vary' ? 5 : 1); i++) {
            const created = await byKey(m.liveKey).post('/v2/qr', { body: { amount: 3000 + i }, headers: idem() });
            expect(created.status, created.raw.body).toBe(201);
            // The provider's 180 s, read in its own time zone: a misread offset is hours off (or 300 s, Tolem's
            // own cap).
            const expires = new Date(created.body.expires_at).getTime();
            expect(Math.abs(expires - (Date.now() + 180_000)), created.body.expires_at).toBeLessThan(15_000);
          }
          // Paid with nobody reading it: the watcher notices, the webhook goes out.
          const opId = (await byKey(m.liveKey).post('/v2/qr', { body: { amount: 5000 }, headers: idem() })).body
            .operation_id;
          await w.customer('scan', opId);
          await w.customer('confirm', opId);
          // Moving time: the watcher's next poll is due.
          await deps().db.query('UPDATE operations SET next_poll_at = now() WHERE id = $1', [opId]);
          await pollWatchedQrs(deps(), { batch: 100, perAccount: 100, accounts: [m.accountId] });
          await deliverAllDue(deps());
          const hooks = (await receiver.waitFor(1, 5000)).filter((h) => h.url === `/hook/${style}`);
          expect(JSON.parse(hooks[0].body)).toMatchObject({
            type: 'payment.completed',
            data: { operation_id: opId, amount: 5000 },
          });
          const paid = (await byKey(m.liveKey).get(`/v2/qr/${opId}`)).body;
          expect(paid).toMatchObject({ status: 'paid' });
          expect(paid.transaction_id).toMatch(/\d+/);
          expect(Number.isNaN(new Date(paid.paid_at!).getTime())).toBe(false);
          const refund = await byKey(m.liveKey).post('/v2/refunds', {
            body: { operation_id: opId, amount: 1000 },
            headers: idem(),
          });
          expect(refund.body).toMatchObject({ status: 'completed', refunded_total: 1000 });
          const inv = await byKey(m.liveKey).post('/v2/invoices', {
            body: { phone: '+77011234567', amount: 2500 },
            headers: idem(),
          });
          expect(inv.status, inv.raw.body).toBe(201);
          expect(
            (await byKey(m.liveKey).post(`/v2/invoices/${inv.body.operation_id}/cancel`, { body: {}, headers: idem() }))
              .body.status,
          ).toBe('cancelled');
          // r2: the return QR's expiry read in the same style, then the refund through it.
          const r2 = await w.liveMerchant('r2');
          const r2Op = await paidQr(r2, 4000);
          const pending = (
            await byKey(r2.liveKey).post('/v2/refunds', { body: { operation_id: r2Op, amount: 4000 }, headers: idem() })
          ).body;
          expect(
            Math.abs(new Date(pending.expires_at!).getTime() - (Date.now() + 180_000)),
            pending.expires_at,
          ).toBeLessThan(15_000);
          await w.returnScan('scan', pending.refund_id, { opId: r2Op });
          await pollReturnsNow(r2.accountId);
          expect((await byKey(r2.liveKey).get(`/v2/qr/${r2Op}`)).body).toMatchObject({
            status: 'refunded',
            refunded_amount: 4000,
          });
          const bad = await deps().db.query(
            `SELECT id FROM operations WHERE client_id = ANY($1::bigint[]) AND ` +
              `(expires_at IS NULL OR expires_at < created_at OR (paid_at IS NOT ` +
              `NULL AND paid_at < created_at))`,
            [[m.clientId, r2.clientId]],
          );
          expect(bad.rows).toEqual([]);
        } finally {
          await w.control('date-style', { style: 'offset' });
        }
      },
    );
  }
});

describe('QR tokens and deep links', () => {
  it(
    "a live qr_token is the provider's digits as given; deep_link is " + 'the payer page, which shows the payment',
    async () => {
      const m = await w.liveMerchant();
      const created = (await byKey(m.liveKey).post('/v2/qr', { body: { amount: 7300 }, headers: idem() })).body;
      expect(created.qr_token).toMatch(/^\d{20,}$/);
      expect(created.deep_link).toBe(`${base()}/pay/${created.operation_id}`);
      const page = await w.t.app.inject({ method: 'GET', url: new URL(created.deep_link).pathname });
      expect(page.statusCode).toBe(200);
      expect(page.body).toMatch(/7\s?300/);
      // A test operation's deep link is an absolute URL that opens it too.
      const test = (await byKey(m.testKey).post('/v2/qr', { body: { amount: 100 }, headers: idem() })).body;
      expect(test.deep_link).toMatch(/^https?:\/\//);
      expect((await w.t.app.inject({ method: 'GET', url: new URL(test.deep_link).pathname })).statusCode).toBe(200);
    },
  );
});

describe("r2 refunds through the payer's return QR", () => {
  it('pending with the return QR; the payer scans it; the watcher completes it with payment.refunded', async () => {
    const m = await w.liveMerchant('r2');
    const opId = await paidQr(m, 6000);
    const k = idem();
    const res = await byKey(m.liveKey).post('/v2/refunds', { body: { operation_id: opId, amount: 2000 }, headers: k });
    expect(res.status, res.raw.body).toBe(201);
    const r = res.body;
    expect(r).toMatchObject({ status: 'pending', amount: 2000, refunded_total: 2000, remaining_refundable: 4000 });
    expect(r.return_qr_token).toMatch(/^\d{20,}$/);
    expect(r.return_deep_link).toBe(`${base()}/pay/${opId}/refunds/${r.refund_id}`);
    expect(new Date(r.expires_at!).getTime()).toBeGreaterThan(Date.now());
    // The same key answers the same refund, QR and all.
    expect(
      (await byKey(m.liveKey).post('/v2/refunds', { body: { operation_id: opId, amount: 2000 }, headers: k })).body,
    ).toMatchObject({
      refund_id: r.refund_id,
      return_qr_token: r.return_qr_token,
    });
    expect((await w.t.app.inject({ method: 'GET', url: new URL(r.return_deep_link!).pathname })).statusCode).toBe(200);
    // Not scanned yet: the watcher leaves it pending.
    await pollReturnsNow(m.accountId);
    expect(
      (await deps().db.query<{ status: string }>('SELECT status FROM refunds WHERE id = $1', [r.refund_id])).rows[0]
        .status,
    ).toBe('pending');
    await w.returnScan('scan', r.refund_id, { opId });
    await pollReturnsNow(m.accountId);
    const row = (
      await deps().db.query<{ status: string; return_status: string }>(
        'SELECT status, return_status FROM refunds WHERE id = $1',
        [r.refund_id],
      )
    ).rows[0];
    expect(row).toEqual({ status: 'completed', return_status: 'CustomerIdentityObtained' });
    expect(w.emu.state.payments.get(Number(await w.refOf(opId)))!.ReturnedAmount).toBe(2000);
    expect((await byKey(m.liveKey).get(`/v2/qr/${opId}`)).body).toMatchObject({
      status: 'partially_refunded',
      refunded_amount: 2000,
    });
    const events = (await byKey(m.liveKey).get('/v2/events?type=payment.refunded')).body.data;
    expect(events[0].data).toMatchObject({ operation_id: opId, refund_id: r.refund_id, amount: 2000 });
    // Polled again: nothing moves twice.
    await pollReturnsNow(m.accountId);
    expect(w.emu.state.payments.get(Number(await w.refOf(opId)))!.ReturnedAmount).toBe(2000);
  });

  it('fails, releasing its amount, when the QR expires, the scan fails, or someone else scans it', async () => {
    const m = await w.liveMerchant('r2');
    const opId = await paidQr(m, 9000);
    const refund = async () => {
      const res = await byKey(m.liveKey).post('/v2/refunds', {
        body: { operation_id: opId, amount: 1000 },
        headers: idem(),
      });
      expect(res.body.status, res.raw.body).toBe('pending');
      return res.body.refund_id as string;
    };
    const statusOf = async (id: string) =>
      (await deps().db.query<{ status: string }>('SELECT status FROM refunds WHERE id = $1', [id])).rows[0].status;
    const scanError = await refund();
    await w.returnScan('scanerror', scanError);
    const stranger = await refund();
    await w.returnScan('scan', stranger, { customer: 'someone-else' });
    await pollReturnsNow(m.accountId);
    expect(await statusOf(scanError)).toBe('failed');
    expect(await statusOf(stranger)).toBe('failed');
    const late = await refund();
    await w.control('clock/advance', { seconds: 200 });
    await pollReturnsNow(m.accountId);
    expect(await statusOf(late)).toBe('failed');
    expect(w.emu.state.payments.get(Number(await w.refOf(opId)))!.ReturnedAmount).toBe(0);
    expect((await byKey(m.liveKey).get(`/v2/qr/${opId}`)).body).toMatchObject({ status: 'paid', refunded_amount: 0 });
    expect((await byKey(m.liveKey).get('/v2/events?type=payment.refunded')).body.data).toEqual([]);
  });

  it(
    'a lost payment/return answer after the scan is settled by the retry ' +
      'job, naming the same return, with the money moved once',
    async () => {
      const m = await w.liveMerchant('r2');
      const opId = await paidQr(m, 8000);
      const r = (
        await byKey(m.liveKey).post('/v2/refunds', { body: { operation_id: opId, amount: 3000 }, headers: idem() })
      ).body;
      await w.returnScan('scan', r.refund_id, { opId });
      w.faults([{ path: 'payment/return', kind: 'lost', times: 1 }]);
      await pollReturnsNow(m.accountId).catch(() => undefined);
      const row = async () =>
        (
          await deps().db.query<{ status: string; next: Date | null }>(
            'SELECT status, return_next_poll_at AS next FROM refunds WHERE id = $1',
            [r.refund_id],
          )
        ).rows[0];
      expect(await row()).toEqual({ status: 'pending', next: null });
      const atProvider = w.emu.state.payments.get(Number(await w.refOf(opId)))!;
      expect(atProvider.ReturnedAmount).toBe(3000);
      // Moving time: the refund's next attempt is due.
      await deps().db.query('UPDATE refunds SET next_attempt_at = now() WHERE id = $1', [r.refund_id]);
      await retryPendingRefunds(deps());
      expect((await row()).status).toBe('completed');
      expect(atProvider.ReturnedAmount).toBe(3000);
      expect((await byKey(m.liveKey).get(`/v2/qr/${opId}`)).body).toMatchObject({
        status: 'partially_refunded',
        refunded_amount: 3000,
      });
    },
  );

  it('r1 still answers 501', async () => {
    const m = await w.liveMerchant('r1');
    const opId = await paidQr(m, 1000);
    const res = await byKey(m.liveKey).post('/v2/refunds', {
      body: { operation_id: opId, amount: 100 },
      headers: idem(),
    });
    expect(res.status).toBe(501);
    expect(errorOf(res).message).toMatch(/r1/);
  });
});

describe('cancel reads the status after a refusal', () => {
  /**
   * The invoice changes at the provider between Tolem's read before the cancel and the cancel itself: the
   * first status read is answered stale (a flap fault, one hit, on its stale turn), then remote/cancel is
   * refused (the emulator answers -1404 for a paid or cancelled invoice, as the document lists), and only
   * the read after the refusal can tell.
   */
  async function changedMeanwhile(
    m: { liveKey: string },
    amount: number,
    status: 'Processed' | 'RemotePaymentCanceled',
  ) {
    const inv = (
      await byKey(m.liveKey).post('/v2/invoices', { body: { phone: '+77011234567', amount }, headers: idem() })
    ).body;
    const p = w.emu.state.payments.get(Number(await w.refOf(inv.operation_id)))!;
    p.Status = status;
    w.faults([{ path: 'payment/status', kind: 'flap', times: 1 }]);
    w.emu.state.flapHits = 1;
    const res = await byKey(m.liveKey).post(`/v2/invoices/${inv.operation_id}/cancel`, { body: {}, headers: idem() });
    expect(
      w.emu.state.requests.some((r) => r.path.endsWith('remote/cancel')),
      'the cancel was sent',
    ).toBe(true);
    return { opId: inv.operation_id as string, res };
  }

  it('paid meanwhile is 409 payment_already_paid, and the payment is recorded', async () => {
    const m = await w.liveMerchant();
    const { opId, res } = await changedMeanwhile(m, 4100, 'Processed');
    expect(res.status, res.raw.body).toBe(409);
    expect(errorOf(res).code).toBe('payment_already_paid');
    expect((await byKey(m.liveKey).get(`/v2/invoices/${opId}`)).body.status).toBe('paid');
  });

  it('already cancelled at the provider: 200 with the cancelled operation', async () => {
    const m = await w.liveMerchant();
    const { opId, res } = await changedMeanwhile(m, 4300, 'RemotePaymentCanceled');
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body).toEqual({ operation_id: opId, status: 'cancelled' });
  });
});

describe('r3 egress allow-list', () => {
  for (const refuse of ['http403', 'tls'] as const) {
    it(`${refuse}: 503 provider_unreachable naming the rule, the account marked, the merchant told once`, async () => {
      const m = await w.liveMerchant();
      await w.control('allowlist', { r3: ['203.0.113.7'], refuse });
      try {
        // A connection made before the rule may still be open: a fresh client for the account.
        await deps().providers.qrapi!.close();
        for (let i = 0; i < 2; i++) {
          const res = await byKey(m.liveKey).post('/v2/qr', { body: { amount: 100 }, headers: idem() });
          expect(res.status, res.raw.body).toBe(503);
          expect(errorOf(res).code).toBe('provider_unreachable');
          expect(errorOf(res).message).toMatch(/static IP/);
        }
      } finally {
        // In process: under `tls` a new connection from this address would be refused, control calls too.
        w.emu.state.allowlist = { r3: null, refuse: 'http403' };
      }
      expect((await as(m, 'GET', '/me')).json().session_alive).toBe(false);
      const notes = (await as(m, 'GET', '/me/notifications')).json().data;
      expect(notes.filter((n: { type: string }) => n.type === 'provider.unreachable')).toHaveLength(1);
    });
  }
});

describe('devices', () => {
  it('are named by the installation and the account, and the installation id is kept', async () => {
    const a = await w.liveMerchant();
    const b = await w.liveMerchant();
    const inst = (await deps().db.query<{ id: string }>('SELECT id FROM installation')).rows;
    expect(inst).toHaveLength(1);
    const ids = [...w.emu.state.devices.values()].map((d) => d.DeviceId);
    expect(ids).toContain(`tolem-${inst[0].id}-${a.accountId}`);
    expect(ids).toContain(`tolem-${inst[0].id}-${b.accountId}`);
    expect(inst[0].id).toMatch(/^[0-9a-f]{12}$/);
  });

  it('deletion is a durable job: never skipped by an open breaker, retried until the provider confirms', async () => {
    const m = await w.liveMerchant();
    const token = (
      await deps().db.query<{ t: string }>('SELECT device_token AS t FROM provider_accounts WHERE id = $1', [
        m.accountId,
      ])
    ).rows[0].t;
    // The account's breaker is open (a -999 storm), and the provider fails the first deletion too.
    w.faults([{ path: 'qr/create', kind: 'code', code: -999, times: 5 }]);
    for (let i = 0; i < 5; i++) await byKey(m.liveKey).post('/v2/qr', { body: { amount: 100 }, headers: idem() });
    w.faults([{ path: 'device/delete', kind: 'code', code: -999, times: 1 }]);
    expect((await as(m, 'DELETE', `/me/provider/accounts/${m.accountId}`)).statusCode).toBe(204);
    const row = async () =>
      (
        await deps().db.query<{ c: string | null; next: Date | null }>(
          'SELECT credentials_sealed AS c, device_delete_next_at AS next FROM provider_accounts WHERE id = $1',
          [m.accountId],
        )
      ).rows[0];
    expect(w.emu.state.devices.get(token)!.active).toBe(true);
    expect((await row()).next).not.toBeNull();
    expect((await row()).c).not.toBeNull();
    // Moving time: the device deletion's next attempt is due.
    await deps().db.query('UPDATE provider_accounts SET device_delete_next_at = now() WHERE id = $1', [m.accountId]);
    await deleteReleasedDevices(deps(), 20);
    expect(w.emu.state.devices.get(token)!.active).toBe(false);
    expect(await row()).toEqual({ c: null, next: null });
  });
});

describe('onboarding after the last live account is deleted', () => {
  it('starts again from idle, without force', async () => {
    const m = await newMerchant(w.t.app);
    const r3 = {
      scheme: 'r3',
      certificate_pfx_base64: readFileSync(w.emu.clientPfx).toString('base64'),
      password: w.emu.clientPassword,
    };
    await as(m, 'POST', '/onboarding/provider/start', { org_bin: BIN, credentials: r3 });
    const accountId = (await as(m, 'POST', '/onboarding/provider/verify', { trade_point_id: 1 })).json().account_id;
    expect((await as(m, 'GET', '/onboarding/provider/status')).json().state).toBe('connected');
    expect((await as(m, 'DELETE', `/me/provider/accounts/${accountId}`)).statusCode).toBe(204);
    expect((await as(m, 'GET', '/onboarding/provider/status')).json()).toMatchObject({
      state: 'idle',
      next_step: 'start',
      account_id: null,
    });
    const again = await as(m, 'POST', '/onboarding/provider/start', { org_bin: BIN, credentials: r3 });
    expect(again.statusCode, again.body).toBe(200);
  });
});

describe('phones', () => {
  it("go to the provider in the document's form", async () => {
    const m = await w.liveMerchant();
    const inv = (
      await byKey(m.liveKey).post('/v2/invoices', {
        body: { phone: '+7 701 123 45 67', amount: 1100 },
        headers: idem(),
      })
    ).body;
    expect(w.emu.state.payments.get(Number(await w.refOf(inv.operation_id)))!.PhoneNumber).toBe('87011234567');
  });
});
