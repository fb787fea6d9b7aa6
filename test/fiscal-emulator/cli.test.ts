// The command a driver's developer runs: `npm run fiscal-emulator -- --port N --dir DIR` prints one ready
// line of JSON whose credentials work as printed, keeps its CA and keys in DIR for the next start, and
// guards the control API with the printed token. A --hostname lands in the server certificate.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from 'node:tls';
import { expect, it } from 'vitest';
import { Agent, request } from 'undici';

async function start(dir: string, extra: string[] = []) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'fiscal-emulator/main.ts', '--port', '0', '--dir', dir, ...extra],
    {
      cwd: path.resolve(import.meta.dirname, '../..'),
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}`)));
  });
  return { child, ready: JSON.parse(line) };
}

const handshake = (port: number, servername: string, ca: string) =>
  new Promise<string>((resolve) => {
    const s = connect({ host: '127.0.0.1', port, servername, ca }, () => {
      s.end();
      resolve('ok');
    });
    s.on('error', (err) => resolve((err as NodeJS.ErrnoException).code ?? err.message));
  });

it('prints a ready line whose keys work, reuses DIR, and needs the control token', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fiscal-cli-'));
  const { child, ready } = await start(dir, ['--hostname', 'fiscal-emulator']);
  try {
    expect(ready).toEqual({
      ready: true,
      url: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+$/),
      ca: path.join(dir, 'ca.pem'),
      control_token: expect.stringMatching(/^[0-9a-f]{32}$/),
      webkassa: {
        api_key: expect.stringMatching(/^WKD-/),
        login: expect.any(String),
        password: expect.any(String),
        cashbox: 'SWK00033717',
      },
      rekassa: {
        api_key: expect.any(String),
        id: 1,
        number: expect.any(String),
        password: expect.any(String),
        pin: expect.any(String),
      },
    });
    const ca = readFileSync(ready.ca, 'utf8');
    const agent = new Agent({ connect: { ca } });
    const post = (p: string, body: object, headers: Record<string, string>) =>
      request(`${ready.url}${p}`, {
        method: 'POST',
        dispatcher: agent,
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', ...headers },
      }).then(async (r) => ({ status: r.statusCode, json: (await r.body.json()) as any }));
    const auth = await post(
      '/api/v4/Authorize',
      { Login: ready.webkassa.login, Password: ready.webkassa.password },
      { 'x-api-key': ready.webkassa.api_key },
    );
    expect(auth.json.Data.Token).toMatch(/^[0-9a-f]{32}$/);
    const rk = await post(
      `/api/auth/login?apiKey=${ready.rekassa.api_key}&format=json`,
      { number: ready.rekassa.number, password: ready.rekassa.password },
      {},
    );
    expect(rk.json.id).toBe(ready.rekassa.id);
    expect((await post('/__fiscal/reset', {}, {})).status).toBe(401);
    expect((await post('/__fiscal/reset', {}, { 'x-control-token': ready.control_token })).status).toBe(200);
    // After a reset the printed logins still work.
    const again = await post(
      `/api/auth/login?apiKey=${ready.rekassa.api_key}&format=json`,
      { number: ready.rekassa.number, password: ready.rekassa.password },
      {},
    );
    expect(again.json.id).toBe(ready.rekassa.id);
    const port = Number(new URL(ready.url).port);
    expect(await handshake(port, 'fiscal-emulator', ca)).toBe('ok');
    expect(await handshake(port, 'localhost', ca)).toBe('ok');
    expect(await handshake(port, 'elsewhere', ca)).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
    await agent.close();
  } finally {
    child.kill('SIGTERM');
  }
  const second = await start(dir);
  try {
    expect(second.ready.webkassa.api_key).toBe(ready.webkassa.api_key);
    expect(second.ready.ca).toBe(ready.ca);
    expect(readFileSync(second.ready.ca, 'utf8')).toBe(readFileSync(ready.ca, 'utf8'));
  } finally {
    second.child.kill('SIGTERM');
  }
}, 60_000);
