// The delivery worker's loop (ROLE worker|all) in-process: a window of deliveries in flight refilled as
// they finish, so a receiver that hangs holds its own slots only; successes recorded in batches as one
// attempt each; stop() lets the deliveries in flight finish and be recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { newMerchant } from '../helpers/factories.ts';
import { DeliveryWorker } from '../../src/jobs/deliveries.ts';
import { clientIdOf, createHook, deliveriesOf, emit, sleep, startReceiver, type Receiver } from './helpers.ts';

let t: TestApp;
let rx: Receiver;
const errors: unknown[] = [];
const log = { error: (o: unknown) => void errors.push(o) };

beforeAll(async () => {
  t = await buildTestApp({
    webhooksAllowPrivate: true,
    webhookRetrySchedule: [0, 60, 60, 60, 60],
    webhookTimeoutMs: 5000,
  });
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
  await t.close();
});

async function merchantWithHooks(paths: string[]) {
  const m = await newMerchant(t.app);
  const clientId = await clientIdOf(t.runtime.deps.db, m);
  const hooks = [];
  for (const p of paths)
    hooks.push(await createHook(t.app, m, { url: `${rx.url}/${p}`, events: ['payment.completed'] }));
  return { clientId, hooks };
}

async function until(cond: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(20);
  }
}

describe('delivery worker', () => {
  it('keeps delivering to other receivers while one hangs (no head-of-line wait)', async () => {
    const { clientId, hooks } = await merchantWithHooks(['hang', 'fast']);
    let release!: () => void;
    const released = new Promise<void>((ok) => (release = ok));
    rx.setHandler(async (r) => {
      if (r.url.endsWith('/hang')) await released;
      return 200;
    });
    const worker = new DeliveryWorker(t.runtime.deps, log, 10, clientId);
    worker.start();
    try {
      const fastCount = () =>
        rx.received.filter((r) => r.url.endsWith('/fast') && JSON.parse(r.body).data.client === clientId).length;
      for (let i = 0; i < 3; i++) {
        await emit(t, clientId, 'payment.completed', { operation_id: `op_${i}`, client: clientId });
        // Each fast delivery lands while every hanging one is still unanswered.
        await until(async () => fastCount() === i + 1);
      }
      // The receipt comes before the worker records it: wait for the record, not just the request.
      await until(async () => (await deliveriesOf(t, hooks[1].id)).every((d) => d.status === 'delivered'));
      expect((await deliveriesOf(t, hooks[0].id)).map((d) => d.status)).toEqual(['pending', 'pending', 'pending']);
      release();
      await until(async () => (await deliveriesOf(t, hooks[0].id)).every((d) => d.status === 'delivered'));
    } finally {
      release();
      await worker.stop();
      rx.setHandler(() => 200);
    }
  });

  it('records each success once, as one attempt, and ends the failure series of its webhook', async () => {
    const { clientId, hooks } = await merchantWithHooks(['a', 'b']);
    await t.runtime.deps.db.query(`UPDATE webhooks SET failing_since = now() - interval '1 hour' WHERE id = $1`, [
      hooks[0].id,
    ]);
    for (let i = 0; i < 30; i++) await emit(t, clientId, 'payment.completed', { operation_id: `op_${i}` });
    const worker = new DeliveryWorker(t.runtime.deps, log, 8, clientId);
    worker.start();
    try {
      await until(async () => {
        const r = await t.runtime.deps.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE client_id = $1 AND status = 'delivered'`,
          [clientId],
        );
        return r.rows[0].n === 60;
      });
    } finally {
      await worker.stop();
    }
    for (const h of hooks) {
      for (const d of await deliveriesOf(t, h.id)) {
        expect(d).toMatchObject({
          status: 'delivered',
          attempts: 1,
          last_status: 200,
          last_error: null,
          last_response: '',
        });
        expect(d.delivered_at).toBeInstanceOf(Date);
        expect(d.last_attempt_at).toEqual(d.delivered_at);
      }
    }
    const w = await t.runtime.deps.db.query<{ failing_since: Date | null }>(
      'SELECT failing_since FROM webhooks WHERE id = $1',
      [hooks[0].id],
    );
    expect(w.rows[0].failing_since).toBeNull();
    const ids = new Set(
      rx.received.filter((r) => r.url.endsWith('/a') || r.url.endsWith('/b')).map((r) => r.headers['x-webhook-id']),
    );
    expect(ids.size).toBeGreaterThanOrEqual(60);
  });

  it('stop() waits for the deliveries in flight and records them', async () => {
    const { clientId, hooks } = await merchantWithHooks(['slow']);
    rx.setHandler(() => ({ status: 200, delayMs: 300 }));
    const worker = new DeliveryWorker(t.runtime.deps, log, 10, clientId);
    worker.start();
    try {
      const before = rx.received.length;
      await emit(t, clientId, 'payment.completed');
      await rx.waitFor(before + 1, 5000);
      await worker.stop();
      expect((await deliveriesOf(t, hooks[0].id)).map((d) => d.status)).toEqual(['delivered']);
    } finally {
      await worker.stop();
      rx.setHandler(() => 200);
    }
    expect(errors).toEqual([]);
  });
});
