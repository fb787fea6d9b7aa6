// `tolem listen`'s loop against a scripted API (the journal's answers in order): it retries what may pass
// (503), stops with the API's error on what cannot (401), and forwards each event once, in order, as the
// delivery body, catching an event that committed after a later one had been read.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTolem, TolemError } from '@tolem/sdk';
import { listen } from '../../packages/cli/src/listen.ts';
import type { Out } from '../../packages/cli/src/output.ts';

const quiet: Out = { json: true, result: () => {}, progress: () => {} };
const ev = (id: string, at: string) => ({ id, type: 'payment.completed', created_at: at, livemode: false, data: { operation_id: `op_${id}` } });
const page = (...items: unknown[]) => new Response(JSON.stringify({ data: items, next_cursor: null, has_more: false }), { status: 200, headers: { 'content-type': 'application/json' } });
const error = (status: number, code: string) => new Response(JSON.stringify({ error: { type: 'authentication_error', code, message: code } }), { status, headers: { 'content-type': 'application/json' } });

let receiver: Server;
let forwardTo: string;
const bodies: string[] = [];
beforeAll(async () => {
  receiver = createServer((req, res) => {
    let b = '';
    req.on('data', (c) => (b += c)).on('end', () => (bodies.push(b), res.end('ok')));
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  forwardTo = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(() => new Promise<void>((ok) => receiver.close(() => ok())));

/** A client whose journal answers come from `script`, one per call. */
function scripted(script: (() => Response)[]) {
  let i = 0;
  const fetch = (async () => (script[Math.min(i++, script.length - 1)])()) as typeof globalThis.fetch;
  return { api: createTolem({ baseUrl: 'http://127.0.0.1:1', apiKey: 'kp_test_x', fetch, maxRetries: 0 }), calls: () => i };
}

describe('tolem listen', () => {
  it('forwards each new event once, oldest first, as the delivery body; a late commit is caught', async () => {
    bodies.length = 0;
    const { api } = scripted([
      () => page(ev('a', '2026-11-24T10:00:00.000Z')), // the mark
      () => page(ev('c', '2026-11-24T10:00:02.000Z'), ev('a', '2026-11-24T10:00:00.000Z')),
      // b committed late: its created_at is before c's, which was already forwarded
      () => page(ev('c', '2026-11-24T10:00:02.000Z'), ev('b', '2026-11-24T10:00:01.000Z'), ev('a', '2026-11-24T10:00:00.000Z')),
    ]);
    await listen(api, quiet, { forwardTo, max: 2, intervalMs: 10, secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}` });
    expect(bodies.map((b) => JSON.parse(b).id)).toEqual(['c', 'b']);
    expect(Object.keys(JSON.parse(bodies[0]))).toEqual(['id', 'type', 'created_at', 'data']);
  });

  it('retries a 503, then stops with the API\'s error on a 401', async () => {
    const { api, calls } = scripted([
      () => page(),
      () => error(503, 'service_unavailable'),
      () => error(401, 'token_revoked'),
    ]);
    const err = await listen(api, quiet, { forwardTo, intervalMs: 10 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TolemError);
    expect(err).toMatchObject({ status: 401, code: 'token_revoked' });
    expect(calls()).toBe(3);
  }, 15_000);
});
