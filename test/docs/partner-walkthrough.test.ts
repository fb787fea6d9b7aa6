// docs/partner-api.md's integration walk-through, run as pasted by bash against a server started as
// `npm start` starts it (with PARTNER_AUTO_APPROVE=true, as the document says): every step answers what
// the document shows; without the approval it stops at the first failed step, saying why.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT, shellBlock, startServer, type RunningServer } from '../helpers/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ PARTNER_AUTO_APPROVE: 'true' });
}, 90_000);
afterAll(() => server?.stop());

it('the partner walk-through answers what docs/partner-api.md documents, step by step', async () => {
  const script = shellBlock(readFileSync(path.join(ROOT, 'docs/partner-api.md'), 'utf8'), 'partner-walkthrough');
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: server.dir,
    env: { ...process.env, BASE: server.base },
    timeout: 60_000,
  });
  const [status, ...rest] = stdout.split('\n').filter(Boolean);
  expect(status).toBe('active');
  const tokenType = rest.pop();
  expect(tokenType).toBe('Bearer');
  const [ping, created, updated, start, verify, webhook, link, list, one, login] = rest.map((l) => JSON.parse(l));
  expect(ping).toMatchObject({ ok: true, mode: 'test' });
  expect(created).toMatchObject({
    external_id: 'seller-1001',
    name: 'Alma Coffee',
    origin: 'api',
    phone: '+77015550101',
    metadata: { plan: 'gold' },
  });
  expect(created.api_key).toMatch(/^kp_test_/);
  expect(updated).toMatchObject({ id: created.id, name: 'Alma Coffee & Co' });
  expect(updated.api_key).toBeUndefined();
  expect(start).toMatchObject({ state: 'code_sent', next_step: 'enter_code' });
  expect(verify).toMatchObject({ state: 'connected', mode: 'live' });
  expect(webhook).toMatchObject({ mode: 'test', url: 'https://bazaar.kz/hooks/tolem' });
  expect(webhook.secret).toMatch(/^whsec_/);
  expect(link).toMatchObject({
    amount: 12500,
    status: 'active',
    client_ref: 'seller-1001',
    client_id: created.id,
    livemode: false,
  });
  expect(list.data).toHaveLength(1);
  expect(list.data[0]).toMatchObject({
    status: 'paid',
    amount: 5000,
    client_id: created.id,
    external_id: 'seller-1001',
  });
  expect(one).toMatchObject({ operation_id: list.data[0].operation_id, status: 'paid' });
  expect(login.url).toMatch(/\/dashboard\/magic\?token=mt_/);
}, 90_000);

it('stops at the first failed step and says why: a partner not yet approved stops at its keys', async () => {
  const pending = await startServer();
  try {
    const script = shellBlock(readFileSync(path.join(ROOT, 'docs/partner-api.md'), 'utf8'), 'partner-walkthrough');
    const err = await promisify(execFile)('bash', ['-c', script], {
      cwd: pending.dir,
      env: { ...process.env, BASE: pending.base },
      timeout: 60_000,
    }).then(
      () => null,
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(err, 'a non-zero exit').not.toBeNull();
    expect(err!.stdout.split('\n').filter(Boolean)).toEqual(['pending']);
    expect(err!.stderr).toMatch(/stopped: partner_not_active: /);
    expect(err!.stderr).not.toMatch(/malformed/);
  } finally {
    await pending.stop();
  }
}, 120_000);
