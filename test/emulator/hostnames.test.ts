// The emulator in a container (compose's dev profile) is reached by its service name: its server certificate
// must carry that name, and one asked for later is added by a new server certificate of the same CA, so
// a Tolem that already trusts ca.pem keeps trusting it. Checked with a real TLS handshake by that name.
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect } from 'node:tls';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ensureCertificates } from '../../emulator/certificates.ts';
import { startEmulator } from '../../emulator/server.ts';

function handshake(port: number, servername: string, ca: string): Promise<string> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port, servername, ca, rejectUnauthorized: true }, () => {
      s.end();
      resolve('ok');
    });
    s.on('error', (err) => resolve((err as NodeJS.ErrnoException).code ?? err.message));
  });
}

it('adds a requested hostname to the server certificate, same CA, and a client verifies it by that name', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tolem-emu-names-'));
  const first = ensureCertificates(dir);
  const ca = readFileSync(first.ca, 'utf8');
  const e = await startEmulator({ port: 0, dir, hostnames: ['emulator'] });
  try {
    const port = Number(new URL(e.url).port);
    expect(readFileSync(first.ca, 'utf8')).toBe(ca);
    expect(await handshake(port, 'emulator', ca)).toBe('ok');
    expect(await handshake(port, 'localhost', ca)).toBe('ok');
    expect(await handshake(port, 'other-name', ca)).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
  } finally {
    await e.close();
  }
  // Asked again with the same name: nothing is made again.
  const server = readFileSync(path.join(dir, 'server.pem'), 'utf8');
  ensureCertificates(dir, ['emulator']);
  expect(readFileSync(path.join(dir, 'server.pem'), 'utf8')).toBe(server);
});
