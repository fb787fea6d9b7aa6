// The `tolem` CLI (packages/cli, as built) against a listening Tolem: login keeps its session in a 0600
// file; `listen --forward-to` a local receiver gets the event `trigger payment.completed` makes, signed with
// the secret it printed; --json output parses; a failure prints the API's code and request id.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@tolem/sdk';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { newMerchant, type Merchant } from '../helpers/factories.ts';
import { startReceiver, type Receiver } from '../webhooks/helpers.ts';

const CLI = path.resolve(import.meta.dirname, '../../packages/cli/dist/main.js');
let t: TestApp;
let base: string;
let receiver: Receiver;
let home: string;
let m: Merchant;

beforeAll(async () => {
  // `npm install` builds the workspace packages (prepare); a checkout that skipped it builds them here.
  if (!existsSync(CLI)) await promisify(execFile)(process.execPath, ['scripts/build-packages.mjs']);
  t = await buildTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  receiver = await startReceiver();
  home = mkdtempSync(path.join(tmpdir(), 'tolem-cli-'));
  m = await newMerchant(t.app);
}, 120_000);
afterAll(async () => {
  await receiver?.close();
  await t?.close();
  rmSync(home, { recursive: true, force: true });
});

const env = () => ({ ...process.env, XDG_CONFIG_HOME: home, TOLEM_API_URL: base, TOLEM_PASSWORD: m.password });

async function tolem(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await promisify(execFile)(process.execPath, [CLI, ...args], { env: env(), timeout: 30_000 });
    return { code: 0, ...r };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

it('login keeps a refresh token readable by the user alone; --help lists every command', async () => {
  const r = await tolem('login', '--email', m.email, '--json');
  expect(r.code, r.stderr + r.stdout).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ signed_in: true, email: m.email });
  const file = path.join(home, 'tolem', 'config.json');
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(statSync(path.join(home, 'tolem')).mode & 0o777).toBe(0o700);
  const help = (await tolem('--help')).stdout;
  for (const c of [
    'login',
    'listen',
    'trigger',
    'payments list',
    'payments get',
    'payments create-qr',
    'payments refund',
    'links create',
    'webhooks list',
    'webhooks test',
  ]) {
    expect(help, c).toContain(`tolem ${c}`);
  }
});

it('listen --forward-to gets the signed event that trigger payment.completed makes', async () => {
  const listener = spawn(
    process.execPath,
    [CLI, 'listen', '--forward-to', receiver.url, '--events', 'payment.completed', '--max', '1', '--json'],
    { env: env() },
  );
  // Listened for from the start: with --max 1 it may exit before the test looks.
  const exited = new Promise((ok) => listener.once('exit', ok));
  let out = '';
  listener.stdout.on('data', (c) => (out += c));
  const ready = await new Promise<{ secret: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`listen did not start: ${out}`)), 20_000);
    listener.stdout.on('data', () => {
      const line = out.split('\n').find((l) => l.includes('"ready"'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line));
      }
    });
  });
  expect(ready.secret).toMatch(/^whsec_/);
  const before = receiver.received.length;
  const trig = await tolem('trigger', 'payment.completed', '--json');
  expect(trig.code, trig.stderr).toBe(0);
  const triggered = JSON.parse(trig.stdout);
  expect(triggered).toMatchObject({ triggered: 'payment.completed', status: 'paid' });
  const started = Date.now();
  const got = (await receiver.waitFor(before + 1, 10_000)).at(-1)!;
  // Reported, not asserted: the listener polls twice a second (issue 23 asks for within a second).
  console.log(`listen: the event reached the receiver ${Date.now() - started} ms after trigger returned`);
  const event = await verifyWebhook(got.body, got.headers as Record<string, string>, ready.secret);
  expect(event.type).toBe('payment.completed');
  expect(JSON.stringify(event)).toContain(triggered.operation_id);
  // The body a real delivery of that event carries, nothing more (a receiver is written against it).
  expect(Object.keys(JSON.parse(got.body))).toEqual(['id', 'type', 'created_at', 'data']);
  expect(await exited).toBe(0);
  expect(out).toContain('"forwarded":"payment.completed"');
}, 60_000);

it('payments, links and webhooks with --json; a failure says its code and request id', async () => {
  const created = JSON.parse((await tolem('payments', 'create-qr', '--amount', '2500', '--json')).stdout);
  expect(created.operation_id).toMatch(/^op_/);
  const list = JSON.parse((await tolem('payments', 'list', '--json')).stdout);
  expect(list.data.map((p: { operation_id: string }) => p.operation_id)).toContain(created.operation_id);
  expect(JSON.parse((await tolem('payments', 'get', created.operation_id, '--json')).stdout)).toMatchObject({
    amount: 2500,
    status: 'created',
  });
  const refunded = await tolem('trigger', 'payment.refunded', '--amount', '1200', '--json');
  expect(JSON.parse(refunded.stdout)).toMatchObject({ triggered: 'payment.refunded', status: 'refunded' });
  const link = JSON.parse(
    (await tolem('links', 'create', '--amount', '9900', '--description', 'CLI link', '--json')).stdout,
  );
  expect(link).toMatchObject({ amount: 9900, status: 'active', livemode: false });
  expect(JSON.parse((await tolem('webhooks', 'list', '--json')).stdout)).toEqual({ data: [] });
  const human = await tolem('payments', 'list');
  expect(human.stdout).toContain('2 500 ₸');
  const missing = await tolem('payments', 'get', 'op_01NOSUCHPAYMENT0000000000', '--json');
  expect(missing.code).toBe(1);
  expect(JSON.parse(missing.stdout).error).toMatchObject({ code: 'payment_not_found' });
  expect(JSON.parse(missing.stdout).error.request_id).toBeTruthy();
  const text = await tolem('payments', 'get', 'op_01NOSUCHPAYMENT0000000000');
  expect(text.stderr).toMatch(/^Error: payment_not_found: .+ \(request .+\)/);
  const unknown = await tolem('trigger', 'payment.nope');
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain('unknown event');
}, 60_000);
