// Issue 38 item 4: a refused destination is "address not allowed" in every answer a caller can read (the
// test call, the manual retry, the delivery log written by the worker), whatever the name resolves to or
// whether it exists; what the resolver said goes to the operator's log only.
import { api } from '../helpers/api.ts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { newMerchant } from '../helpers/factories.ts';
import { deliverAllDue } from '../../src/jobs/deliveries.ts';
import { clientIdOf, createHook, deliveriesOf, emit, startReceiver, type Receiver } from './helpers.ts';

let t: TestApp;
let rx: Receiver;

beforeAll(async () => {
  // Private addresses are allowed while the webhooks are created (any URL is accepted), refused when sent.
  t = await buildTestApp({ webhooksAllowPrivate: true, webhookRetrySchedule: [0, 0.05], webhookTimeoutMs: 3000 });
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
  await t.close();
});

/** Internal names (one that resolves to loopback, one that does not exist) and a literal private address. */
const destinations = () => [
  `https://localhost:${rx.port}/hook`,
  'https://no-such-host-for-tolem-tests.invalid/hook',
  'https://10.20.30.40/hook',
];

/** Words of a resolver's answer or of an address classification that a caller must never read. */
const LEAKS =
  /127\.0\.0\.1|::1|10\.20\.30\.40|loopback|private|ENOTFOUND|EAI_AGAIN|getaddrinfo|resolves|no-such-host|localhost/i;

const PUBLIC_TEXT = 'address not allowed';

async function withPrivateRefused<T>(fn: () => Promise<T>): Promise<T> {
  t.config.webhooksAllowPrivate = false;
  try {
    return await fn();
  } finally {
    t.config.webhooksAllowPrivate = true;
  }
}

describe('refused webhook destinations: no DNS oracle', () => {
  it(
    'the test call answers the same text for every refused destination, ' +
      'and the resolver detail goes to the log only',
    async () => {
      const m = await newMerchant(t.app);
      const warn = vi.spyOn(t.app.log, 'warn');
      try {
        const errors: string[] = [];
        for (const url of destinations()) {
          const hook = await createHook(t.app, m, { url, events: ['payment.completed'] });
          const res = await withPrivateRefused(() => api(t.app, m).post(`/me/webhooks/${hook.id}/test`, { body: {} }));
          expect(res.status, url).toBe(200);
          const r = res.body;
          expect(r.status_code, url).toBe(0);
          errors.push(r.error!);
          expect(res.raw.body, url).not.toMatch(LEAKS);
          // The delivery log of the test call says the same.
          const log = await api(t.app, m).get(`/me/webhooks/${hook.id}/deliveries`);
          expect(log.body.data[0]).toMatchObject({ status: 'failed', last_status: 0, last_error: r.error });
          expect(log.raw.body, url).not.toMatch(LEAKS);
        }
        expect(new Set(errors)).toEqual(new Set([errors[0]]));
        expect(errors[0].startsWith(PUBLIC_TEXT)).toBe(true);
        // The operator's log names what the resolver said, for each refused call.
        const logged = warn.mock.calls.map((c) => JSON.stringify(c));
        expect(logged.some((l) => l.includes('127.0.0.1'))).toBe(true);
        expect(logged.some((l) => /ENOTFOUND|EAI_AGAIN|EAI_NONAME|no-such-host/.test(l))).toBe(true);
        expect(logged.some((l) => l.includes('10.20.30.40'))).toBe(true);
      } finally {
        warn.mockRestore();
      }
    },
  );

  it('the worker and the manual retry write the same text into the delivery log', async () => {
    const m = await newMerchant(t.app);
    const clientId = await clientIdOf(t.runtime.deps.db, m);
    const hooks: { id: number }[] = [];
    for (const url of destinations()) hooks.push(await createHook(t.app, m, { url, events: ['payment.completed'] }));
    await emit(t, clientId, 'payment.completed');
    const operatorLog: unknown[] = [];
    const log = { error: (o: unknown) => void operatorLog.push(o), warn: (o: unknown) => void operatorLog.push(o) };
    await withPrivateRefused(() => deliverAllDue(t.runtime.deps, { clientId, max: 1, log }));
    const texts: string[] = [];
    for (const hook of hooks) {
      const [d] = await deliveriesOf(t, hook.id);
      expect(d).toMatchObject({ attempts: 1, last_status: 0 });
      texts.push(d.last_error!);
      const page = await api(t.app, m).get(`/me/webhooks/${hook.id}/deliveries`);
      expect(page.raw.body).not.toMatch(LEAKS);
      // A retry by hand answers the delivery with the same text.
      const retried = await withPrivateRefused(() =>
        api(t.app, m).post(`/me/webhooks/${hook.id}/deliveries/${d.id}/retry`, { body: {} }),
      );
      expect(retried.status).toBe(200);
      expect(retried.body.last_error).toBe(d.last_error);
      expect(retried.raw.body).not.toMatch(LEAKS);
    }
    expect(new Set(texts)).toEqual(new Set([texts[0]]));
    expect(texts[0].startsWith(PUBLIC_TEXT)).toBe(true);
    // The worker's log has the detail.
    const logged = JSON.stringify(operatorLog);
    expect(logged).toContain('127.0.0.1');
    expect(logged).toContain('10.20.30.40');
  });
});
