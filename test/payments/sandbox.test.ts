// The sandbox provider's ledger: a payment is described by its ref until its first change, which writes
// its row. What Tolem sees through the provider port must be what it saw when every creation wrote a row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { describeRef, sandboxRef, type SandboxProvider } from '../../src/providers/sandbox.ts';

let t: TestApp;
let sandbox: SandboxProvider;
beforeAll(async () => {
  t = await buildTestApp();
  sandbox = t.runtime.deps.providers.sandbox;
});
afterAll(() => t.close());

const rows = async (ref: string) =>
  (
    await t.runtime.deps.db.query<{ status: string; amount: number; kind: string }>(
      'SELECT status, amount, kind FROM sandbox_payments WHERE ref = $1',
      [ref],
    )
  ).rows;
const past = () => new Date(Date.now() - 1000);

describe('refs', () => {
  it('say kind, amount and deadline, and nothing else parses as one', () => {
    const expiresAt = new Date('2026-11-23T10:00:00.123Z');
    const ref = sandboxRef({ kind: 'invoice', amount: 1_234_567, expiresAt });
    expect(describeRef(ref)).toEqual({ kind: 'invoice', amount: 1_234_567, expiresAt });
    expect(sandboxRef({ kind: 'invoice', amount: 1, expiresAt })).not.toBe(
      sandboxRef({ kind: 'invoice', amount: 1, expiresAt }),
    );
    for (const bad of [
      '',
      'sbx_qr_0123456789abcdef01234567',
      `${ref}x`,
      ref.replace('sbx_inv', 'sbx_card'),
      'sbx_qr_0_kz_0123456789abcdef0123456789abcdef',
      ref.toUpperCase(),
    ]) {
      expect(describeRef(bad)).toBeNull();
    }
  });
});

describe('the ledger', () => {
  it('creating writes nothing; the payment waits until its deadline, then is expired', async () => {
    const qr = await sandbox.createQr({ amount: 5000, lifetimeS: 300 });
    expect(await rows(qr.ref)).toEqual([]);
    expect(await sandbox.getStatus(qr.ref)).toEqual({ status: 'waiting', raw: 'QrTokenCreated' });
    const inv = await sandbox.createInvoice({ phone: '+77001234567', amount: 700, lifetimeS: 60 });
    expect(await sandbox.getStatus(inv.ref)).toEqual({ status: 'waiting', raw: 'InvoiceCreated' });
    const late = sandboxRef({ kind: 'qr', amount: 5000, expiresAt: past() });
    expect(await sandbox.getStatus(late)).toEqual({ status: 'expired', raw: 'Expired' });
    expect(await sandbox.getStatus('sbx_qr_nothing')).toEqual({ status: 'expired', raw: 'NotFound' });
  });

  it('the first change writes the row with the amount of the ref; a second change is refused', async () => {
    const qr = await sandbox.createQr({ amount: 5000, lifetimeS: 300 });
    expect(await sandbox.simulate(qr.ref, 'pay', { senderName: 'Айгерим С.' })).toBe(true);
    expect(await rows(qr.ref)).toEqual([{ status: 'Paid', amount: 5000, kind: 'qr' }]);
    const status = await sandbox.getStatus(qr.ref);
    expect(status).toMatchObject({ status: 'paid', raw: 'Paid', senderName: 'Айгерим С.' });
    expect(status.transactionId).toMatch(/^sbx_tx_/);
    for (const action of ['pay', 'decline', 'expire'] as const)
      expect(await sandbox.simulate(qr.ref, action)).toBe(false);
    // Refunds work on the written row, up to the amount the ref carried.
    const first = await sandbox.refund(qr.ref, 3000, `rf_${qr.ref}_1`);
    expect(first.status).toBe('completed');
    expect((await sandbox.refund(qr.ref, 2001, `rf_${qr.ref}_2`)).status).toBe('failed');
    // The same refund id sent again is the same refund: its first answer, and no more money moves.
    expect(await sandbox.refund(qr.ref, 3000, `rf_${qr.ref}_1`)).toEqual(first);
    expect((await sandbox.refund(qr.ref, 2000, `rf_${qr.ref}_3`)).status).toBe('completed');
    expect((await sandbox.refund(qr.ref, 2000, `rf_${qr.ref}_3`)).status).toBe('completed');
    const ledger = await t.runtime.deps.db.query<{ refunded: number }>(
      'SELECT refunded FROM sandbox_payments WHERE ref = $1',
      [qr.ref],
    );
    expect(Number(ledger.rows[0].refunded)).toBe(5000);
  });

  it('past its deadline a payment can be expired but not paid or declined', async () => {
    const late = sandboxRef({ kind: 'qr', amount: 100, expiresAt: past() });
    expect(await sandbox.simulate(late, 'pay')).toBe(false);
    expect(await sandbox.simulate(late, 'decline')).toBe(false);
    expect(await rows(late)).toEqual([]);
    expect(await sandbox.simulate(late, 'expire')).toBe(true);
    expect(await sandbox.getStatus(late)).toEqual({ status: 'expired', raw: 'Expired' });
  });

  it(
    'an invoice can be cancelled, again, even late; a QR or a paid invoice ' + 'cannot; unknown refs change nothing',
    async () => {
      const inv = await sandbox.createInvoice({ phone: '+77001234567', amount: 700, lifetimeS: 60 });
      expect(await sandbox.cancelInvoice(inv.ref)).toBe(true);
      expect(await sandbox.cancelInvoice(inv.ref)).toBe(true);
      expect(await sandbox.getStatus(inv.ref)).toEqual({ status: 'cancelled', raw: 'Cancelled' });
      expect(await sandbox.simulate(inv.ref, 'pay')).toBe(false);
      expect(await sandbox.cancelInvoice(sandboxRef({ kind: 'invoice', amount: 5, expiresAt: past() }))).toBe(true);
      const qr = await sandbox.createQr({ amount: 5000, lifetimeS: 300 });
      expect(await sandbox.cancelInvoice(qr.ref)).toBe(false);
      const paid = await sandbox.createInvoice({ phone: '+77001234567', amount: 700, lifetimeS: 60 });
      await sandbox.simulate(paid.ref, 'pay');
      expect(await sandbox.cancelInvoice(paid.ref)).toBe(false);
      expect(await sandbox.simulate('sbx_qr_nothing', 'pay')).toBe(false);
      expect(await sandbox.cancelInvoice('sbx_inv_nothing')).toBe(false);
      expect(await rows('sbx_qr_nothing')).toEqual([]);
    },
  );

  it('of two changes at once to one fresh payment, exactly one succeeds', async () => {
    for (let i = 0; i < 5; i++) {
      const qr = await sandbox.createQr({ amount: 5000, lifetimeS: 300 });
      const done = await Promise.all([
        sandbox.simulate(qr.ref, 'pay'),
        sandbox.simulate(qr.ref, 'decline'),
        sandbox.simulate(qr.ref, 'pay'),
      ]);
      expect(done.filter(Boolean)).toHaveLength(1);
      expect(await rows(qr.ref)).toHaveLength(1);
    }
  });

  it('a row written at creation by an earlier version (an older ref) still changes as before', async () => {
    const ref = `sbx_qr_${'ab'.repeat(12)}${Date.now()}`;
    await t.runtime.deps.db.query(
      `INSERT INTO sandbox_payments (ref, kind, amount, status, expires_at) ` +
        `VALUES ($1, 'qr', 900, 'QrTokenCreated', now() + interval '5 minutes')`,
      [ref],
    );
    expect(await sandbox.getStatus(ref)).toEqual({ status: 'waiting', raw: 'QrTokenCreated' });
    expect(await sandbox.simulate(ref, 'pay')).toBe(true);
    expect(await sandbox.simulate(ref, 'pay')).toBe(false);
    expect((await sandbox.refund(ref, 900, `rf_${ref}`)).status).toBe('completed');
  });

  it('a row whose deadline was moved into the past wins over the deadline in its ref', async () => {
    const qr = await sandbox.createQr({ amount: 5000, lifetimeS: 300 });
    await t.runtime.deps.db.query(
      `INSERT INTO sandbox_payments (ref, kind, amount, status, expires_at) ` +
        `VALUES ($1, 'qr', 5000, 'QrTokenCreated', now() - interval '1 second')`,
      [qr.ref],
    );
    expect(await sandbox.getStatus(qr.ref)).toEqual({ status: 'expired', raw: 'Expired' });
    expect(await sandbox.simulate(qr.ref, 'pay')).toBe(false);
  });
});
