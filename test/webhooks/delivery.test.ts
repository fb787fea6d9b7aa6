// Deliveries end to end: outbox rows in the event's transaction, the worker's pass against a real local
// receiver, signatures checked byte for byte, retries, failure, 410, redirects, oversized answers.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, idem, key, newMerchant } from '../helpers/factories.ts';
import { deliverAllDue, deliverDue } from '../../src/jobs/deliveries.ts';
import { pruneDeliveries } from '../../src/jobs/retention.ts';
import { clientIdOf, createHook, deliveriesOf, emit, sleep, startReceiver, type Receiver } from './helpers.ts';

let t: TestApp;
let rx: Receiver;
const FAST = [0, 0.05, 0.05, 0.05, 0.05];

beforeAll(async () => {
  t = await buildTestApp({ webhooksAllowPrivate: true, webhookRetrySchedule: FAST, webhookTimeoutMs: 2000 });
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
  await t.close();
});

async function setup(events = ['payment.completed'], url?: string) {
  const m = await newMerchant(t.app);
  const clientId = await clientIdOf(t.runtime.deps.db, m);
  const hook = await createHook(t.app, m, { url: url ?? rx.url, events });
  return { m, clientId, hook };
}

/**
 * Runs worker passes for one client until its deliveries settle (or `ms` passes). The default costs
 * nothing when they settle, so it is generous: five attempts with their retries overran 5 s in CI on a
 * loaded machine (a 3xx delivery found pending after four). A test expecting pending rows passes a short `ms`.
 */
async function settle(clientId: number, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    await deliverAllDue(t.runtime.deps, { clientId });
    const r = await t.runtime.deps.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE client_id = $1 AND status = 'pending'`,
      [clientId],
    );
    if (r.rows[0].n === 0) return;
    await sleep(20);
  }
}

describe('outbox', () => {
  it(
    'writes one delivery per active, subscribed webhook of the client ' + 'and mode, in the event’s transaction',
    async () => {
      const { m, clientId, hook } = await setup(['payment.completed', 'payment.refunded']);
      const other = await createHook(t.app, m, { url: rx.url, events: ['payment.cancelled'] });
      const off = await createHook(t.app, m, { url: rx.url, events: ['payment.completed'] });
      await t.app.inject({ method: 'POST', url: `/me/webhooks/${off.id}/disable`, headers: bearer(m) });
      const testMode = await createHook(t.app, m, { url: rx.url, events: ['payment.completed'] }, '?mode=test');
      const e = await emit(t, clientId, 'payment.completed');
      expect((await deliveriesOf(t, hook.id)).map((d) => d.event_id)).toEqual([e.id]);
      for (const w of [other, off, testMode]) expect(await deliveriesOf(t, w.id)).toEqual([]);
      // Non-subscribable journal types enqueue nothing, whatever the subscription.
      await emit(t, clientId, 'webhook.delivery_failed', { webhook_id: hook.id });
      await emit(t, clientId, 'payment_link.created', { token: 'pl_x' });
      expect(await deliveriesOf(t, hook.id)).toHaveLength(1);
      // A rolled-back event leaves no delivery behind.
      await expect(
        t.runtime.deps.db.tx(async (tx) => {
          const { appendEvent } = await import('../../src/domain/events/append.ts');
          await appendEvent(tx, { clientId, mode: 'live', type: 'payment.refunded', data: {} });
          throw new Error('rollback');
        }),
      ).rejects.toThrow('rollback');
      expect(await deliveriesOf(t, hook.id)).toHaveLength(1);
      const d = (await deliveriesOf(t, hook.id))[0];
      expect(d).toMatchObject({ status: 'pending', attempts: 0 });
      expect(d.message_id).toMatch(/^msg_[0-9A-HJKMNP-TV-Z]{26}$/);
      // Test-mode events go to test-mode webhooks only.
      await emit(t, clientId, 'payment.completed', { operation_id: 'op_t' }, 'test');
      expect(await deliveriesOf(t, testMode.id)).toHaveLength(1);
    },
  );
});

describe('a real delivery', () => {
  it('carries the spec headers and both signatures, verified byte for byte', async () => {
    const { clientId, hook } = await setup();
    const before = rx.received.length;
    const e = await emit(t, clientId, 'payment.completed', { operation_id: 'op_1', amount: 5000, note: 'Сәлем' });
    await settle(clientId);
    const got = rx.received.slice(before);
    expect(got).toHaveLength(1);
    const r = got[0];
    const h = r.headers;
    expect(r.method).toBe('POST');
    expect(h['content-type']).toBe('application/json');
    expect(h['user-agent']).toBe('Tolem/1.0');
    expect(h['x-webhook-event']).toBe('payment.completed');
    expect(h['x-webhook-id']).toMatch(/^msg_/);
    expect(h['webhook-id']).toBe(h['x-webhook-id']);
    expect(h['webhook-timestamp']).toBe(h['x-webhook-timestamp']);
    const ts = Number(h['x-webhook-timestamp']);
    expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(10);
    // Compact JSON envelope; id is the event id.
    const body = JSON.parse(r.body);
    expect(body).toEqual({
      id: e.id,
      type: 'payment.completed',
      created_at: e.created_at.toISOString(),
      data: { operation_id: 'op_1', amount: 5000, note: 'Сәлем' },
    });
    expect(r.body).toBe(JSON.stringify(body));
    // Spec scheme: HMAC-SHA256, key = the whole secret string, over "<timestamp>.<raw body>".
    const expected = createHmac('sha256', hook.secret).update(`${h['x-webhook-timestamp']}.${r.body}`).digest('hex');
    expect(h['x-webhook-signature']).toBe(`sha256=${expected}`);
    // Standard Webhooks, verified by the library itself.
    expect(new Webhook(hook.secret).verify(r.body, h as Record<string, string>)).toEqual(body);
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(r.body, h as Record<string, string>),
    ).toThrow();
    const [d] = await deliveriesOf(t, hook.id);
    expect(d).toMatchObject({
      status: 'delivered',
      attempts: 1,
      last_status: 200,
      last_error: null,
      message_id: h['x-webhook-id'],
    });
    expect(d.delivered_at).toBeInstanceOf(Date);
    const list = (
      await t.app.inject({
        method: 'GET',
        url: '/me/webhooks',
        headers: bearer({ access: await newMerchantToken(clientId) }),
      })
    ).json();
    expect(list.data[0]).toMatchObject({ id: hook.id, last_delivery_status: 'delivered' });
    expect(list.data[0].last_delivery_at).toBeTruthy();
  });

  it('a test-mode payment paid through the API reaches the test-mode webhook as payment.completed', async () => {
    const m = await newMerchant(t.app);
    const clientId = await clientIdOf(t.runtime.deps.db, m);
    const hook = await createHook(
      t.app,
      m,
      { url: rx.url.replace('/hook', '/pay'), events: ['payment.completed'] },
      '?mode=test',
    );
    const qr = await t.app.inject({
      method: 'POST',
      url: '/v2/qr',
      headers: { ...key(m.testKey), ...idem() },
      payload: { amount: 5000 },
    });
    expect(qr.statusCode).toBe(201);
    const op = qr.json().operation_id;
    const paid = await t.app.inject({
      method: 'POST',
      url: `/v2/test/payments/${op}/pay`,
      headers: key(m.testKey),
      payload: {},
    });
    expect(paid.statusCode).toBe(200);
    await settle(clientId);
    const got = rx.received.filter((r) => r.url === '/pay');
    expect(got).toHaveLength(1);
    const body = JSON.parse(got[0].body);
    expect(body).toMatchObject({ type: 'payment.completed', data: { operation_id: op, amount: 5000, status: 'paid' } });
    expect(new Webhook(hook.secret).verify(got[0].body, got[0].headers as Record<string, string>)).toEqual(body);
  });

  it('the receiver fails, then recovers: delivered, one X-Webhook-ID across attempts', async () => {
    const { clientId, hook } = await setup();
    const seen: string[] = [];
    rx.setHandler((r) => {
      if (r.url !== '/flaky') return 200;
      seen.push(String(r.headers['x-webhook-id']));
      return seen.length <= 2 ? { status: 500, body: 'boom' } : 200;
    });
    await t.runtime.deps.db.query('UPDATE webhooks SET url = $2 WHERE id = $1', [
      hook.id,
      rx.url.replace('/hook', '/flaky'),
    ]);
    try {
      await emit(t, clientId, 'payment.completed');
      await settle(clientId);
    } finally {
      rx.setHandler(() => 200);
    }
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(1);
    const [d] = await deliveriesOf(t, hook.id);
    expect(d).toMatchObject({ status: 'delivered', attempts: 3, message_id: seen[0], last_error: null });
    // The series of failures ended with a success: failing_since is clear again.
    const w = (
      await t.app.inject({
        method: 'GET',
        url: `/me/webhooks/${hook.id}`,
        headers: bearer({ access: await newMerchantToken(clientId) }),
      })
    ).json();
    expect(w.failing_since).toBeNull();
  });

  it('the receiver always fails: failed after 5 attempts, webhook.delivery_failed in the journal', async () => {
    const { clientId, hook } = await setup(['payment.completed'], rx.url.replace('/hook', '/down'));
    let hits = 0;
    rx.setHandler((r) => (r.url === '/down' ? (hits++, { status: 503, body: 'down' }) : 200));
    try {
      const e = await emit(t, clientId, 'payment.completed');
      await settle(clientId);
      expect(hits).toBe(5);
      const [d] = await deliveriesOf(t, hook.id);
      expect(d).toMatchObject({ status: 'failed', attempts: 5, last_status: 503, delivered_at: null });
      expect(d.last_error).toBe('HTTP 503: down');
      expect(d.last_response).toBe('down');
      const ev = await t.runtime.deps.db.query<{ data: Record<string, unknown>; mode: string }>(
        `SELECT data, mode FROM events WHERE client_id = $1 AND type = 'webhook.delivery_failed'`,
        [clientId],
      );
      expect(ev.rows).toHaveLength(1);
      expect(ev.rows[0].mode).toBe('live');
      expect(ev.rows[0].data).toMatchObject({
        webhook_id: hook.id,
        event_id: e.id,
        url: hook.url,
        last_status: 503,
        attempts: 5,
      });
      const w = (
        await t.runtime.deps.db.query<{ failing_since: Date | null; is_active: boolean }>(
          'SELECT failing_since, is_active FROM webhooks WHERE id = $1',
          [hook.id],
        )
      ).rows[0];
      expect(w.failing_since).toBeInstanceOf(Date);
      expect(w.is_active).toBe(true);
      // Nothing more happens to a failed delivery.
      expect(await deliverDue(t.runtime.deps, { clientId })).toBe(0);
    } finally {
      rx.setHandler(() => 200);
    }
  });

  it('a binary error body (NUL bytes) is recorded like any failure, not retried unrecorded', async () => {
    const { clientId, hook } = await setup();
    rx.setHandler(() => ({ status: 500, body: '\u001f\u008b\u0008\u0000gzip\u0000\ud800 page' }));
    try {
      await emit(t, clientId, 'payment.completed');
      await settle(clientId);
    } finally {
      rx.setHandler(() => 200);
    }
    const [d] = await deliveriesOf(t, hook.id);
    expect(d).toMatchObject({ status: 'failed', attempts: 5, last_status: 500 });
    expect(d.last_error).toMatch(/^HTTP 500: /);
    expect(d.last_error).not.toContain('\u0000');
    // The answer's start is kept without NUL (the lone surrogate arrived as U+FFFD, UTF-8 has none).
    expect(d.last_response).toBe('\u001f\u008b\u0008gzip\ufffd page');
  });

  it('settled deliveries are pruned with the journal (trial: 30 days); pending ones stay', async () => {
    const { clientId, hook } = await setup();
    await emit(t, clientId, 'payment.completed');
    await settle(clientId);
    await emit(t, clientId, 'payment.completed'); // not sent yet
    await t.runtime.deps.db.query(
      `UPDATE webhook_deliveries SET created_at = now() - interval '31 days' WHERE webhook_id = $1`,
      [hook.id],
    );
    await pruneDeliveries(t.runtime.deps);
    expect((await deliveriesOf(t, hook.id)).map((d) => d.status)).toEqual(['pending']);
  });

  it('a 3xx is a failure and the redirect is not followed', async () => {
    const { clientId, hook } = await setup(['payment.completed'], rx.url.replace('/hook', '/moved'));
    const target = rx.url.replace('/hook', '/target');
    rx.setHandler((r) => (r.url === '/moved' ? { status: 302, headers: { location: target } } : 200));
    try {
      await emit(t, clientId, 'payment.completed');
      await settle(clientId);
    } finally {
      rx.setHandler(() => 200);
    }
    expect(rx.received.filter((r) => r.url === '/target')).toHaveLength(0);
    const [d] = await deliveriesOf(t, hook.id);
    expect(d).toMatchObject({ status: 'failed', attempts: 5, last_status: 302 });
    expect(d.last_error).toContain('redirects are not followed');
  });

  it('410 Gone switches the webhook off at once, with a notification', async () => {
    const { m, clientId, hook } = await setup(['payment.completed'], rx.url.replace('/hook', '/gone'));
    rx.setHandler((r) => (r.url === '/gone' ? 410 : 200));
    try {
      await emit(t, clientId, 'payment.completed');
      await emit(t, clientId, 'payment.completed');
      await settle(clientId, 1000);
    } finally {
      rx.setHandler(() => 200);
    }
    const w = (await t.app.inject({ method: 'GET', url: `/me/webhooks/${hook.id}`, headers: bearer(m) })).json();
    expect(w).toMatchObject({ is_active: false, disabled_reason: 'gone' });
    const ds = await deliveriesOf(t, hook.id);
    expect(ds.filter((d) => d.status === 'failed' && d.last_status === 410).length).toBeGreaterThanOrEqual(1);
    expect(ds.every((d) => d.attempts <= 1)).toBe(true);
    const n = (await t.app.inject({ method: 'GET', url: '/me/notifications', headers: bearer(m) })).json();
    expect(n.data[0]).toMatchObject({ type: 'webhook.disabled', read_at: null });
    expect(n.data[0].body).toContain('410');
    // New events no longer enqueue for it.
    const before = ds.length;
    await emit(t, clientId, 'payment.completed');
    expect(await deliveriesOf(t, hook.id)).toHaveLength(before);
  });

  it('an oversized answer is cut at 64 KiB and the delivery still counts', async () => {
    const { clientId, hook } = await setup(['payment.completed'], rx.url.replace('/hook', '/big'));
    let closedEarly = false;
    rx.setHandler((r, _n, res) => {
      if (r.url !== '/big') return 200;
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let sent = 0;
      res.on('close', () => void (closedEarly = !res.writableFinished));
      const pump = () => {
        while (sent < 200 && res.write(chunk)) sent++;
        if (sent < 200 && !res.destroyed) res.once('drain', pump);
        else res.end();
      };
      pump();
      return 200;
    });
    try {
      await emit(t, clientId, 'payment.completed');
      await settle(clientId);
    } finally {
      rx.setHandler(() => 200);
    }
    const [d] = await deliveriesOf(t, hook.id);
    expect(d).toMatchObject({ status: 'delivered', attempts: 1 });
    await sleep(50);
    expect(closedEarly).toBe(true); // 12.5 MiB offered, the client hung up after 64 KiB
  });

  it('honours Retry-After on 429 up to twice the scheduled delay', async () => {
    const { clientId, hook } = await setup(['payment.completed'], rx.url.replace('/hook', '/busy'));
    rx.setHandler((r) => (r.url === '/busy' ? { status: 429, headers: { 'retry-after': '3600' } } : 200));
    // deps.config is this app's configuration object: a slower schedule for this test only.
    t.config.webhookRetrySchedule = [0, 2, 2, 2, 2];
    try {
      await emit(t, clientId, 'payment.completed');
      await deliverDue(t.runtime.deps, { clientId });
    } finally {
      t.config.webhookRetrySchedule = FAST;
      rx.setHandler(() => 200);
    }
    const [d] = await deliveriesOf(t, hook.id);
    const delay = (d.next_attempt_at!.getTime() - d.last_attempt_at!.getTime()) / 1000;
    expect(d).toMatchObject({ status: 'pending', attempts: 1, last_status: 429 });
    expect(delay).toBeCloseTo(4, 1); // asked for an hour, capped at 2 x 2 s
  });

  it('pending deliveries of a switched-off webhook wait, and go out once it is enabled', async () => {
    const { m, clientId, hook } = await setup();
    await t.app.inject({ method: 'POST', url: `/me/webhooks/${hook.id}/disable`, headers: bearer(m) });
    // Enqueued while active (inserted directly, as if it had been written just before the disable).
    await t.runtime.deps.db.query(`UPDATE webhooks SET is_active = true WHERE id = $1`, [hook.id]);
    await emit(t, clientId, 'payment.completed');
    await t.runtime.deps.db.query(`UPDATE webhooks SET is_active = false WHERE id = $1`, [hook.id]);
    expect(await deliverDue(t.runtime.deps, { clientId })).toBe(0);
    await t.app.inject({ method: 'POST', url: `/me/webhooks/${hook.id}/enable`, headers: bearer(m) });
    await settle(clientId);
    expect((await deliveriesOf(t, hook.id))[0].status).toBe('delivered');
  });
});

/** A fresh access token for the owner of `clientId` (tests that only kept the client id). */
async function newMerchantToken(clientId: number): Promise<string> {
  const { signAccessToken } = await import('../../src/domain/accounts/tokens.ts');
  const u = (
    await t.runtime.deps.db.query<{ id: number }>(`SELECT id FROM users WHERE client_id = $1 AND role = 'owner'`, [
      clientId,
    ])
  ).rows[0];
  return signAccessToken(t.runtime.deps, { sub: String(u.id), cid: clientId, role: 'owner' });
}
