// What a merchant does by hand: test, retry, read the delivery log; rotation grace signatures; the
// 24-hour auto-disable and the automatic re-enable by a successful retry or test.
import { api } from '../helpers/api.ts';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { errorOf, newMerchant } from '../helpers/factories.ts';
import { deliverAllDue } from '../../src/jobs/deliveries.ts';
import { ADDRESS_NOT_ALLOWED } from '../../src/domain/webhooks/outbound.ts';
import { clientIdOf, createHook, deliveriesOf, emit, startReceiver, type Receiver } from './helpers.ts';

let t: TestApp;
let rx: Receiver;

beforeAll(async () => {
  t = await buildTestApp({
    webhooksAllowPrivate: true,
    webhookRetrySchedule: [0, 0.05, 0.05, 0.05, 0.05],
    webhookTimeoutMs: 1500,
  });
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
  await t.close();
});

const path = (p: string) => rx.url.replace('/hook', p);

describe('POST /me/webhooks/{id}/test', () => {
  it('sends webhook.test synchronously, records it, and returns TestResult', async () => {
    const m = await newMerchant(t.app);
    const hook = await createHook(t.app, m, { url: path('/t-ok'), events: ['payment.completed'] });
    rx.setHandler((r) => (r.url === '/t-ok' ? { status: 202, body: `ok ${'y'.repeat(1000)}` } : 200));
    const res = await api(t.app, m).post(`/me/webhooks/${hook.id}/test`);
    rx.setHandler(() => 200);
    expect(res.status).toBe(200);
    const r = res.body;
    expect(r).toMatchObject({ status_code: 202, error: null });
    expect(r.response_preview).toHaveLength(500);
    expect(r.response_preview.startsWith('ok yyy')).toBe(true);
    expect(Number.isInteger(r.duration_ms)).toBe(true);
    const got = rx.received.filter((x) => x.url === '/t-ok').at(-1)!;
    const body = JSON.parse(got.body);
    expect(body).toMatchObject({ type: 'webhook.test', data: { webhook_id: hook.id } });
    expect(body.id).toMatch(/^evt_/);
    expect(got.headers['x-webhook-event']).toBe('webhook.test');
    expect(new Webhook(hook.secret).verify(got.body, got.headers as Record<string, string>)).toEqual(body);
    const log = (await api(t.app, m).get(`/me/webhooks/${hook.id}/deliveries`)).body;
    expect(log.data[0]).toMatchObject({
      id: r.delivery_id,
      event_id: body.id,
      event_type: 'webhook.test',
      status: 'delivered',
      attempts: 1,
      last_error: null,
      response_preview: r.response_preview,
    });
    expect(log.data[0].delivered_at).toBeTruthy();
  });

  it('status_code 0 when the receiver cannot be reached; recorded as failed', async () => {
    const m = await newMerchant(t.app);
    const closed = await startReceiver();
    const url = closed.url;
    await closed.close();
    const hook = await createHook(t.app, m, { url, events: ['webhook.test'] });
    const r = (await api(t.app, m).post(`/me/webhooks/${hook.id}/test`)).body;
    expect(r).toMatchObject({ status_code: 0, response_preview: '' });
    expect(r.error).toMatch(/ECONNREFUSED/);
    const [d] = await deliveriesOf(t, hook.id);
    expect(d).toMatchObject({ status: 'failed', attempts: 1, last_status: 0, last_response: null });
    // A refused address is status 0 too (private addresses not allowed for this call), and does not say
    // what the name resolved to (no-dns-oracle.test.ts).
    const moved = await api(t.app, m).patch(`/me/webhooks/${hook.id}`, {
      body: { url: `https://localhost:${rx.port}/x` },
    });
    if (moved.status !== 200) throw new Error(`PATCH webhook: ${moved.status} ${moved.raw.body}`);
    t.config.webhooksAllowPrivate = false;
    try {
      const refused = (await api(t.app, m).post(`/me/webhooks/${hook.id}/test`)).body;
      expect(refused.status_code).toBe(0);
      expect(refused.error).toBe(ADDRESS_NOT_ALLOWED);
    } finally {
      t.config.webhooksAllowPrivate = true;
    }
  });

  it('times out after WEBHOOK_TIMEOUT_MS with status_code 0', async () => {
    const m = await newMerchant(t.app);
    const hook = await createHook(t.app, m, { url: path('/t-hang'), events: ['webhook.test'] });
    rx.setHandler((r) => (r.url === '/t-hang' ? { status: 200, hang: true } : 200));
    const started = Date.now();
    const r = (await api(t.app, m).post(`/me/webhooks/${hook.id}/test`)).body;
    rx.setHandler(() => 200);
    expect(r).toMatchObject({ status_code: 0, error: 'timeout after 1500 ms' });
    expect(Date.now() - started).toBeLessThan(4000);
  });
});

describe('rotation grace period', () => {
  it(
    'webhook-signature lists the new and the previous signature; X-Webhook-Signature ' + 'uses the new secret',
    async () => {
      const m = await newMerchant(t.app);
      const clientId = await clientIdOf(t.runtime.deps.db, m);
      const hook = await createHook(t.app, m, { url: path('/rot'), events: ['payment.completed'] });
      const rotated = (
        await api(t.app, m).post(`/me/webhooks/${hook.id}/rotate-secret`, { body: { grace_period_seconds: 600 } })
      ).body;
      await emit(t, clientId, 'payment.completed');
      await deliverAllDue(t.runtime.deps, { clientId });
      const got = rx.received.filter((x) => x.url === '/rot').at(-1)!;
      const h = got.headers as Record<string, string>;
      const sigs = h['webhook-signature'].split(' ');
      expect(sigs).toHaveLength(2);
      expect(sigs.every((s) => s.startsWith('v1,'))).toBe(true);
      expect(() => new Webhook(rotated.secret).verify(got.body, h)).not.toThrow();
      expect(() => new Webhook(hook.secret).verify(got.body, h)).not.toThrow();
      const spec = createHmac('sha256', rotated.secret).update(`${h['x-webhook-timestamp']}.${got.body}`).digest('hex');
      expect(h['x-webhook-signature']).toBe(`sha256=${spec}`);
      // Once the grace period is over, only the new secret signs. (Moving time: the grace period ends.)
      await t.runtime.deps.db.query(
        `UPDATE webhooks SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`,
        [hook.id],
      );
      await api(t.app, m).post(`/me/webhooks/${hook.id}/test`);
      const later = rx.received.filter((x) => x.url === '/rot').at(-1)!;
      expect(String(later.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(() => new Webhook(hook.secret).verify(later.body, later.headers as Record<string, string>)).toThrow();
    },
  );
});

describe('deliveries log and retry', () => {
  it('pages newest first with a signed cursor', async () => {
    const m = await newMerchant(t.app);
    const clientId = await clientIdOf(t.runtime.deps.db, m);
    const hook = await createHook(t.app, m, { url: rx.url, events: ['payment.completed'] });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await emit(t, clientId, 'payment.completed', { n: i })).id);
    const p1 = (await api(t.app, m).get(`/me/webhooks/${hook.id}/deliveries?limit=2`)).body;
    expect(p1.data.map((d: { event_id: string }) => d.event_id)).toEqual([ids[4], ids[3]]);
    expect(p1).toMatchObject({ has_more: true });
    expect(p1.data[0]).toMatchObject({ status: 'pending', attempts: 0, delivered_at: null, last_error: null });
    const p2 = (await api(t.app, m).get(`/me/webhooks/${hook.id}/deliveries?limit=2&cursor=${p1.next_cursor}`)).body;
    expect(p2.data.map((d: { event_id: string }) => d.event_id)).toEqual([ids[2], ids[1]]);
    const p3 = (await api(t.app, m).get(`/me/webhooks/${hook.id}/deliveries?limit=2&cursor=${p2.next_cursor}`)).body;
    expect(p3).toMatchObject({ has_more: false, next_cursor: null });
    expect(p3.data.map((d: { event_id: string }) => d.event_id)).toEqual([ids[0]]);
    const tampered = await api(t.app, m).get(`/me/webhooks/${hook.id}/deliveries?limit=2&cursor=${p1.next_cursor}x`);
    expect(errorOf(tampered).code).toBe('invalid_cursor');
    for (const [q, code] of [
      ['0', 'invalid_limit'],
      ['101', 'limit_too_large'],
    ]) {
      expect(errorOf(await api(t.app, m).get(`/me/webhooks/${hook.id}/deliveries?limit=${q}`)).code).toBe(code);
    }
    // A cursor of another webhook's list is not valid here.
    const other = await createHook(t.app, m, { url: rx.url, events: ['payment.completed'] });
    expect(errorOf(await api(t.app, m).get(`/me/webhooks/${other.id}/deliveries?cursor=${p1.next_cursor}`)).code).toBe(
      'invalid_cursor',
    );
  });

  it('retries a failed delivery by hand: delivered on success, same message id', async () => {
    const m = await newMerchant(t.app);
    const clientId = await clientIdOf(t.runtime.deps.db, m);
    const hook = await createHook(t.app, m, { url: path('/r1'), events: ['payment.completed'] });
    let up = false;
    rx.setHandler((r) => (r.url === '/r1' ? (up ? 200 : 500) : 200));
    try {
      await emit(t, clientId, 'payment.completed');
      // Bounded by time, not by a count of passes: on a loaded CI host a pass can find the
      // delivery's next attempt not yet due (or leased), and 20 quick passes ran out at 4 attempts.
      const until = Date.now() + 20_000;
      while (Date.now() < until && (await deliveriesOf(t, hook.id))[0].status === 'pending') {
        await deliverAllDue(t.runtime.deps, { clientId });
        await new Promise((ok) => setTimeout(ok, 60));
      }
      const [failed] = await deliveriesOf(t, hook.id);
      expect(failed).toMatchObject({ status: 'failed', attempts: 5 });
      const again = await api(t.app, m).post(`/me/webhooks/${hook.id}/deliveries/${failed.id}/retry`);
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ status: 'failed', attempts: 6, last_status: 500 });
      up = true;
      const ok = await api(t.app, m).post(`/me/webhooks/${hook.id}/deliveries/${failed.id}/retry`);
      expect(ok.body).toMatchObject({
        id: failed.id,
        status: 'delivered',
        attempts: 7,
        last_status: 200,
        last_error: null,
      });
      const ids = rx.received.filter((r) => r.url === '/r1').map((r) => r.headers['x-webhook-id']);
      expect(new Set(ids)).toEqual(new Set([failed.message_id]));
    } finally {
      rx.setHandler(() => 200);
    }
    expect(errorOf(await api(t.app, m).post(`/me/webhooks/${hook.id}/deliveries/999999999/retry`)).code).toBe(
      'delivery_not_found',
    );
    expect(errorOf(await api(t.app, m).post(`/me/webhooks/${hook.id}/deliveries/abc/retry`)).code).toBe(
      'delivery_not_found',
    );
  });

  it('a delivery held by a worker is 409 delivery_in_progress', async () => {
    const m = await newMerchant(t.app);
    const clientId = await clientIdOf(t.runtime.deps.db, m);
    const hook = await createHook(t.app, m, { url: rx.url, events: ['payment.completed'] });
    await emit(t, clientId, 'payment.completed');
    const [d] = await deliveriesOf(t, hook.id);
    // Faking a worker: it holds the delivery's lease.
    await t.runtime.deps.db.query(
      `UPDATE webhook_deliveries SET locked_until = now() + interval '1 minute', lease_token = 'w' WHERE id = $1`,
      [d.id],
    );
    const res = await api(t.app, m).post(`/me/webhooks/${hook.id}/deliveries/${d.id}/retry`);
    expect(res.status).toBe(409);
    expect(errorOf(res).code).toBe('delivery_in_progress');
  });
});

describe('failure series, auto-disable and automatic re-enable', () => {
  it('a failure when failing_since is older than 24 h switches the webhook off and notifies', async () => {
    const m = await newMerchant(t.app);
    const clientId = await clientIdOf(t.runtime.deps.db, m);
    const hook = await createHook(t.app, m, { url: path('/dead'), events: ['payment.completed'] });
    rx.setHandler((r) => (r.url === '/dead' ? 500 : 200));
    try {
      // A series that started recently does not switch it off.
      await emit(t, clientId, 'payment.completed');
      await deliverAllDue(t.runtime.deps, { clientId });
      let w = (await api(t.app, m).get(`/me/webhooks/${hook.id}`)).body;
      expect(w.is_active).toBe(true);
      expect(w.failing_since).not.toBeNull();
      const since = w.failing_since;
      await deliverAllDue(t.runtime.deps, { clientId, max: 1 });
      // Set at the first failure only.
      expect((await api(t.app, m).get(`/me/webhooks/${hook.id}`)).body.failing_since).toBe(since);
      // Moving time: the webhook has failed for 25 hours.
      await t.runtime.deps.db.query(`UPDATE webhooks SET failing_since = now() - interval '25 hours' WHERE id = $1`, [
        hook.id,
      ]);
      await new Promise((ok) => setTimeout(ok, 80));
      await deliverAllDue(t.runtime.deps, { clientId });
      w = (await api(t.app, m).get(`/me/webhooks/${hook.id}`)).body;
      expect(w).toMatchObject({ is_active: false, disabled_reason: 'auto' });
      const n = (await api(t.app, m).get('/me/notifications')).body;
      expect(n.data.map((x: { type: string }) => x.type)).toContain('webhook.disabled');
      expect((await api(t.app, m).get('/me/notifications/unread-count')).body.count).toBe(1);

      // A successful test switches it back on, with webhook.auto_reactivated in the journal.
      rx.setHandler(() => 200);
      const r = (await api(t.app, m).post(`/me/webhooks/${hook.id}/test`)).body;
      expect(r.status_code).toBe(200);
      w = (await api(t.app, m).get(`/me/webhooks/${hook.id}`)).body;
      expect(w).toMatchObject({ is_active: true, disabled_reason: null, failing_since: null });
      const ev = await t.runtime.deps.db.query<{ data: Record<string, unknown> }>(
        `SELECT data FROM events WHERE client_id = $1 AND type = 'webhook.auto_reactivated'`,
        [clientId],
      );
      expect(ev.rows).toHaveLength(1);
      expect(ev.rows[0].data).toMatchObject({ webhook_id: hook.id, via: 'test' });
    } finally {
      rx.setHandler(() => 200);
    }
  });

  it('a successful manual retry re-enables an auto-disabled webhook; a manual disable is not lifted', async () => {
    const m = await newMerchant(t.app);
    const clientId = await clientIdOf(t.runtime.deps.db, m);
    const hook = await createHook(t.app, m, { url: rx.url, events: ['payment.completed'] });
    await emit(t, clientId, 'payment.completed');
    const [d] = await deliveriesOf(t, hook.id);
    // Faking 30 hours of failures: the webhook as the auto-disable leaves it.
    await t.runtime.deps.db.query(
      `UPDATE webhooks SET is_active = false, disabled_reason = 'auto', ` +
        `failing_since = now() - interval '30 hours' WHERE id = $1`,
      [hook.id],
    );
    const res = (await api(t.app, m).post(`/me/webhooks/${hook.id}/deliveries/${d.id}/retry`)).body;
    expect(res).toMatchObject({ status: 'delivered', attempts: 1 });
    expect((await api(t.app, m).get(`/me/webhooks/${hook.id}`)).body).toMatchObject({
      is_active: true,
      failing_since: null,
    });
    const ev = await t.runtime.deps.db.query(
      `SELECT data FROM events WHERE client_id = $1 AND type = 'webhook.auto_reactivated'`,
      [clientId],
    );
    expect(ev.rows[0].data).toMatchObject({ via: 'retry' });

    await api(t.app, m).post(`/me/webhooks/${hook.id}/disable`);
    expect((await api(t.app, m).post(`/me/webhooks/${hook.id}/test`)).body.status_code).toBe(200);
    expect((await api(t.app, m).get(`/me/webhooks/${hook.id}`)).body).toMatchObject({
      is_active: false,
      disabled_reason: 'manual',
    });
  });
});
