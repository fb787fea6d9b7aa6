// The README's first-payment walk-through, run as pasted: the block between the walkthrough markers is
// executed by bash against a server started as `npm start` starts it (on a fresh embedded store), and
// every step answers what the README says it does.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT, shellBlock, startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
let base: string;
let dir: string;

beforeAll(async () => {
  server = await startServer();
  ({ base, dir } = server);
}, 90_000);

afterAll(() => server?.stop());

const walkthrough = () => shellBlock(readFileSync(path.join(ROOT, 'README.md'), 'utf8'), 'walkthrough');

it('the README walk-through answers what it documents, step by step', async () => {
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', walkthrough()], {
    cwd: dir,
    env: { ...process.env, BASE: base },
    timeout: 60_000,
  });
  const lines = stdout.split('\n').filter(Boolean);
  const [op, ...json] = lines;
  expect(op).toMatch(/^op_[0-9A-Z]{26}$/);
  const [paid, status, list, refund, events, webhook, link] = json.map((l) => JSON.parse(l));
  expect(paid).toMatchObject({ operation_id: op, type: 'qr', status: 'paid', amount: 5000, comment: 'Order 42' });
  expect(status).toMatchObject({ operation_id: op, status: 'paid' });
  expect(list).toMatchObject({ next_cursor: null, has_more: false });
  expect(list.data.map((p: { operation_id: string }) => p.operation_id)).toEqual([op]);
  expect(refund).toMatchObject({
    operation_id: op,
    status: 'completed',
    amount: 2000,
    refunded_total: 2000,
    remaining_refundable: 3000,
  });
  expect(events.data.map((e: { type: string }) => e.type)).toEqual(['payment.refunded', 'payment.completed']);
  expect(webhook).toMatchObject({ mode: 'test', url: 'https://example.com/hooks/tolem', is_active: true });
  expect(webhook.secret).toMatch(/^whsec_/);
  expect(link).toMatchObject({ amount: 12500, status: 'active', livemode: false });
  expect(link.url).toMatch(/\/checkout\/[0-9A-Za-z]{22,}$/);
}, 90_000);
