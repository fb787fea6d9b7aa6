// r3's static-IP allow-list: an unlisted source address is refused with HTTP 403 `Forbidden` (r1 and r2
// answered as usual) or with its TLS session refused before the handshake. Clients here connect from two
// loopback addresses: 127.0.0.1 (the one refused) and 127.0.0.2 (the one listed, which also sends the
// control calls, since in `tls` mode the whole port refuses an unlisted address).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client } from 'undici';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import { OPEN } from '../../emulator/allowlist.ts';
import { EmulatorClient, newId } from './harness.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'emu-allowlist-'));
let e: RunningEmulator;
/** from 127.0.0.1 */
let c: EmulatorClient;
/** from 127.0.0.2 */
let listed: EmulatorClient;
beforeAll(async () => {
  e = await startEmulator({ port: 0, dir });
  c = new EmulatorClient(e);
  listed = new EmulatorClient(e, '127.0.0.2');
}, 20_000);
afterAll(async () => {
  await c?.close();
  await listed?.close();
  await e?.close();
});
beforeEach(async () => {
  expect((await listed.control('reset', {})).status).toBe(200);
});

const allow = (body: object) => listed.control('allowlist', body);
const ping = (client: EmulatorClient, scheme: string) =>
  client.call(
    `/${scheme}/v01/health/ping`,
    scheme === 'r1' ? { agent: client.noCert, headers: { 'api-key': e.apiKey } } : {},
  );
/** How a client sees a refused TLS session: the socket closed before the handshake finished. */
const REFUSED_TLS = /before secure TLS connection was established/;

describe('http403', () => {
  it('answers r3 calls from an unlisted address HTTP 403 `Forbidden` in plain text; r1 and r2 as usual', async () => {
    expect((await allow({ r3: ['203.0.113.7'], refuse: 'http403' })).json).toEqual({
      ok: true,
      allowlist: { r3: ['203.0.113.7'], refuse: 'http403' },
    });
    const refused = await ping(c, 'r3');
    expect(refused).toMatchObject({ status: 403, text: 'Forbidden', json: undefined });
    const token = await c.device('r2');
    const before = e.state().payments.size;
    expect(
      (await c.call('/r3/v01/qr/create', { body: { OrganizationBin: '990140001233', DeviceToken: token, Amount: 1 } }))
        .status,
    ).toBe(403);
    expect(e.state().payments.size).toBe(before);
    // Without a client certificate too: the address is checked first.
    expect((await c.call('/r3/v01/health/ping', { agent: c.noCert })).status).toBe(403);
    for (const scheme of ['r1', 'r2']) expect((await ping(c, scheme)).json.StatusCode, scheme).toBe(0);
  });

  it('admits the listed addresses; `r3: null` admits every one; the default is http403', async () => {
    await allow({ r3: ['127.0.0.1'] });
    expect((await c.control('state')).json.settings.allowlist).toEqual({ r3: ['127.0.0.1'], refuse: 'http403' });
    expect((await ping(c, 'r3')).json.StatusCode).toBe(0);
    await allow({ r3: ['127.0.0.2'] });
    expect((await ping(c, 'r3')).status).toBe(403);
    expect((await ping(listed, 'r3')).json.StatusCode).toBe(0);
    await allow({ r3: null });
    expect((await ping(c, 'r3')).json.StatusCode).toBe(0);
    for (const bad of [{ r3: '127.0.0.1' }, { r3: [1] }, { r3: [], refuse: 'drop' }])
      expect((await allow(bad)).status, JSON.stringify(bad)).toBe(400);
  });
});

describe('tls', () => {
  it(
    'refuses the TLS session of an unlisted address, a connection kept ' +
      'open from before included; the listed one is served',
    async () => {
      // A connection opened before the list is set: closed when it is set, so the next call meets the refusal.
      expect((await ping(c, 'r3')).json.StatusCode).toBe(0);
      await allow({ r3: ['127.0.0.2'], refuse: 'tls' });
      // The close of the idle connection reaches the client on its own socket: let it arrive.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await expect(ping(c, 'r3')).rejects.toThrow(REFUSED_TLS);
      await expect(c.device('r3', 1, newId())).rejects.toThrow(REFUSED_TLS);
      // The port serves every scheme, and the scheme is known only after the handshake: r1 and r2 from there too.
      await expect(ping(c, 'r1')).rejects.toThrow(REFUSED_TLS);
      expect((await ping(listed, 'r3')).json.StatusCode).toBe(0);
      expect((await ping(listed, 'r1')).json.StatusCode).toBe(0);
      // Reset restores the open list.
      await listed.control('reset', {});
      expect((await ping(c, 'r3')).json.StatusCode).toBe(0);
    },
  );

  it(
    'set in process, a connection kept open is closed unanswered at its ' + 'first r3 call; the next is refused at TLS',
    async () => {
      // An undici Client is one connection: the one kept open.
      const one = new Client(e.url, {
        connect: { ca: e.caPem, pfx: readFileSync(e.clientPfx), passphrase: e.clientPassword },
      });
      try {
        expect((await c.call('/r3/v01/health/ping', { agent: one })).json.StatusCode).toBe(0);
        e.state.allowlist = { r3: ['127.0.0.2'], refuse: 'tls' };
        await expect(c.call('/r3/v01/health/ping', { agent: one })).rejects.toThrow(/other side closed/);
        await expect(c.call('/r3/v01/health/ping', { agent: one })).rejects.toThrow(REFUSED_TLS);
      } finally {
        e.state.allowlist = { ...OPEN };
        await one.close();
      }
      expect((await ping(c, 'r3')).json.StatusCode).toBe(0);
    },
  );
});
