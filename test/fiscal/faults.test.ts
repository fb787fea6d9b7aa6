// Fiscal receipts when the cash-register service misbehaves (decisions 27, #43 done-when): each fault is set
// at the fiscal emulator, which follows the services' documentation, and each test is bounded by the worker
// passes it runs. A lost answer after the register signed; two paid operations on one register that allows no
// second request in flight; a blocked register, its notification and the retry; a 24-hour shift; offline
// receipts; an expired token; a slow answer past the time-out; a return before its sale's receipt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/api.ts';
import { idem } from '../helpers/factories.ts';
import { issueReceipts } from '../helpers/fiscal.ts';
import { fiscalWorld, heldAt, type FiscalMerchant, type FiscalWorld } from '../helpers/fiscal-world.ts';
import { FiscalWorker } from '../../src/jobs/fiscal.ts';

describe.each(['webkassa', 'rekassa'] as const)('fiscal faults: %s', (driver) => {
  let w: FiscalWorld;
  beforeAll(async () => {
    w = await fiscalWorld(driver);
  }, 60_000);
  afterAll(() => w?.close());

  const receipts = async (m: FiscalMerchant, q = '') =>
    (await api(w.t.app, { apiKey: m.liveKey }).get(`/v2/receipts?limit=100${q}`)).body.data;
  const faults = (list: Record<string, unknown>[]) => w.fc.ok('POST', 'faults', { faults: list });
  const surfacePath = driver === 'webkassa' ? 'check' : 'tickets';
  /** The back-off after an unanswered attempt, over at once (as if its seconds had passed). */
  const dueNow = (opId: string) =>
    w.t.runtime.deps.db.query(
      `UPDATE fiscal_receipts SET next_attempt_at = now() WHERE operation_id = $1 AND status = 'pending'`,
      [opId],
    );

  it('a lost answer after the register signed ends in that receipt, not a second', async () => {
    const m = await w.merchant();
    const op = await w.paidQr(m, 1500);
    await faults([{ kind: 'lost', register: m.unique, surface: driver, path: surfacePath, times: 1 }]);
    await issueReceipts(w.t);
    // No answer: the receipt waits its back-off with the outcome unknown; its next attempt looks it up.
    const [waiting] = await receipts(m, `&operation_id=${op}`);
    expect(waiting).toMatchObject({ status: 'pending', error: { code: 'outcome_unknown' } });
    await dueNow(op);
    await issueReceipts(w.t);
    const [r] = await receipts(m, `&operation_id=${op}`);
    const held = await heldAt(w, m.unique);
    expect(held).toHaveLength(1);
    expect(r).toMatchObject({ status: 'issued', fiscal_sign: held[0].fiscal_sign });
    // Looked up, never sent twice: the register was asked for it once.
    const calls = (await w.fc.ok('GET', 'calls')).calls as { register?: string; path: string; method: string }[];
    const sent = calls.filter(
      (c) => c.register === m.unique && c.method === 'POST' && c.path.toLowerCase().endsWith(surfacePath),
    );
    expect(sent, JSON.stringify(sent)).toHaveLength(1);
  });

  it('two paid operations on one register go one after the other, even from two workers at once', async () => {
    const m = await w.merchant();
    // The register refuses a second request while one is in flight, as the services require.
    await w.fc.ok('PATCH', `registers/${m.unique}`, { concurrency: 'reject' });
    await w.fc.ok('POST', 'settings', { latency_ms: 30 });
    try {
      const ops = [await w.paidQr(m, 100), await w.paidQr(m, 200), await w.paidQr(m, 300)];
      const a = new FiscalWorker(w.t.runtime.deps, w.t.app.log);
      const b = new FiscalWorker(w.t.runtime.deps, w.t.app.log);
      await Promise.all([a.runOnce(), b.runOnce(), a.runOnce(), b.runOnce()]);
      await issueReceipts(w.t);
      const calls = (await w.fc.ok('GET', 'calls')).calls as { register?: string; outcome: string }[];
      expect(calls.filter((c) => c.register === m.unique && /busy/.test(c.outcome))).toEqual([]);
      const issued = (await receipts(m)).filter((r) => ops.includes(r.operation_id) && r.status === 'issued');
      expect(issued).toHaveLength(3);
      expect(await heldAt(w, m.unique)).toHaveLength(3);
    } finally {
      await w.fc.ok('POST', 'settings', { latency_ms: 0 });
    }
  });

  it('a blocked register fails the receipt with a notification, and the retry issues it once unblocked', async () => {
    const m = await w.merchant();
    await w.fc.ok('PATCH', `registers/${m.unique}`, { status: 'blocked' });
    const op = await w.paidQr(m, 800);
    await issueReceipts(w.t);
    const [failed] = await receipts(m, `&operation_id=${op}`);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed.error?.code).toMatch(/^blocked/);
    const reg = (await api(w.t.app, m).get(`/me/fiscal/registers/${m.registerId}`)).body;
    expect(reg.status).toBe('blocked');
    const notes = (await api(w.t.app, m).get('/me/notifications')).body.data as { type: string }[];
    expect(notes.filter((n) => n.type === 'fiscal.register_trouble')).toHaveLength(1);
    const events = (await api(w.t.app, { apiKey: m.liveKey }).get('/v2/events?type=receipt.failed')).body.data;
    expect(events).toHaveLength(1);
    await w.fc.ok('PATCH', `registers/${m.unique}`, { status: 'active' });
    const retry = await api(w.t.app, { apiKey: m.liveKey }).post(`/v2/receipts/${failed.id}/retry`, { body: {} });
    expect(retry.status).toBe(202);
    await issueReceipts(w.t);
    const [r] = await receipts(m, `&operation_id=${op}`);
    expect(r.status).toBe('issued');
    expect((await api(w.t.app, m).get(`/me/fiscal/registers/${m.registerId}`)).body.status).toBe('active');
    expect(await heldAt(w, m.unique)).toHaveLength(1);
  });

  it('a shift past 24 hours is closed (Z-report) before the next receipt, which opens the next shift', async () => {
    const m = await w.merchant();
    await w.paidQr(m, 400);
    await issueReceipts(w.t);
    const first = (await receipts(m))[0];
    // The register's shift opened 25 hours ago, at the service and in Tolem's view (a day without payments).
    await w.fc.ok('POST', `registers/${m.unique}/shift-age`, { hours: 25 });
    await w.t.runtime.deps.db.query(
      `UPDATE fiscal_registers SET shift_opened_at = now() - interval '25 hours' WHERE id = $1`,
      [m.registerId],
    );
    const op = await w.paidQr(m, 600);
    await issueReceipts(w.t);
    const [r] = await receipts(m, `&operation_id=${op}`);
    expect(r).toMatchObject({ status: 'issued', shift_number: first.shift_number! + 1 });
    const shifts = (await api(w.t.app, m).get(`/me/fiscal/registers/${m.registerId}/shifts`)).body.data;
    expect(shifts.find((s) => s.number === first.shift_number)).toMatchObject({
      z_report: { sale_count: 1, sale_total: 400 },
    });
  });

  it('a shift the service alone knows is past 24 hours: refused, closed, sent again in the same pass', async () => {
    const m = await w.merchant();
    await w.paidQr(m, 300);
    await issueReceipts(w.t);
    await w.fc.ok('POST', `registers/${m.unique}/shift-age`, { hours: 25 });
    const op = await w.paidQr(m, 700);
    await issueReceipts(w.t);
    const [r] = await receipts(m, `&operation_id=${op}`);
    expect(r.status).toBe('issued');
    expect(await heldAt(w, m.unique)).toHaveLength(2);
  });

  it('receipts signed while the fiscal data operator is away are marked offline; the register says so', async () => {
    const m = await w.merchant();
    await w.fc.ok('POST', `registers/${m.unique}/ofd`, { online: false });
    const op = await w.paidQr(m, 900);
    await issueReceipts(w.t);
    const [r] = await receipts(m, `&operation_id=${op}`);
    expect(r).toMatchObject({ status: 'issued', offline: true });
    expect((await api(w.t.app, m).get(`/me/fiscal/registers/${m.registerId}`)).body.status).toBe('offline');
    await w.fc.ok('POST', `registers/${m.unique}/ofd`, { online: true });
    const op2 = await w.paidQr(m, 100);
    await issueReceipts(w.t);
    expect((await receipts(m, `&operation_id=${op2}`))[0].offline).toBe(false);
    expect((await api(w.t.app, m).get(`/me/fiscal/registers/${m.registerId}`)).body.status).toBe('active');
  });

  it('an expired token logs in again once; a slow answer past the time-out is looked up, not re-sent', async () => {
    const m = await w.merchant();
    await w.paidQr(m, 250);
    await issueReceipts(w.t);
    await w.fc.ok('POST', 'tokens/expire', { surface: driver });
    const op = await w.paidQr(m, 350);
    await issueReceipts(w.t);
    expect((await receipts(m, `&operation_id=${op}`))[0].status).toBe('issued');
    // An answer slower than FISCAL_TIMEOUT_MS (3 s here): the register signs, Tolem does not hear it.
    await faults([{ kind: 'slow', register: m.unique, surface: driver, path: surfacePath, ms: 4000, times: 1 }]);
    const slow = await w.paidQr(m, 450);
    await issueReceipts(w.t);
    expect((await receipts(m, `&operation_id=${slow}`))[0].status).toBe('pending');
    // The time-out put it back with a short back-off: its next attempt looks it up.
    await dueNow(slow);
    await issueReceipts(w.t);
    expect((await receipts(m, `&operation_id=${slow}`))[0].status).toBe('issued');
    expect(await heldAt(w, m.unique)).toHaveLength(3);
  });

  it('a register that does not answer is retried with back-off, and after 24 hours the receipt fails', async () => {
    const m = await w.merchant();
    await faults([{ kind: 'http5xx', register: m.unique, surface: driver, path: surfacePath, status: 503 }]);
    try {
      const op = await w.paidQr(m, 500);
      await issueReceipts(w.t);
      const [waiting] = await receipts(m, `&operation_id=${op}`);
      expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
      expect(waiting.error?.code).toMatch(/^unavailable/);
      // Its 24 hours of attempts are over (as if they had passed with the register down).
      await w.t.runtime.deps.db.query(
        'UPDATE fiscal_receipts SET give_up_at = now(), next_attempt_at = now() WHERE operation_id = $1',
        [op],
      );
      await issueReceipts(w.t);
      const [failed] = await receipts(m, `&operation_id=${op}`);
      expect(failed.status).toBe('failed');
      expect(failed.error?.code).toMatch(/^unavailable/);
      const notes = (await api(w.t.app, m).get('/me/notifications')).body.data as { type: string; params: object }[];
      expect(notes.filter((n) => n.type === 'fiscal.receipt_failed')).toEqual([
        expect.objectContaining({ params: expect.objectContaining({ receipt_id: failed.id, operation_id: op }) }),
      ]);
      const events = (await api(w.t.app, { apiKey: m.liveKey }).get('/v2/events?type=receipt.failed')).body.data;
      expect(events.map((e) => (e.data as { receipt_id: string }).receipt_id)).toEqual([failed.id]);
    } finally {
      await faults([]);
    }
  });

  it('a return owed before its sale was issued waits for it, then carries its basis', async () => {
    const m = await w.merchant();
    await faults([{ kind: 'http5xx', register: m.unique, surface: driver, path: surfacePath, status: 503, times: 1 }]);
    const op = await w.paidQr(m, 2000);
    await issueReceipts(w.t);
    expect((await receipts(m, `&operation_id=${op}`))[0].status).toBe('pending');
    const refund = await api(w.t.app, { apiKey: m.liveKey }).post('/v2/refunds', {
      body: { operation_id: op, amount: 500 },
      headers: idem(),
    });
    expect(refund.status).toBe(201);
    await issueReceipts(w.t);
    let all = await receipts(m, `&operation_id=${op}`);
    expect(all.find((r) => r.kind === 'return')).toMatchObject({ status: 'pending', error: { code: 'awaiting_sale' } });
    await dueNow(op);
    await issueReceipts(w.t);
    all = await receipts(m, `&operation_id=${op}`);
    expect(all.map((r) => [r.kind, r.status]).sort()).toEqual([
      ['return', 'issued'],
      ['sale', 'issued'],
    ]);
    const held = await heldAt(w, m.unique);
    expect(held.map((h) => h.kind).sort()).toEqual(['sale', 'sale_return']);
  });
});
