// Issue 38 item 5: the by-id webhook routes honour ?mode like the list and the create call: a live webhook
// is 404 webhook_not_found under ?mode=test, a test webhook is 404 without it, and nothing changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, newMerchant, type Merchant } from '../helpers/factories.ts';
import { deliverAllDue } from '../../src/jobs/deliveries.ts';
import { clientIdOf, createHook, deliveriesOf, emit, startReceiver, type Receiver } from './helpers.ts';

let t: TestApp;
let rx: Receiver;

beforeAll(async () => {
  t = await buildTestApp({ webhooksAllowPrivate: true, webhookRetrySchedule: [0, 60, 60], webhookTimeoutMs: 2000 });
  rx = await startReceiver(() => 500);
});
afterAll(async () => {
  await rx.close();
  await t.close();
});

const call = (m: Merchant, method: string, url: string, payload?: object) =>
  t.app.inject({ method: method as 'GET', url, headers: bearer(m), ...(payload ? { payload } : {}) });

/** Every by-id route, as [method, path under the webhook, body]. */
function routes(deliveryId: number): [string, string, object | undefined][] {
  return [
    ['GET', '', undefined],
    ['PATCH', '', { description: 'changed' }],
    ['POST', '/rotate-secret', {}],
    ['POST', '/disable', undefined],
    ['POST', '/enable', undefined],
    ['POST', '/test', {}],
    ['GET', '/deliveries', undefined],
    ['POST', `/deliveries/${deliveryId}/retry`, {}],
    ['DELETE', '', undefined],
  ];
}

async function hookWithDelivery(m: Merchant, mode: 'live' | 'test') {
  const clientId = await clientIdOf(t.runtime.deps.db, m);
  const hook = await createHook(
    t.app,
    m,
    { url: rx.url, events: ['payment.completed'] },
    mode === 'test' ? '?mode=test' : '',
  );
  await emit(t, clientId, 'payment.completed', { operation_id: 'op_mode', amount: 100 }, mode);
  await deliverAllDue(t.runtime.deps, { clientId });
  const [d] = await deliveriesOf(t, hook.id);
  return { hook, deliveryId: d.id };
}

describe('by-id webhook routes and ?mode', () => {
  it('a live webhook is not found under ?mode=test, and is untouched', async () => {
    const m = await newMerchant(t.app);
    const { hook, deliveryId } = await hookWithDelivery(m, 'live');
    for (const [method, path, body] of routes(deliveryId)) {
      const res = await call(m, method, `/me/webhooks/${hook.id}${path}?mode=test`, body);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(errorOf(res).code, `${method} ${path}`).toBe('webhook_not_found');
    }
    const live = (await call(m, 'GET', `/me/webhooks/${hook.id}`)).json();
    expect(live).toMatchObject({ id: hook.id, mode: 'live', description: null, secret_version: 1, is_active: true });
    expect((await deliveriesOf(t, hook.id)).map((d) => d.attempts)).toEqual([1]);
    // Explicit ?mode=live finds it.
    expect((await call(m, 'GET', `/me/webhooks/${hook.id}?mode=live`)).statusCode).toBe(200);
  });

  it('a test webhook is not found in live mode, and every route works under ?mode=test', async () => {
    const m = await newMerchant(t.app);
    const { hook, deliveryId } = await hookWithDelivery(m, 'test');
    for (const [method, path, body] of routes(deliveryId)) {
      const res = await call(m, method, `/me/webhooks/${hook.id}${path}`, body);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(errorOf(res).code, `${method} ${path}`).toBe('webhook_not_found');
    }
    expect((await call(m, 'GET', `/me/webhooks/${hook.id}?mode=test`)).json()).toMatchObject({
      mode: 'test',
      description: null,
      secret_version: 1,
    });
    for (const [method, path, body] of routes(deliveryId)) {
      const res = await call(m, method, `/me/webhooks/${hook.id}${path}?mode=test`, body);
      expect(res.statusCode, `${method} ${path}`).toBe(method === 'DELETE' ? 204 : 200);
    }
    expect((await call(m, 'GET', `/me/webhooks/${hook.id}?mode=test`)).statusCode).toBe(404);
  });

  it('a delivery log cursor of one webhook is refused by another', async () => {
    const m = await newMerchant(t.app);
    const clientId = await clientIdOf(t.runtime.deps.db, m);
    const a = await createHook(t.app, m, { url: rx.url, events: ['payment.completed'] });
    const b = await createHook(t.app, m, { url: rx.url, events: ['payment.completed'] });
    for (let i = 0; i < 3; i++) await emit(t, clientId, 'payment.completed', { n: i });
    const p1 = (await call(m, 'GET', `/me/webhooks/${a.id}/deliveries?limit=1`)).json();
    expect(p1.next_cursor).toBeTruthy();
    const other = await call(
      m,
      'GET',
      `/me/webhooks/${b.id}/deliveries?limit=1&cursor=${encodeURIComponent(p1.next_cursor)}`,
    );
    expect(other.statusCode).toBe(400);
    expect(errorOf(other).code).toBe('invalid_cursor');
  });
});
