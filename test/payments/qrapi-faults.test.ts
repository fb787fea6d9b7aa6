// The live driver under faults (decisions 24), against the emulator; each case bounded in time.
import { api } from '../helpers/api.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { bearer, errorOf, idem, key } from '../helpers/factories.ts';
import { qrapiWorld, BIN, type QrapiWorld } from '../helpers/qrapi.ts';
import { startReceiver, type Receiver } from '../webhooks/helpers.ts';
import { pollWatchedQrs } from '../../src/domain/payments/watch.ts';
import { sweepExpired } from '../../src/jobs/expiry.ts';
import { retryPendingRefunds } from '../../src/jobs/refund-retry.ts';
import { deliverAllDue } from '../../src/jobs/deliveries.ts';
import { qrapiTradePoints } from '../../src/domain/payments/qrapi-connect.ts';
import { makeClientPfx } from '../../emulator/certificates.ts';

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
const byKey = (apiKey: string) => api(w.t.app, { apiKey });
const opsOf = async (clientId: number) =>
  (
    await deps().db.query<{ id: string }>(`SELECT id FROM operations WHERE client_id = $1 AND mode = 'live'`, [
      clientId,
    ])
  ).rows;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the watcher', () => {
  it(
    'scan + confirm -> a payment.completed webhook, with no read by the ' + 'merchant, within two poll intervals',
    async () => {
      w.emu.state.timing.StatusPollingInterval = 1;
      try {
        const m = await w.liveMerchant();
        await w.t.app.inject({
          method: 'POST',
          url: '/me/webhooks',
          headers: bearer(m),
          payload: { url: `${receiver.url}/hook`, events: ['payment.completed'] },
        });
        const opId = (await byKey(m.liveKey).post('/v2/qr', { body: { amount: 4200 }, headers: idem() })).body
          .operation_id;
        const started = Date.now();
        await w.customer('scan', opId);
        await w.customer('confirm', opId);
        // The job's loop, by hand: a pass every 200 ms, for at most two poll intervals.
        let paid = false;
        while (!paid && Date.now() - started < 2000) {
          await pollWatchedQrs(deps(), { batch: 100, perAccount: 100 });
          paid =
            (await deps().db.query(`SELECT 1 FROM operations WHERE id = $1 AND status = 'paid'`, [opId])).rows.length >
            0;
          if (!paid) await sleep(200);
        }
        expect(paid, 'noticed within two intervals').toBe(true);
        await deliverAllDue(deps());
        const got = await receiver.waitFor(1, 3000);
        expect(JSON.parse(got[got.length - 1].body)).toMatchObject({
          type: 'payment.completed',
          data: { operation_id: opId, amount: 4200 },
        });
      } finally {
        w.emu.state.timing.StatusPollingInterval = 5;
      }
    },
  );

  it("a Wait seen after the QR's deadline is not expired early; the confirmation then pays it", async () => {
    const m = await w.liveMerchant();
    const opId = (await byKey(m.liveKey).post('/v2/qr', { body: { amount: 1500 }, headers: idem() })).body.operation_id;
    await w.customer('scan', opId);
    // The scan came just before Tolem's deadline, which passed before Tolem next asked.
    await deps().db.query(`UPDATE operations SET expires_at = now() - interval '1 second' WHERE id = $1`, [opId]);
    await sweepExpired(deps());
    const held = (await byKey(m.liveKey).get(`/v2/qr/${opId}`)).body;
    expect(held).toMatchObject({ status: 'created', raw_provider_status: 'Wait' });
    expect(new Date(held.expires_at).getTime()).toBeGreaterThan(Date.now() + 60_000);
    await w.customer('confirm', opId);
    expect((await byKey(m.liveKey).get(`/v2/qr/${opId}`)).body.status).toBe('paid');
  });

  it('scanerror -> declined, with payment.cancelled (reason declined)', async () => {
    const m = await w.liveMerchant();
    const opId = (await byKey(m.liveKey).post('/v2/qr', { body: { amount: 800 }, headers: idem() })).body.operation_id;
    await w.customer('scanerror', opId);
    expect((await byKey(m.liveKey).get(`/v2/qr/${opId}`)).body).toMatchObject({
      status: 'declined',
      raw_provider_status: 'Error',
    });
  });

  it('polls each account at most perAccount times a pass', async () => {
    const m = await w.liveMerchant();
    for (let i = 0; i < 4; i++) await byKey(m.liveKey).post('/v2/qr', { body: { amount: 100 + i }, headers: idem() });
    // Moving time: the watcher's next poll is due.
    await deps().db.query(`UPDATE operations SET next_poll_at = now() - interval '1 second' WHERE client_id = $1`, [
      m.clientId,
    ]);
    const polled = await pollWatchedQrs(deps(), { batch: 100, perAccount: 2 });
    expect(polled).toBeGreaterThanOrEqual(2);
    const mine = (
      await deps().db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM operations WHERE client_id = $1 AND next_poll_at > now()`,
        [m.clientId],
      )
    ).rows[0].n;
    expect(mine).toBe(2);
  });

  it('every account with due QRs is served in a pass, however many QRs another account has waiting', async () => {
    const busy = await w.liveMerchant();
    const quiet = await w.liveMerchant();
    for (let i = 0; i < 6; i++)
      await byKey(busy.liveKey).post('/v2/qr', { body: { amount: 200 + i }, headers: idem() });
    await byKey(quiet.liveKey).post('/v2/qr', { body: { amount: 300 }, headers: idem() });
    // The busy account's QRs are the oldest due: a window of the oldest would hold only them.
    await deps().db.query(`UPDATE operations SET next_poll_at = now() - interval '1 hour' WHERE client_id = $1`, [
      busy.clientId,
    ]);
    // Moving time: the watcher's next poll is due.
    await deps().db.query(`UPDATE operations SET next_poll_at = now() - interval '1 second' WHERE client_id = $1`, [
      quiet.clientId,
    ]);
    // Room for three: two of the busy account's and the quiet one's (the oldest three would all be busy's).
    await pollWatchedQrs(deps(), { batch: 3, perAccount: 2, accounts: [busy.accountId, quiet.accountId] });
    const polled = async (clientId: number) =>
      (
        await deps().db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM operations WHERE client_id = $1 AND next_poll_at > now()`,
          [clientId],
        )
      ).rows[0].n;
    expect(await polled(busy.clientId)).toBe(2);
    expect(await polled(quiet.clientId)).toBe(1);
  });

  it('a pass releases what it polled, and a QR still waiting as last seen costs no transaction', async () => {
    const m = await w.liveMerchant();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (await byKey(m.liveKey).post('/v2/qr', { body: { amount: 500 + i }, headers: idem() })).body.operation_id,
      );
    await w.customer('scan', ids[2]);
    const due = () =>
      // Moving time: the watcher's next poll is due.
      deps().db.query(`UPDATE operations SET next_poll_at = now() - interval '1 second' WHERE client_id = $1`, [
        m.clientId,
      ]);
    const db = deps().db;
    const tx = db.tx;
    const query = db.query;
    let transactions = 0;
    let accountReads = 0;
    (db as { tx: typeof tx }).tx = ((fn) => {
      transactions++;
      return tx.call(db, fn);
    }) as typeof tx;
    (db as { query: typeof query }).query = ((sql: string, params?: unknown[]) => {
      if (/FROM provider_accounts/.test(sql)) accountReads++;
      return query.call(db, sql, params);
    }) as typeof query;
    try {
      // First pass: each QR's provider status is new to Tolem (written); the scanned one is now Wait.
      await due();
      expect(await pollWatchedQrs(deps(), { batch: 100, perAccount: 100, accounts: [m.accountId] })).toBe(3);
      expect(transactions).toBe(3);
      const rows = async () =>
        (
          await db.query<{ id: string; raw_provider_status: string; leased: boolean; next_in_s: number }>(
            `SELECT id, raw_provider_status, poll_lease_until IS NOT NULL AS leased, ` +
              `extract(epoch FROM next_poll_at - now())::float AS next_in_s
           FROM operations WHERE client_id = $1 ORDER BY id`,
            [m.clientId],
          )
        ).rows;
      for (const r of await rows()) {
        expect(r.leased, r.id).toBe(false);
        expect(r.next_in_s, r.id).toBeGreaterThan(3);
      }
      expect((await rows()).find((r) => r.id === ids[2])!.raw_provider_status).toBe('Wait');
      // Second pass: nothing changed at the provider, so nothing is written but the releases.
      transactions = 0;
      accountReads = 0;
      await due();
      expect(await pollWatchedQrs(deps(), { batch: 100, perAccount: 100, accounts: [m.accountId] })).toBe(3);
      expect(transactions).toBe(0);
      // The pass's provider accounts are read once, not once per status call.
      expect(accountReads).toBe(1);
      for (const r of await rows()) expect([r.leased, r.next_in_s > 3], r.id).toEqual([false, true]);
      // A change is still seen: the confirmation pays it.
      await w.customer('confirm', ids[2]);
      await due();
      await pollWatchedQrs(deps(), { batch: 100, perAccount: 100, accounts: [m.accountId] });
      expect(transactions).toBe(1);
      expect((await byKey(m.liveKey).get(`/v2/qr/${ids[2]}`)).body.status).toBe('paid');
    } finally {
      (db as { tx: typeof tx }).tx = tx;
      (db as { query: typeof query }).query = query;
    }
  });
});

describe('capabilities by scheme', () => {
  it('r1: refund, invoice and customer lookup are 501 naming the scheme, without a provider call', async () => {
    const m = await w.liveMerchant('r1');
    const opId = (await byKey(m.liveKey).post('/v2/qr', { body: { amount: 1000 }, headers: idem() })).body.operation_id;
    await w.customer('scan', opId);
    await w.customer('confirm', opId);
    expect((await byKey(m.liveKey).get(`/v2/qr/${opId}`)).body.status).toBe('paid');
    const calls = w.emu.state.requests.length;
    for (const res of [
      await byKey(m.liveKey).post('/v2/refunds', { body: { operation_id: opId, amount: 100 }, headers: idem() }),
      await byKey(m.liveKey).post('/v2/invoices', { body: { phone: '+77011234567', amount: 100 }, headers: idem() }),
      await byKey(m.liveKey).get('/v2/client?phone=%2B77011234567'),
    ]) {
      expect(res.status, res.raw.body).toBe(501);
      expect(errorOf(res).code).toBe('provider_capability_unavailable');
      expect(errorOf(res).message).toContain('r1');
    }
    expect(w.emu.state.requests.length).toBe(calls);
    expect((await byKey(m.liveKey).get(`/v2/qr/${opId}`)).body.refunded_amount).toBe(0);
  });
});

describe('lost answers', () => {
  it('a lost refund answer ends completed, with the money moved once', async () => {
    const m = await w.liveMerchant();
    const opId = (await byKey(m.liveKey).post('/v2/qr', { body: { amount: 5000 }, headers: idem() })).body.operation_id;
    await w.customer('scan', opId);
    await w.customer('confirm', opId);
    await byKey(m.liveKey).get(`/v2/qr/${opId}`);
    w.faults([{ path: 'payment/return', kind: 'lost', times: 1 }]);
    const first = await byKey(m.liveKey).post('/v2/refunds', {
      body: { operation_id: opId, amount: 2000 },
      headers: idem(),
    });
    expect(first.body).toMatchObject({ status: 'pending' });
    // Moving time: the refund's next attempt is due.
    await deps().db.query(`UPDATE refunds SET next_attempt_at = now() WHERE operation_id = $1`, [opId]);
    await retryPendingRefunds(deps());
    const ref = await w.refOf(opId);
    const atProvider = w.emu.state.payments.get(Number(ref))!;
    expect(atProvider.ReturnedAmount).toBe(2000);
    expect((await byKey(m.liveKey).get(`/v2/qr/${opId}`)).body).toMatchObject({
      status: 'partially_refunded',
      refunded_amount: 2000,
    });
    const r = await deps().db.query<{ status: string }>('SELECT status FROM refunds WHERE operation_id = $1', [opId]);
    expect(r.rows.map((x) => x.status)).toEqual(['completed']);
    // Retried again, nothing moves twice.
    await deps().db.query(`UPDATE refunds SET next_attempt_at = now() WHERE operation_id = $1`, [opId]);
    await retryPendingRefunds(deps());
    expect(atProvider.ReturnedAmount).toBe(2000);
  });

  it('a lost qr/create answer is 502, nothing stored, and the retry makes exactly one operation', async () => {
    const m = await w.liveMerchant();
    w.faults([{ path: 'qr/create', kind: 'lost', times: 1 }]);
    const k = idem();
    const lost = await byKey(m.liveKey).post('/v2/qr', { body: { amount: 1200 }, headers: k });
    expect(lost.status).toBe(502);
    expect(await opsOf(m.clientId)).toHaveLength(0);
    const retry = await byKey(m.liveKey).post('/v2/qr', { body: { amount: 1200 }, headers: k });
    expect(retry.status, retry.raw.body).toBe(201);
    expect(await opsOf(m.clientId)).toHaveLength(1);
    // The provider holds the orphan too; it drops it unscanned by itself.
    expect([...w.emu.state.payments.values()].filter((p) => p.Amount === 1200).length).toBeGreaterThanOrEqual(2);
  });

  it('a lost remote/create answer is 502, and a retry with the key is 409 provider_outcome_unknown', async () => {
    const m = await w.liveMerchant();
    w.faults([{ path: 'remote/create', kind: 'lost', times: 1 }]);
    const k = idem();
    const lost = await byKey(m.liveKey).post('/v2/invoices', {
      body: { phone: '+77011234567', amount: 2300 },
      headers: k,
    });
    expect(lost.status).toBe(502);
    const retry = await byKey(m.liveKey).post('/v2/invoices', {
      body: { phone: '+77011234567', amount: 2300 },
      headers: k,
    });
    expect(retry.status).toBe(409);
    // The key's stored answer, replayed (it names the request that stored it).
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.raw.json().error.code).toBe('provider_outcome_unknown');
    expect(await opsOf(m.clientId)).toHaveLength(0);
    // A new key is a new decision of the merchant's.
    expect(
      (await byKey(m.liveKey).post('/v2/invoices', { body: { phone: '+77011234567', amount: 2300 }, headers: idem() }))
        .status,
    ).toBe(201);
  });
});

describe('provider trouble', () => {
  it('-10000 is 503 session_expired: session_alive false and one notification', async () => {
    const m = await w.liveMerchant();
    w.faults([{ path: 'qr/create', kind: 'code', code: -10000, times: 2 }]);
    for (let i = 0; i < 2; i++) {
      const res = await byKey(m.liveKey).post('/v2/qr', { body: { amount: 100 }, headers: idem() });
      expect(res.status).toBe(503);
      expect(errorOf(res).code).toBe('session_expired');
    }
    expect((await w.t.app.inject({ method: 'GET', url: '/me', headers: bearer(m) })).json().session_alive).toBe(false);
    const notes = (await w.t.app.inject({ method: 'GET', url: '/me/notifications', headers: bearer(m) })).json().data;
    expect(notes.filter((n: { type: string }) => n.type === 'provider.session_expired')).toHaveLength(1);
  });

  it('a -999 storm opens the breaker (fast 502s without a call), and it closes again', async () => {
    const world = await qrapiWorld({});
    try {
      (world.t.runtime.deps.config.qrapi as { breakerOpenMs: number }).breakerOpenMs = 300;
      const m = await world.liveMerchant();
      // The registry made this account's client before the change above: rebuild it with the short breaker.
      await world.t.runtime.deps.providers.qrapi!.close();
      world.faults([{ path: 'qr/create', kind: 'code', code: -999 }]);
      for (let i = 0; i < 5; i++)
        expect(
          (
            await world.t.app.inject({
              method: 'POST',
              url: '/v2/qr',
              headers: { ...key(m.liveKey), ...idem() },
              payload: { amount: 100 },
            })
          ).statusCode,
        ).toBe(502);
      const calls = world.emu.state.requests.length;
      const fast = await world.t.app.inject({
        method: 'POST',
        url: '/v2/qr',
        headers: { ...key(m.liveKey), ...idem() },
        payload: { amount: 100 },
      });
      expect(fast.statusCode).toBe(502);
      expect(errorOf(fast).code).toBe('provider_error');
      expect(world.emu.state.requests.length).toBe(calls);
      world.faults([]);
      await sleep(350);
      expect(
        (
          await world.t.app.inject({
            method: 'POST',
            url: '/v2/qr',
            headers: { ...key(m.liveKey), ...idem() },
            payload: { amount: 100 },
          })
        ).statusCode,
      ).toBe(201);
    } finally {
      await world.close();
    }
  });

  it('an expired certificate is refused at onboarding with a clear error', async () => {
    const caKey = readFileSync(w.emu.caKeyFile, 'utf8');
    const expired = makeClientPfx(w.emu.caPem, caKey, 'pw', {
      notBefore: new Date(Date.now() - 3 * 86400_000),
      notAfter: new Date(Date.now() - 86400_000),
    });
    const err = await qrapiTradePoints(deps(), {
      credentials: { scheme: 'r3', pfx: expired, password: 'pw' },
      orgBin: BIN,
    }).catch((e) => e);
    expect(err.code).toBe('invalid_parameter');
    expect(err.message).toMatch(/certificate expired/);
    const wrong = await qrapiTradePoints(deps(), {
      credentials: { scheme: 'r3', pfx: expired, password: 'nope' },
      orgBin: BIN,
    }).catch((e) => e);
    expect(wrong.message).toMatch(/password/);
  });
});

describe('certificate expiry', () => {
  it('is read from the PFX onto the account, and warned about 30 days ahead, once', async () => {
    const { noticeExpiringCertificates } = await import('../../src/domain/notifications/certificate-notices.ts');
    const m = await w.liveMerchant();
    const acc = (
      await deps().db.query<{ certificate_expires_at: Date }>(
        'SELECT certificate_expires_at FROM provider_accounts WHERE id = $1',
        [m.accountId],
      )
    ).rows[0];
    // The emulator's client certificate is valid five years.
    expect(acc.certificate_expires_at.getTime()).toBeGreaterThan(Date.now() + 4 * 365 * 86400_000);
    const soon = new Date(acc.certificate_expires_at.getTime() - 29 * 86400_000);
    await noticeExpiringCertificates(deps().db, soon);
    await noticeExpiringCertificates(deps().db, soon);
    const notes = (await w.t.app.inject({ method: 'GET', url: '/me/notifications', headers: bearer(m) }))
      .json()
      .data.filter((n: { type: string }) => n.type === 'provider.certificate_expiring');
    expect(notes).toHaveLength(1);
    expect(notes[0].title).toContain('expires on');
  });
});

describe('status versions', () => {
  it(
    'v02 (the default) fills the transaction id of a paid payment; v01 ' + "(the document's) reads the status alone",
    async () => {
      const m = await w.liveMerchant();
      const paidQr = async () => {
        const opId = (await byKey(m.liveKey).post('/v2/qr', { body: { amount: 300 }, headers: idem() })).body
          .operation_id;
        await w.customer('scan', opId);
        await w.customer('confirm', opId);
        return (await byKey(m.liveKey).get(`/v2/qr/${opId}`)).body;
      };
      const paid = await paidQr();
      expect(paid.status).toBe('paid');
      expect(paid.transaction_id).toMatch(/^\d+$/);
      expect(w.emu.state.requests.some((r) => r.path.includes('/v02/payment/status/'))).toBe(true);
      const q = deps().config.qrapi as { statusVersion: 'v01' | 'v02' };
      q.statusVersion = 'v01';
      try {
        expect(await paidQr()).toMatchObject({ status: 'paid', transaction_id: null });
      } finally {
        q.statusVersion = 'v02';
      }
    },
  );
});
