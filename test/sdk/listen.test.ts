// `tolem listen`'s loop against a journal that answers by the query it receives (mode, since, limit, as
// GET /v2/events does: newest first, `since` inclusive): it starts after the newest event, retries what may
// pass (503), stops with the API's error on what cannot (401), and forwards each event once, in order, as
// the delivery body, catching an event that committed after a later one had been read.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTolem, TolemError } from '@tolem/sdk';
import { listen, messageIdOf } from '../../packages/cli/src/listen.ts';
import type { Out } from '../../packages/cli/src/output.ts';

const quiet: Out = { json: true, result: () => {}, progress: () => {} };
const ev = (id: string, at: string) => ({
  id,
  type: 'payment.completed',
  created_at: at,
  livemode: false,
  data: { operation_id: `op_${id}` },
});
const page = (...items: unknown[]) =>
  new Response(JSON.stringify({ data: items, next_cursor: null, has_more: false }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
const error = (status: number, code: string) =>
  new Response(JSON.stringify({ error: { type: 'authentication_error', code, message: code } }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

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
  const fetch = (async () => script[Math.min(i++, script.length - 1)]()) as typeof globalThis.fetch;
  return {
    api: createTolem({ baseUrl: 'http://127.0.0.1:1', apiKey: 'kp_test_x', fetch, maxRetries: 0 }),
    calls: () => i,
  };
}

type Ev = ReturnType<typeof ev>;
/**
 * A journal that answers GET /v2/events by its query, as the server does: test mode only (400 without it),
 * events at or after `since`, newest first, `limit` of them. `events` may grow while listen runs.
 */
function journal(events: Ev[]) {
  const queries: URLSearchParams[] = [];
  const fetch = (async (input: Request | string | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    queries.push(url.searchParams);
    if (url.searchParams.get('mode') !== 'test') return error(400, 'invalid_parameter');
    const since = url.searchParams.get('since') ?? '1970-01-01T00:00:00.000Z';
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const hits = events
      .filter((e) => e.created_at >= since)
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
    return page(...hits.slice(0, limit));
  }) as typeof globalThis.fetch;
  return { api: createTolem({ baseUrl: 'http://127.0.0.1:1', apiKey: 'kp_test_x', fetch, maxRetries: 0 }), queries };
}

describe('tolem listen', () => {
  it('forwards each new event once, oldest first, as the delivery body; a late commit is caught', async () => {
    bodies.length = 0;
    const events = [ev('a', '2026-11-24T10:00:00.000Z')]; // the mark
    const { api } = journal(events);
    const run = listen(api, quiet, {
      forwardTo,
      max: 2,
      intervalMs: 10,
      secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
    });
    await new Promise((ok) => setTimeout(ok, 60));
    events.push(ev('c', '2026-11-24T10:00:02.000Z'));
    while (bodies.length < 1) await new Promise((ok) => setTimeout(ok, 10));
    // b committed late: its created_at is before c's, which was already forwarded
    events.push(ev('b', '2026-11-24T10:00:01.000Z'));
    await run;
    expect(bodies.map((b) => JSON.parse(b).id)).toEqual(['c', 'b']);
    expect(Object.keys(JSON.parse(bodies[0]))).toEqual(['id', 'type', 'created_at', 'data']);
  });

  it(
    'sends its query: nothing from before it started is forwarded, and ' +
      'a new event once, with a webhook-id stable across runs',
    async () => {
      bodies.length = 0;
      const events = [
        ev('old1', '2026-11-24T09:00:00.000Z'),
        ev('old2', '2026-11-24T09:30:00.000Z'),
        ev('old3', '2026-11-24T10:00:00.000Z'),
      ];
      const { api, queries } = journal(events);
      const headers: Record<string, string>[] = [];
      const local = createServer((req, res) => {
        headers.push(req.headers as Record<string, string>);
        let b = '';
        req.on('data', (c) => (b += c)).on('end', () => (bodies.push(b), res.end('ok')));
      });
      await new Promise<void>((ok) => local.listen(0, '127.0.0.1', ok));
      const to = `http://127.0.0.1:${(local.address() as AddressInfo).port}/hook`;
      try {
        const run = listen(api, quiet, { forwardTo: to, max: 1, intervalMs: 10 });
        await new Promise((ok) => setTimeout(ok, 100));
        events.push(ev('new', '2026-11-24T10:05:00.000Z'));
        await run;
        expect(bodies.map((b) => JSON.parse(b).id)).toEqual(['new']);
        expect(queries[0].get('mode')).toBe('test');
        expect(queries[0].get('limit')).toBe('1');
        expect(headers[0]['webhook-id']).toMatch(/^msg_[\w-]{26}$/);
        expect(headers[0]['webhook-id']).toBe(messageIdOf({ id: 'new' }));
        // A restart: what happened before it, even a second before (inside the look-back window), stays
        // unforwarded; the next new event goes, under its own id, derived from the event, not the run.
        const later = [...events, ev('newer', '2026-11-24T10:05:01.000Z')];
        const again = journal(later);
        const second = listen(again.api, quiet, { forwardTo: to, max: 1, intervalMs: 10 });
        await new Promise((ok) => setTimeout(ok, 100));
        later.push(ev('newest', '2026-11-24T10:05:02.000Z'));
        await second;
        expect(bodies.map((b) => JSON.parse(b).id)).toEqual(['new', 'newest']);
        expect(headers[1]['webhook-id']).toBe(messageIdOf({ id: 'newest' }));
        expect(messageIdOf({ id: 'new' })).not.toBe(messageIdOf({ id: 'newest' }));
      } finally {
        await new Promise<void>((ok) => local.close(() => ok()));
      }
    },
  );

  it("retries a 503, then stops with the API's error on a 401", async () => {
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
