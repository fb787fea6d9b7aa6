// The README's live payment against the emulator, run as pasted: the emulator and a server started as the
// README starts them (PROVIDER_DRIVER=qrapi, QRAPI_BASE_URL, QRAPI_CA_FILE), the first payment's block for
// the variables it defines, then the live block: connected, a live QR, paid through the emulator's test
// calls with the provider_payment_id the API returns.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT, shellBlock, startServer, type RunningServer } from '../helpers/server.ts';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';

let emu: RunningEmulator;
let server: RunningServer;
let emuDir: string;

beforeAll(async () => {
  emuDir = mkdtempSync(path.join(tmpdir(), 'readme-emu-'));
  emu = await startEmulator({ port: 0, dir: emuDir });
  server = await startServer({ PROVIDER_DRIVER: 'qrapi', QRAPI_BASE_URL: emu.url, QRAPI_CA_FILE: emu.ca });
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await emu?.close();
});

it("the README's live payment against the emulator answers what it documents", async () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  // The first payment's block defines BASE, json, uuid, ACCOUNT and TOKEN; its output is not this test's.
  const script = `{\n${shellBlock(readme, 'walkthrough')}\n} >/dev/null\n${shellBlock(readme, 'live-walkthrough')}`;
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: server.dir,
    env: { ...process.env, BASE: server.base, EMU: emu.url, EMU_DIR: emuDir },
    timeout: 90_000,
  });
  const [start, verify, scan, confirm, paid] = stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  expect(start).toMatchObject({ state: 'trade_point_required', next_step: 'choose_trade_point' });
  expect(start.trade_points[0]).toEqual({ id: 1, name: 'Test point 1' });
  expect(verify).toMatchObject({ state: 'connected', mode: 'live' });
  expect(scan).toMatchObject({ StatusCode: 0 });
  expect(confirm).toMatchObject({ StatusCode: 0 });
  expect(paid).toMatchObject({ type: 'qr', status: 'paid', amount: 5000, livemode: true });
  expect(paid.transaction_id).toMatch(/\d+/);
  expect(paid.provider_payment_id).toMatch(/^\d+$/);
}, 120_000);
