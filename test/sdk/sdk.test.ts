// @tolem/sdk against a listening Tolem: a QR created, paid, read, listed with the page iterator and
// refunded; a webhook delivery verified in both signature schemes; a create whose answer was lost retried
// into one operation; no retry of a create without a key; errors and time-outs as TolemError.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import {
  createTolem,
  signWebhook,
  TolemError,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
} from '@tolem/sdk';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { uniqueEmail } from '../helpers/factories.ts';
import { startReceiver, type Receiver } from '../webhooks/helpers.ts';
import { deliverAllDue } from '../../src/jobs/deliveries.ts';

let t: TestApp;
let base: string;
let receiver: Receiver;
beforeAll(async () => {
  t = await buildTestApp({ webhooksAllowPrivate: true });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

async function merchant() {
  const { data } = await createTolem({ baseUrl: base }).POST('/auth/register', {
    body: { name: 'SDK shop', email: uniqueEmail('sdk'), password: 'a long password 1' },
  });
  return { testKey: data!.api_keys!.test, access: data!.access_token };
}

describe('a payment through the SDK', () => {
  it('QR -> pay -> status -> every page by the iterator -> refund', async () => {
    const m = await merchant();
    const tolem = createTolem({ baseUrl: base, apiKey: m.testKey });
    const { data: qr } = await tolem.POST('/v2/qr', { body: { amount: 5000, comment: 'Order 1' } });
    expect(qr!.operation_id).toMatch(/^op_/);
    await tolem.POST('/v2/test/payments/{op_id}/pay', { params: { path: { op_id: qr!.operation_id } }, body: {} });
    const { data: status } = await tolem.GET('/v2/qr/{op_id}', { params: { path: { op_id: qr!.operation_id } } });
    expect(status!.status).toBe('paid');
    for (let i = 0; i < 4; i++) await tolem.POST('/v2/qr', { body: { amount: 100 + i } });
    const seen: string[] = [];
    for await (const p of tolem.paginate('/v2/payments', { query: { limit: 2 } })) seen.push(p.operation_id);
    expect(seen).toHaveLength(5);
    expect(seen.at(-1)).toBe(qr!.operation_id);
    const { data: refund } = await tolem.POST('/v2/refunds', {
      body: { operation_id: qr!.operation_id, amount: 2000 },
    });
    expect(refund).toMatchObject({ status: 'completed', amount: 2000, remaining_refundable: 3000 });
  });

  it('errors are TolemError with type, code, param and request id', async () => {
    const tolem = createTolem({ baseUrl: base, apiKey: (await merchant()).testKey });
    const err = await tolem.POST('/v2/qr', { body: { amount: -1 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TolemError);
    expect(err).toMatchObject({ status: 400, type: 'validation_error', code: 'invalid_parameter', param: 'amount' });
    expect((err as TolemError).requestId).toBeTruthy();
    // The test helpers take a user's token too, in test mode only.
    const { access } = await merchant();
    await expect(
      createTolem({ baseUrl: base, accessToken: access }).POST('/v2/test/payments/{op_id}/pay', {
        params: { path: { op_id: 'op_01X' } },
        body: {},
      }),
    ).rejects.toMatchObject({ status: 403, code: 'test_mode_only' });
    const bad = await createTolem({ baseUrl: base, apiKey: 'kp_test_nope' })
      .GET('/v2/payments')
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 401, code: 'invalid_api_key' });
  });
});

describe('retries', () => {
  it('a create whose answer was lost is retried with its Idempotency-Key: one operation', async () => {
    const m = await merchant();
    let calls = 0;
    const keys: string[] = [];
    // The first answer is lost on the way back (the server did create the QR): the client sees a 503.
    const lossy: typeof fetch = async (input, init) => {
      const req = new Request(input, init);
      calls++;
      keys.push(req.headers.get('idempotency-key') ?? '');
      const res = await fetch(req);
      return calls === 1
        ? new Response('{"error":{"type":"api_error","code":"temporary","message":"lost"}}', {
            status: 503,
            headers: { 'retry-after': '0' },
          })
        : res;
    };
    const tolem = createTolem({ baseUrl: base, apiKey: m.testKey, fetch: lossy });
    const { data, response } = await tolem.POST('/v2/qr', { body: { amount: 700 } });
    expect(calls).toBe(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    const all = [];
    for await (const p of createTolem({ baseUrl: base, apiKey: m.testKey }).paginate('/v2/payments')) all.push(p);
    expect(all.map((p) => p.operation_id)).toEqual([data!.operation_id]);
  });

  it('a POST without an Idempotency-Key is never retried; a GET is, after Retry-After', async () => {
    let calls = 0;
    const down: typeof fetch = async () => {
      calls++;
      return new Response('{"error":{"type":"api_error","code":"temporary","message":"down"}}', {
        status: 503,
        headers: { 'retry-after': '0' },
      });
    };
    const { access } = await merchant();
    const jwt = createTolem({ baseUrl: base, accessToken: access, fetch: down, maxRetries: 3 });
    await expect(
      jwt.POST('/me/webhooks', { body: { url: 'https://example.kz/h', events: ['payment.completed'] } }),
    ).rejects.toMatchObject({ status: 503 });
    expect(calls).toBe(1);
    calls = 0;
    await expect(jwt.GET('/me/webhooks')).rejects.toMatchObject({ status: 503 });
    expect(calls).toBe(4);
  });

  it('a call that outlives its time-out is a TolemError (connection_error, timeout)', async () => {
    const hang: typeof fetch = (input, init) =>
      new Promise((_, reject) => {
        const signal = (init?.signal ?? (input as Request).signal)!;
        signal.addEventListener('abort', () => reject(signal.reason));
      });
    const tolem = createTolem({ baseUrl: base, apiKey: 'kp_test_x', fetch: hang, timeoutMs: 50, maxRetries: 0 });
    await expect(tolem.GET('/v2/payments')).rejects.toMatchObject({
      type: 'connection_error',
      code: 'timeout',
      status: 0,
    });
  });

  it('the time-out fires while garbage is collected, against a real socket that never answers', async () => {
    const run = await promisify(execFile)(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', 'test/sdk/fixtures/gc-timeout.ts'],
      { timeout: 20_000 },
    );
    const r = JSON.parse(run.stdout.trim().split('\n').pop()!);
    expect(r.outcome).toEqual({ type: 'connection_error', code: 'timeout' });
    expect(r.ms).toBeLessThan(10_000);
  });
});

describe('webhooks', () => {
  it(
    'a real delivery verifies in both schemes; a changed body, another ' + 'secret or an old timestamp does not',
    async () => {
      const m = await merchant();
      const jwt = createTolem({ baseUrl: base, accessToken: m.access });
      const { data: hook } = await jwt.POST('/me/webhooks', {
        params: { query: { mode: 'test' } },
        body: { url: receiver.url, events: ['payment.completed'] },
      });
      const tolem = createTolem({ baseUrl: base, apiKey: m.testKey });
      const { data: qr } = await tolem.POST('/v2/qr', { body: { amount: 900 } });
      const before = receiver.received.length;
      await tolem.POST('/v2/test/payments/{op_id}/pay', { params: { path: { op_id: qr!.operation_id } }, body: {} });
      await deliverAllDue(t.runtime.deps);
      const got = (await receiver.waitFor(before + 1)).at(-1)!;
      const headers = got.headers as Record<string, string>;
      const event: WebhookEvent = await verifyWebhook(got.body, headers, hook!.secret);
      expect(event.type).toBe('payment.completed');
      expect(JSON.stringify(event)).toContain(qr!.operation_id);
      expect((await verifyWebhook(got.body, headers, hook!.secret, { scheme: 'tolem' })).type).toBe(
        'payment.completed',
      );
      expect((await verifyWebhook(got.body, new Headers(headers), hook!.secret, { scheme: 'standard' })).type).toBe(
        'payment.completed',
      );
      await expect(verifyWebhook(got.body.replace('900', '901'), headers, hook!.secret)).rejects.toBeInstanceOf(
        WebhookVerificationError,
      );
      await expect(
        verifyWebhook(got.body, headers, hook!.secret, { scheme: 'tolem', now: Date.now() + 3600_000 }),
      ).rejects.toThrow(/tolerance/);
      const other = (
        await jwt.POST('/me/webhooks', {
          params: { query: { mode: 'test' } },
          body: { url: receiver.url, events: ['payment.refunded'] },
        })
      ).data!.secret;
      await expect(verifyWebhook(got.body, headers, other)).rejects.toBeInstanceOf(WebhookVerificationError);
    },
  );

  it('signWebhook signs as the server does (the CLI forwards with it)', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"type":"webhook.test"}';
    const h = await signWebhook(body, secret, 'msg_1', Math.floor(Date.now() / 1000));
    expect((await verifyWebhook(body, h, secret, { scheme: 'standard' })).type).toBe('webhook.test');
    expect((await verifyWebhook(body, h, secret, { scheme: 'tolem' })).type).toBe('webhook.test');
  });
});
