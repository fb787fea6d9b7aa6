// Several instances on one PostgreSQL and one Redis: two ROLE=api processes and two ROLE=worker
// processes. Shared rate-limit counters, reads across instances, and every webhook delivery sent once.
// Needs TEST_DATABASE_URL and TEST_REDIS_URL (CI sets both); skipped otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import pg from 'pg';

const DB = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const run = Boolean(DB && REDIS);

const procs: ChildProcess[] = [];
let dbUrl = '';
let admin: pg.Client | undefined;
const api: string[] = [];

async function waitReady(url: string) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not start`);
}

function start(role: 'api' | 'worker', port: number) {
  const p = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'start'], {
    env: {
      ...process.env,
      ROLE: role,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: dbUrl,
      REDIS_URL: REDIS,
      APP_SECRET: 'scale-secret',
      LOG_LEVEL: 'warn',
      PUBLIC_BASE_URL: 'http://tolem.test',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      RATE_LIMITS: JSON.stringify({ auth: 1000 }),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  procs.push(p);
  return p;
}

const json = async (url: string, init: RequestInit = {}) => {
  const r = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });
  return { status: r.status, body: (await r.json()) as any };
};

describe.skipIf(!run)('scale-out on PostgreSQL and Redis', () => {
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: DB });
    await admin.connect();
    const name = `tolem_scale_${Date.now()}`;
    await admin.query(`CREATE DATABASE ${name}`);
    dbUrl = DB!.replace(/\/[^/]*$/, `/${name}`);
    // Migrate once before the crowd starts (they would serialize on the advisory lock anyway).
    const first = start('api', 18301);
    await waitReady('http://127.0.0.1:18301');
    start('api', 18302);
    start('worker', 18303);
    start('worker', 18304);
    api.push('http://127.0.0.1:18301', 'http://127.0.0.1:18302');
    await waitReady(api[1]);
    void first;
  }, 90_000);

  afterAll(async () => {
    for (const p of procs) p.kill('SIGTERM');
    await Promise.all(procs.map((p) => (p.exitCode === null ? new Promise((r) => p.once('exit', r)) : null)));
    const name = dbUrl.split('/').pop();
    if (admin && name) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin?.end();
  }, 60_000);

  it('an operation created through one API process is read through the other; counters are shared', async () => {
    const reg = await json(`${api[0]}/auth/register`, {
      method: 'POST',
      body: JSON.stringify({ name: 'Scale', email: `scale-${Date.now()}@x.kz`, password: 'correct horse battery' }),
    });
    expect(reg.status).toBe(201);
    const testKey = reg.body.api_keys.test;
    const liveKey = reg.body.api_keys.live;
    const qr = await json(`${api[0]}/v2/qr`, {
      method: 'POST',
      headers: { 'x-api-key': testKey, 'idempotency-key': randomUUID() },
      body: '{"amount":700}',
    });
    expect(qr.status).toBe(201);
    const read = await json(`${api[1]}/v2/qr/${qr.body.operation_id}`, { headers: { 'x-api-key': testKey } });
    expect(read.status).toBe(200);
    expect(read.body.amount).toBe(700);
    // 60 live requests a minute per key, whichever instance answers: the 61st is refused.
    const codes: number[] = [];
    for (let i = 0; i < 61; i++) {
      const r = await fetch(`${api[i % 2]}/v2/payments`, { headers: { 'x-api-key': liveKey } });
      codes.push(r.status);
      await r.arrayBuffer();
    }
    expect(codes.slice(0, 60).every((c) => c === 200)).toBe(true);
    expect(codes[60]).toBe(429);
  }, 60_000);

  it('1,000 events are delivered exactly once by two workers when nothing crashes', async () => {
    const seen = new Map<string, number>();
    const receiver: Server = createServer((req, res) => {
      const id = String(req.headers['x-webhook-id']);
      seen.set(id, (seen.get(id) ?? 0) + 1);
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const port = (receiver.address() as AddressInfo).port;
      const reg = await json(`${api[0]}/auth/register`, {
        method: 'POST',
        body: JSON.stringify({ name: 'Hooks', email: `hooks-${Date.now()}@x.kz`, password: 'correct horse battery' }),
      });
      const auth = { authorization: `Bearer ${reg.body.access_token}` };
      const hook = await json(`${api[1]}/me/webhooks?mode=test`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook`, events: ['payment.completed'] }),
      });
      expect(hook.status).toBe(201);
      const testKey = reg.body.api_keys.test;
      const N = 1000;
      const ids: string[] = [];
      for (let i = 0; i < N; i += 20) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(20, N - i) }, (_, j) =>
            json(`${api[(i + j) % 2]}/v2/qr`, {
              method: 'POST',
              headers: { 'x-api-key': testKey, 'idempotency-key': randomUUID() },
              body: '{"amount":100}',
            }),
          ),
        );
        ids.push(...batch.map((b) => b.body.operation_id));
      }
      for (let i = 0; i < N; i += 20) {
        await Promise.all(
          ids.slice(i, i + 20).map((id, j) =>
            fetch(`${api[j % 2]}/v2/test/payments/${id}/pay`, {
              method: 'POST',
              headers: { 'x-api-key': testKey },
            }).then((r) => r.arrayBuffer()),
          ),
        );
      }
      const until = Date.now() + 60_000;
      while (seen.size < N && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      expect(seen.size).toBe(N);
      await new Promise((r) => setTimeout(r, 1500)); // would a second worker send any of them again?
      expect([...seen.values()].filter((n) => n > 1)).toEqual([]);
    } finally {
      receiver.close();
    }
  }, 150_000);
});
