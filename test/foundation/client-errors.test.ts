// Failures below the route layer, over a real socket (inject never reaches Node's HTTP parser): headers
// or a URL over the limit, requests the parser refuses, a URL Fastify cannot decode. Each answers the
// error envelope with a request id in body and X-Request-Id alike.
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

/** Sends raw bytes and reads the whole answer (the server closes the connection after these errors). */
function raw(request: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    let data = '';
    s.setEncoding('utf8');
    s.on('data', (c: string) => (data += c));
    s.on('error', reject);
    s.on('close', () => {
      const [head, ...rest] = data.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    s.end(request);
  });
}

function expectEnvelope(
  res: { status: number; headers: Record<string, string>; body: string },
  status: number,
  code: string,
) {
  expect(res.status, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const { error } = JSON.parse(res.body);
  expect(error.code).toBe(code);
  expect(error.request_id).toMatch(/^req_[0-9A-Z]{26}$/);
  expect(res.headers['x-request-id']).toBe(error.request_id);
  expect(Object.keys(error).sort()).toEqual(['category', 'code', 'message', 'request_id', 'type']);
}

describe('errors below the route layer', () => {
  it('headers over the limit: 431 headers_too_large', async () => {
    const res = await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectEnvelope(res, 431, 'headers_too_large');
    expect(JSON.parse(res.body).error.type).toBe('validation_error');
  });

  it('a URL over the limit: 431 too', async () => {
    expectEnvelope(
      await raw(`GET /healthz?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`),
      431,
      'headers_too_large',
    );
  });

  it('Content-Length together with Transfer-Encoding: 400', async () => {
    const res = await raw(
      'POST /v2/qr HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    );
    expectEnvelope(res, 400, 'invalid_parameter');
  });

  it('a broken request line: 400', async () => {
    expectEnvelope(await raw('THIS IS NOT HTTP\r\n\r\n'), 400, 'invalid_parameter');
  });

  it('a URL with broken percent-encoding over the wire: 400 with X-Request-Id', async () => {
    expectEnvelope(
      await raw('GET /v2/qr/%FF HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      400,
      'invalid_parameter',
    );
  });

  it('the server keeps serving after each', async () => {
    const res = await raw('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(200);
  });
});
