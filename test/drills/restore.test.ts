// The restore drill of the embedded store (issue 42, decisions 29): a real instance (src/main.ts start on
// a temporary DATA_DIR) gets a merchant, a webhook with its secret and test payments over HTTP; `backup`
// runs while payments keep being written; more come after; the instance dies. `restore` into a fresh
// DATA_DIR, a new instance on it: it holds exactly what the backup's instant held (not what came after),
// the old access token still signs in (the JWT key came along), and the webhook's sealed secret opens:
// its signed test delivery verifies with the secret shown at creation. Beside it, the refusals: a stopped
// instance, a killed one, a damaged file, a non-empty DATA_DIR, a second process on a held one.
import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { backup } from '../../src/cli/backup.ts';
import { restore } from '../../src/cli/restore.ts';
import { unpackBackup } from '../../src/cli/backup-archive.ts';
import { holdDataDir } from '../../src/cli/admin-socket.ts';
import { readTar } from '../../src/cli/tar.ts';
import { startReceiver, type Receiver } from '../webhooks/helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let work: string;
let rx: Receiver;
const children: ChildProcess[] = [];

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'tolem-drill-'));
  rx = await startReceiver();
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await rx.close();
  rmSync(work, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });

/** What every process of the drill shares: the embedded store only (no DATABASE_URL even on a PG run). */
const baseEnv = (dataDir: string) => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  DATA_DIR: dataDir,
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  WEBHOOKS_ALLOW_PRIVATE: 'true',
});

interface Instance {
  base: string;
  child: ChildProcess;
  output: () => string;
}

/**
 * An empty DATA_DIR laid with the migrated store global-setup.ts made (a PGlite dump): the instance then
 * skips creating a cluster and running every migration, most of a first start's time.
 */
function migratedDataDir(dataDir: string): void {
  const template = inject('pgliteTemplate');
  if (!template) return;
  for (const e of readTar(readFileSync(template))) {
    const to = path.join(dataDir, e.name);
    if (e.type === 'dir') mkdirSync(to, { recursive: true });
    else {
      mkdirSync(path.dirname(to), { recursive: true });
      writeFileSync(to, e.data);
    }
  }
}

async function startInstance(dataDir: string): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'start'], {
    cwd: ROOT,
    env: { ...baseEnv(dataDir), PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const base = `http://127.0.0.1:${port}`;
  const end = Date.now() + 60_000;
  for (;;) {
    if (
      await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { base, child, output: () => out };
    if (Date.now() > end || child.exitCode !== null) throw new Error(`instance did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const exited = (c: ChildProcess) =>
  new Promise<void>((ok) => (c.exitCode !== null || c.signalCode !== null ? ok() : c.once('exit', () => ok())));

/** The real command line, as an operator runs it. */
function cli(dataDir: string, args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: ROOT,
    env: baseEnv(dataDir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  return new Promise((ok) => child.once('exit', (code) => ok({ code, out })));
}

/** The same commands called in this process: the refusals, without a process start each. */
const config = (dataDir: string) => loadConfig(baseEnv(dataDir));

async function http(base: string, method: string, url: string, headers: Record<string, string>, body?: unknown) {
  const r = await fetch(`${base}${url}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

interface Paid {
  id: string;
  startedAt: number;
  finishedAt: number;
}

/** A test payment created and paid, timed from before its first request to after its last answer. */
async function payment(base: string, testKey: string, amount: number): Promise<Paid> {
  const startedAt = Date.now();
  const key = { 'x-api-key': testKey };
  const qr = await http(base, 'POST', '/v2/qr', { ...key, 'idempotency-key': randomUUID() }, { amount });
  expect(qr.status, JSON.stringify(qr.body)).toBe(201);
  const paid = await http(base, 'POST', `/v2/test/payments/${qr.body.operation_id}/pay`, key, {});
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return { id: qr.body.operation_id, startedAt, finishedAt: Date.now() };
}

async function paymentIds(base: string, testKey: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 10; page++) {
    const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const r = await http(base, 'GET', `/v2/payments?limit=100${q}`, { 'x-api-key': testKey });
    expect(r.status).toBe(200);
    ids.push(...r.body.data.map((p: { operation_id: string }) => p.operation_id));
    cursor = r.body.next_cursor;
    if (!r.body.has_more) break;
  }
  return ids;
}

// On the embedded run of the suite; the PostgreSQL run has its own drill (restore-postgres.test.ts).
it.skipIf(Boolean(process.env.TEST_DATABASE_URL))(
  'backup while writing, restore into a fresh DATA_DIR: the instant of the backup, secrets that open',
  async () => {
    const dirA = path.join(work, 'a');
    const dirB = path.join(work, 'b');
    const file = path.join(work, 'tolem.tar.gz');
    migratedDataDir(dirA);
    const a = await startInstance(dirA);

    // 1. A merchant, a test-mode webhook (its secret is shown once, here), paid test payments.
    const reg = await http(
      a.base,
      'POST',
      '/auth/register',
      {},
      {
        name: 'Drill Shop',
        email: `drill-${process.pid}@example.kz`,
        password: 'correct horse battery',
      },
    );
    expect(reg.status, JSON.stringify(reg.body)).toBe(201);
    const access = { authorization: `Bearer ${reg.body.access_token}` };
    const testKey: string = reg.body.api_keys.test;
    const hook = await http(a.base, 'POST', '/me/webhooks?mode=test', access, {
      url: rx.url,
      events: ['payment.completed'],
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const secret: string = hook.body.secret;
    const made: Paid[] = [];
    for (let i = 0; i < 4; i++) made.push(await payment(a.base, testKey, 1000 + i));

    // 2. `backup` (the real command, a process of its own) while payments keep coming, and some after.
    let writing = true;
    let afterBackup = 0;
    let backupEnd = Number.POSITIVE_INFINITY;
    const writer = (async () => {
      for (let i = 0; writing || afterBackup < 3; i++) {
        const p = await payment(a.base, testKey, 2000 + i);
        made.push(p);
        if (p.startedAt > backupEnd) afterBackup++;
        await new Promise((r) => setTimeout(r, 50)); // a steady trickle, not a flood that starves the backup
      }
    })();
    const backupStart = Date.now();
    const taken = await cli(dirA, ['backup', file]);
    backupEnd = Date.now();
    writing = false;
    await writer;
    expect(taken.code, taken.out).toBe(0);
    expect(taken.out).toContain('THE SECRETS FILE IS INSIDE');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const { manifest } = await unpackBackup(readFileSync(file));
    expect(manifest.taken_from).toBe('running');
    expect(manifest.secrets).toBe('included');

    // 3. Refusals while it runs: restore onto its DATA_DIR; a stopped instance does not answer a backup.
    const onLive = await restore(config(dirA), [file, '--force']);
    expect(onLive.exitCode).toBe(1);
    expect(onLive.message).toMatch(/held by a running Tolem instance .*stop it first; nothing was changed/);
    // A second process on the same data directory would corrupt it: whoever asks for it is refused.
    await expect(holdDataDir(dirA, 'server')).rejects.toThrow(/is held by a running Tolem instance \(pid \d+\)/);
    a.child.kill('SIGSTOP');
    try {
      const hung = await backup(config(dirA), [path.join(work, 'hung.tar.gz'), '--timeout', '1']);
      expect(hung.exitCode).toBe(1);
      expect(hung.message).toMatch(/sent nothing for 1 s: it is stopped or hung/);
      expect(existsSync(path.join(work, 'hung.tar.gz'))).toBe(false);
    } finally {
      a.child.kill('SIGCONT');
    }

    // 4. The instance dies (SIGKILL: its socket and PostgreSQL's lock file stay behind). A backup then
    //    refuses to guess whether it still runs; with --offline it opens the store itself, after all writes.
    a.child.kill('SIGKILL');
    await exited(a.child);
    const guess = await backup(config(dirA), [path.join(work, 'dead.tar.gz')]);
    expect(guess.exitCode).toBe(1);
    expect(guess.message).toMatch(/no instance answers on its admin socket.*--offline/s);
    const offline = await backup(config(dirA), [path.join(work, 'dead.tar.gz'), '--offline']);
    expect(offline.exitCode, offline.message).toBe(0);
    const all = (await unpackBackup(readFileSync(path.join(work, 'dead.tar.gz')))).manifest;
    expect(all.taken_from).toBe('stopped');
    expect(all.counts.operations).toBe(made.length);

    // 5. The backup held the instant it was taken: everything finished before the command started, and
    //    nothing started after it ended, which the writes after it prove it missed.
    const before = made.filter((p) => p.finishedAt < backupStart).length;
    const late = made.filter((p) => p.startedAt > backupEnd).length;
    expect(late).toBeGreaterThanOrEqual(3);
    expect(manifest.counts.operations).toBeGreaterThanOrEqual(before);
    expect(manifest.counts.operations).toBeLessThanOrEqual(made.length - late);

    // 6. A damaged file is refused whole, and nothing of DATA_DIR is made.
    // A run of bytes, not one: a single flipped bit inside a long run of zero pages can decode to the same
    // bytes (another distance into the same zeros), a file whose content is intact after all.
    const bytes = readFileSync(file);
    bytes.fill(0xa5, Math.floor(bytes.length / 2), Math.floor(bytes.length / 2) + 1024);
    const garbled = path.join(work, 'garbled.tar.gz');
    writeFileSync(garbled, bytes);
    const bad = await restore(config(dirB), [garbled]);
    expect(bad.exitCode, bad.message).toBe(1);
    expect(bad.message).toMatch(/garbled\.tar\.gz: .*nothing was changed/);
    expect(existsSync(dirB)).toBe(false);

    // 7. The real `restore` into a fresh DATA_DIR; a second one over it is refused without --force.
    const restored = await cli(dirB, ['restore', file]);
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toContain('every count checked');
    expect(restored.out).toContain(`APP_SECRET here opens the sealed values (key id ${manifest.app_secret_key_id})`);
    const listing = readdirSync(dirB).sort();
    const again = await restore(config(dirB), [file]);
    expect(again.exitCode).toBe(1);
    expect(again.message).toMatch(/is not empty .*--force.*nothing was changed/s);
    expect(readdirSync(dirB).sort()).toEqual(listing);

    // 8. A new instance on it: the payments of the backup's instant, the same tokens, the secret opens.
    const b = await startInstance(dirB);
    const ids = await paymentIds(b.base, testKey);
    expect(ids.length).toBe(manifest.counts.operations);
    const held = new Set(ids);
    for (const p of made.filter((x) => x.finishedAt < backupStart)) expect(held.has(p.id)).toBe(true);
    for (const p of made.filter((x) => x.startedAt > backupEnd)) expect(held.has(p.id)).toBe(false);
    const hooks = await http(b.base, 'GET', '/me/webhooks?mode=test', access);
    expect(hooks.status).toBe(200);
    expect(hooks.body.data.map((h: { id: number }) => h.id)).toEqual([hook.body.id]);
    const seen = rx.received.length;
    const sent = await http(b.base, 'POST', `/me/webhooks/${hook.body.id}/test?mode=test`, access, {});
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const got = (await rx.waitFor(seen + 1)).slice(seen).find((r) => JSON.parse(r.body).type === 'webhook.test')!;
    expect(new Webhook(secret).verify(got.body, got.headers as Record<string, string>)).toMatchObject({
      type: 'webhook.test',
    });
    b.child.kill('SIGTERM');
    await exited(b.child);
    expect(b.child.exitCode, b.output()).toBe(0);
  },
  120_000,
);
