// The README's webhook step, run as pasted after the first payment's steps: `tolem listen` (the CLI as
// `npx tolem` runs it from a clone) forwards exactly one new event for one trigger to a receiver that
// verifies it with the official `standardwebhooks` package, and nothing from before it started (the
// walkthrough's own payment.completed and payment.refunded stay unforwarded).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT, shellBlock, startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
let receiver: Server;
let forwardTo: string;
const secret = `whsec_${randomBytes(32).toString('base64')}`;
const received: { id: string; type: string; data: Record<string, unknown> }[] = [];
const refused: string[] = [];

beforeAll(async () => {
  server = await startServer();
  receiver = createServer((req, res) => {
    let body = '';
    req
      .on('data', (c) => (body += c))
      .on('end', () => {
        try {
          received.push(
            new Webhook(secret).verify(body, req.headers as Record<string, string>) as (typeof received)[number],
          );
          res.writeHead(204).end();
        } catch (err) {
          refused.push(String(err));
          res.writeHead(400).end();
        }
      });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  forwardTo = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await new Promise((ok) => receiver?.close(ok));
});

it('tolem listen forwards one new event for one trigger, verified by standardwebhooks, and nothing older', async () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const script = `{\n${shellBlock(readme, 'walkthrough')}\n} >/dev/null\n${shellBlock(readme, 'webhook-step')}`;
  const home = mkdtempSync(path.join(tmpdir(), 'readme-cli-'));
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: ROOT,
    timeout: 120_000,
    env: {
      ...process.env,
      BASE: server.base,
      SECRET: secret,
      FORWARD_TO: forwardTo,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
    },
  });
  expect(refused).toEqual([]);
  expect(received).toHaveLength(1);
  expect(received[0]).toMatchObject({ type: 'payment.completed', data: { status: 'paid' } });
  const triggered = /payment\.completed: (op_\w+) is paid/.exec(stdout)?.[1];
  expect(triggered, stdout).toBeDefined();
  expect(received[0].data.operation_id).toBe(triggered);
  expect(stdout).toMatch(/→ payment\.completed evt_\w+ \[204\]/);
}, 180_000);
