// The README's first-payment walk-through, run as pasted: the block between the walkthrough markers is
// executed by bash against a server started as `npm start` starts it (on a fresh embedded store), and
// every step answers what the README says it does.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
let server: ChildProcess;
let base: string;
let dir: string;

const freePort = () => new Promise<number>((ok) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => ok(port));
  });
});

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'tolem-readme-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'start'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  server.stdout!.on('data', (c) => (out += c));
  server.stderr!.on('data', (c) => (out += c));
  const end = Date.now() + 30_000;
  for (;;) {
    const up = await fetch(`${base}/readyz`).then((r) => r.ok, () => false);
    if (up) break;
    if (Date.now() > end || server.exitCode !== null) throw new Error(`server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 60_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((ok) => server.once('exit', ok));
  }
  rmSync(dir, { recursive: true, force: true });
});

function walkthrough(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const m = /<!-- walkthrough -->\s*```sh\n([\s\S]*?)```\s*<!-- \/walkthrough -->/.exec(readme);
  if (!m) throw new Error('README has no walkthrough block');
  return m[1];
}

it('the README walk-through answers what it documents, step by step', async () => {
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', walkthrough()], { cwd: dir, env: { ...process.env, BASE: base }, timeout: 60_000 });
  const lines = stdout.split('\n').filter(Boolean);
  const [op, ...json] = lines;
  expect(op).toMatch(/^op_[0-9A-Z]{26}$/);
  const [paid, status, list, refund, events, webhook, link] = json.map((l) => JSON.parse(l));
  expect(paid).toMatchObject({ operation_id: op, type: 'qr', status: 'paid', amount: 5000, comment: 'Order 42' });
  expect(status).toMatchObject({ operation_id: op, status: 'paid' });
  expect(list).toMatchObject({ next_cursor: null, has_more: false });
  expect(list.data.map((p: { operation_id: string }) => p.operation_id)).toEqual([op]);
  expect(refund).toMatchObject({ operation_id: op, status: 'completed', amount: 2000, refunded_total: 2000, remaining_refundable: 3000 });
  expect(events.data.map((e: { type: string }) => e.type)).toEqual(['payment.refunded', 'payment.completed']);
  expect(webhook).toMatchObject({ mode: 'test', url: 'https://example.com/hooks/tolem', is_active: true });
  expect(webhook.secret).toMatch(/^whsec_/);
  expect(link).toMatchObject({ amount: 12500, status: 'active', livemode: false });
  expect(link.url).toMatch(/\/checkout\/[0-9A-Za-z]{22,}$/);
}, 90_000);
