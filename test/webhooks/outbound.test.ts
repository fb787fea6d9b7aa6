// The outbound client on its own: address classification, the DNS-checking connector (refusal happens at
// connect time, against the address actually used), no redirects, time-out, the 64 KiB cap.
import { createServer } from 'node:https';
import { createServer as createHttpServer } from 'node:http';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { classifyAddress, validateWebhookUrl } from '../../src/domain/webhooks/address-policy.ts';
import {
  ADDRESS_NOT_ALLOWED,
  AddressRefusedError,
  MAX_RESPONSE_BYTES,
  guardedConnector,
  postJson,
  resolveChecked,
} from '../../src/domain/webhooks/outbound.ts';
import { nextDelaySeconds, parseRetryAfter } from '../../src/domain/webhooks/attempt.ts';
import { startReceiver, type Receiver } from './helpers.ts';

let rx: Receiver;
const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(() => rx.close());

describe('classifyAddress', () => {
  const refused: [string, string][] = [
    ['127.0.0.1', 'loopback'],
    ['127.8.9.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'linkLocal'],
    ['169.254.169.254', 'metadata'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.5', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['fd00:ec2::254', 'metadata'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:7f00:1', 'loopback'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['2002:7f00:1::', '6to4'],
    ['2001::1', 'teredo'],
    ['2001:db8::1', 'reserved'],
    ['not-an-ip', 'invalid'],
  ];
  it.each(refused)('%s is refused (%s)', (ip, range) => {
    expect(classifyAddress(ip, false)).toMatchObject({ allowed: false, range });
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (ip) => {
    expect(classifyAddress(ip, false).allowed).toBe(true);
  });

  it('WEBHOOKS_ALLOW_PRIVATE opens loopback and private ranges, never metadata, multicast or unspecified', () => {
    for (const ip of ['127.0.0.1', '10.0.0.1', '::1', 'fd00::1', '::ffff:127.0.0.1', '100.64.0.1'])
      expect(classifyAddress(ip, true).allowed, ip).toBe(true);
    for (const ip of ['169.254.169.254', 'fd00:ec2::254', '0.0.0.0', '224.0.0.1', '::'])
      expect(classifyAddress(ip, true).allowed, ip).toBe(false);
  });
});

describe('validateWebhookUrl', () => {
  it('normalizes tricky spellings before judging literal addresses', () => {
    for (const url of [
      'https://2130706433/',
      'https://0x7f.1/',
      'https://[0:0:0:0:0:ffff:7f00:1]/',
      'https://127.1/',
    ]) {
      expect(() => validateWebhookUrl(url, false), url).toThrow(/address/);
    }
    expect(validateWebhookUrl('https://example.kz/hook?x=1', false)).toBe('https://example.kz/hook?x=1');
    expect(() => validateWebhookUrl('https://example.kz/#frag', false)).toThrow(/fragment/);
  });
});

describe('resolveChecked and the guarded connector', () => {
  const fakeDns = (map: Record<string, string[]>) => async (host: string) => {
    const a = map[host];
    if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return a.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

  it('refuses a name that resolves only to private addresses, and picks an allowed one otherwise', async () => {
    const dns = fakeDns({
      'internal.example': ['10.0.0.7'],
      'rebind.example': ['::ffff:127.0.0.1'],
      'mixed.example': ['192.168.0.1', '93.184.216.34'],
    });
    await expect(resolveChecked('internal.example', false, dns)).rejects.toBeInstanceOf(AddressRefusedError);
    await expect(resolveChecked('rebind.example', false, dns)).rejects.toMatchObject({
      message: ADDRESS_NOT_ALLOWED,
      detail: expect.stringMatching(/loopback/),
    });
    await expect(resolveChecked('mixed.example', false, dns)).resolves.toBe('93.184.216.34');
    await expect(resolveChecked('internal.example', true, dns)).resolves.toBe('10.0.0.7');
    await expect(resolveChecked('[::1]', false, dns)).rejects.toMatchObject({
      message: ADDRESS_NOT_ALLOWED,
      detail: expect.stringMatching(/loopback/),
    });
  });

  it(
    'a name that does not resolve is refused like a private one; the ' + "resolver's answer is in the detail only",
    async () => {
      const dns = fakeDns({ 'internal.example': ['10.0.0.7'] });
      const missing = await resolveChecked('missing.example', false, dns).catch((e: AddressRefusedError) => e);
      const internal = await resolveChecked('internal.example', false, dns).catch((e: AddressRefusedError) => e);
      expect(missing).toBeInstanceOf(AddressRefusedError);
      expect(internal).toBeInstanceOf(AddressRefusedError);
      expect((missing as AddressRefusedError).message).toBe((internal as AddressRefusedError).message);
      expect((missing as AddressRefusedError).detail).toMatch(/missing\.example did not resolve: ENOTFOUND/);
      expect((internal as AddressRefusedError).detail).toBe(
        'internal.example resolves to 10.0.0.7 (private), which webhooks may not reach',
      );
    },
  );

  it('connects to the checked address, not to a second answer (no rebinding window)', async () => {
    // The first lookup answers loopback: refused before any socket is opened.
    let lookups = 0;
    const dns = async () => {
      lookups++;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const agent = new Agent({ connect: guardedConnector({ allowPrivate: false, timeoutMs: 1000, lookup: dns }) });
    const before = rx.received.length;
    await expect(
      request(`http://rebind.example:${rx.port}/x`, { dispatcher: agent, method: 'POST', body: '{}' }),
    ).rejects.toThrow(ADDRESS_NOT_ALLOWED);
    expect(lookups).toBe(1);
    expect(rx.received.length).toBe(before);
    // Allowed: the connector dials the address it resolved (the name itself is never resolved again).
    const open = new Agent({ connect: guardedConnector({ allowPrivate: true, timeoutMs: 1000, lookup: dns }) });
    const res = await request(`http://rebind.example:${rx.port}/x`, { dispatcher: open, method: 'POST', body: '{}' });
    await res.body.text();
    expect(res.statusCode).toBe(200);
    expect(rx.received.at(-1)!.headers.host).toBe(`rebind.example:${rx.port}`);
    await agent.close();
    await open.close();
  });

  it('postJson refuses a real name that resolves to loopback unless private addresses are allowed', async () => {
    const refused = await postJson(`https://localhost:${rx.port}/x`, {}, '{}', {
      allowPrivate: false,
      timeoutMs: 1000,
    });
    expect(refused).toMatchObject({ status: 0, error: ADDRESS_NOT_ALLOWED });
    expect(refused.detail).toMatch(/^localhost resolves to 127\.0\.0\.1 \(loopback\)/);
    const missing = await postJson('https://no-such-host-for-tolem-tests.invalid/x', {}, '{}', {
      allowPrivate: false,
      timeoutMs: 3000,
    });
    expect(missing).toMatchObject({ status: 0, error: ADDRESS_NOT_ALLOWED });
    expect(missing.detail).toMatch(/^no-such-host-for-tolem-tests\.invalid did not resolve/);
    const http = await postJson(`http://example.kz/x`, {}, '{}', { allowPrivate: false, timeoutMs: 1000 });
    expect(http.error).toBe('refused: url must use https');
    const ok = await postJson(`http://localhost:${rx.port}/x`, {}, '{}', { allowPrivate: true, timeoutMs: 1000 });
    expect(ok.status).toBe(200);
  });

  it.skipIf(!hasOpenssl)('TLS sends the original name as SNI and verifies the certificate for it', async () => {
    // A self-signed certificate for "localhost": the server sees SNI "localhost" although the socket
    // goes to 127.0.0.1, and the client rejects the certificate as untrusted (not as a name mismatch).
    const dir = mkdtempSync(path.join(tmpdir(), 'tolem-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost',
        '-keyout',
        path.join(dir, 'k.pem'),
        '-out',
        path.join(dir, 'c.pem'),
      ],
      { stdio: 'ignore' },
    );
    let sni: string | undefined;
    const server = createServer(
      {
        key: readFileSync(path.join(dir, 'k.pem')),
        cert: readFileSync(path.join(dir, 'c.pem')),
        SNICallback: (name, cb) => ((sni = name), cb(null)),
      },
      (_req, res) => res.end('x'),
    );
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = (server.address() as { port: number }).port;
    const r = await postJson(`https://localhost:${port}/`, {}, '{}', { allowPrivate: true, timeoutMs: 2000 });
    server.close();
    rmSync(dir, { recursive: true, force: true });
    expect(sni).toBe('localhost');
    expect(r.status).toBe(0);
    expect(r.error).toMatch(/self[- ]signed/i);
  });
});

describe('postJson', () => {
  it('does not follow redirects', async () => {
    rx.setHandler((r) =>
      r.url === '/from' ? { status: 301, headers: { location: rx.url.replace('/hook', '/to') } } : 200,
    );
    const r = await postJson(rx.url.replace('/hook', '/from'), {}, '{}', { allowPrivate: true, timeoutMs: 1000 });
    rx.setHandler(() => 200);
    expect(r.status).toBe(301);
    expect(rx.received.some((x) => x.url === '/to')).toBe(false);
  });

  it('reads at most 64 KiB of the answer', async () => {
    rx.setHandler(() => ({ status: 200, body: 'z'.repeat(300 * 1024) }));
    const r = await postJson(rx.url, {}, '{}', { allowPrivate: true, timeoutMs: 2000 });
    rx.setHandler(() => 200);
    expect(r.status).toBe(200);
    expect(r.body.length).toBe(MAX_RESPONSE_BYTES);
    expect(r.truncated).toBe(true);
  });

  it('times out', async () => {
    rx.setHandler(() => ({ status: 200, hang: true }));
    const r = await postJson(rx.url, {}, '{}', { allowPrivate: true, timeoutMs: 300 });
    rx.setHandler(() => 200);
    expect(r).toMatchObject({ status: 0, error: 'timeout after 300 ms' });
  });

  it('a body cut after the status (stalled, or reset by the peer) still answers with that status', async () => {
    const server = createHttpServer((req, res) => {
      req.resume();
      res.writeHead(502, { 'content-type': 'text/plain', 'x-from': 'stub' });
      res.write('partial');
      if (req.url === '/reset') setTimeout(() => res.socket?.destroy(), 20); // and the stall: never ended
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const stalled = await postJson(`${base}/stall`, {}, '{}', { allowPrivate: true, timeoutMs: 300 });
      expect(stalled).toMatchObject({ status: 502, body: 'partial', truncated: true, error: null });
      expect(stalled.headers['x-from']).toBe('stub');
      const reset = await postJson(`${base}/reset`, {}, '{}', { allowPrivate: true, timeoutMs: 2000 });
      expect(reset).toMatchObject({ status: 502, body: 'partial', truncated: true, error: null });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('sends the path with its query string, the headers and the body as given', async () => {
    const r = await postJson(
      `${rx.url}?a=1&b=2`,
      { 'x-one': '1', 'content-type': 'application/json' },
      '{"k":"значение"}',
      { allowPrivate: true, timeoutMs: 1000 },
    );
    expect(r.status).toBe(200);
    const got = rx.received.at(-1)!;
    expect(got.url).toBe('/hook?a=1&b=2');
    expect(got.headers['x-one']).toBe('1');
    expect(got.body).toBe('{"k":"значение"}');
  });
});

describe('retry timing', () => {
  const res = (status: number, retryAfter?: string) => ({
    status,
    body: '',
    truncated: false,
    headers: (retryAfter ? { 'retry-after': retryAfter } : {}) as Record<string, string>,
    durationMs: 1,
    error: null,
    detail: null,
  });
  const schedule = [0, 60, 300, 1800, 7200];

  it('follows the schedule with +-10% jitter', () => {
    expect(nextDelaySeconds(schedule, 1, res(500), () => 0)).toBeCloseTo(54);
    expect(nextDelaySeconds(schedule, 1, res(500), () => 1)).toBeCloseTo(66);
    expect(nextDelaySeconds(schedule, 4, res(500), () => 0.5)).toBeCloseTo(7200);
  });

  it('honours Retry-After on 429 and 503 up to twice the scheduled delay, never shortening it', () => {
    expect(nextDelaySeconds(schedule, 1, res(429, '90'), () => 0.5)).toBe(90);
    expect(nextDelaySeconds(schedule, 1, res(503, '100000'), () => 0.5)).toBe(120);
    expect(nextDelaySeconds(schedule, 1, res(503, '5'), () => 0.5)).toBeCloseTo(60);
    expect(nextDelaySeconds(schedule, 1, res(500, '100'), () => 0.5)).toBeCloseTo(60);
    const date = new Date(Date.now() + 100_000).toUTCString();
    expect(parseRetryAfter(date)).toBeGreaterThan(98);
    expect(parseRetryAfter('soon')).toBeNull();
  });
});
