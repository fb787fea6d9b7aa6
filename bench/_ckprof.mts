// temporary: profile one scenario on a small PGlite store, outside the bench harness (its ports are busy)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { connect } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { seedClients, seedOperations, seedLink } from './seed.ts';
const dir = process.env.DIR ?? '/tmp/ckstore';
const PORT = 18990;
let key0 = '';
if (!existsSync(dir)) {
  const db = await connect({ dataDir: dir });
  await migrate(db);
  const s = await seedClients(db, 10);
  await seedOperations(db, s, 100_000);
  await seedLink(db, s.clients[0].id);
  await db.close();
}
key0 = 'kp_test_bench0000' + 'x'.repeat(32);
if (process.env.SEEDLINK) { const db = await connect({ dataDir: dir }); const c = (await db.query<{ id: number }>('SELECT id FROM clients ORDER BY id LIMIT 1')).rows[0]; await seedLink(db, c.id); await db.close(); }
const flags = (process.env.NODE_FLAGS ?? '').split(' ').filter(Boolean);
const proc = spawn('taskset', ['-c', process.env.CPU ?? '0', 'node', ...flags, '--enable-source-maps', 'dist/main.js', 'start'], {
  env: { ...process.env, APP_SECRET: 'bench-app-secret', ROLE: 'api', LOG_LEVEL: 'warn', NODE_ENV: 'bench', DATA_DIR: dir, PORT: String(PORT),
    RATE_LIMITS: JSON.stringify({ test: 1e9, enterprise: 1e9, live: 1e9, checkout_get: 1e9, partner: 1e9 }) }, stdio: 'inherit' });
const url = `http://127.0.0.1:${PORT}`;
process.on('exit', () => proc.kill('SIGKILL'));
process.on('uncaughtException', (e) => { console.error(e); proc.kill('SIGTERM'); setTimeout(() => process.exit(1), 3000); });
for (;;) { try { if ((await fetch(url + '/readyz')).ok) break; } catch {} await new Promise((r) => setTimeout(r, 50)); }
const token = 'bench_link_token_000000000000';
const hwm = () => Math.round(Number(/VmHWM:\s+(\d+)/.exec((require0()).readFileSync(`/proc/${proc.pid}/status`, 'utf8'))?.[1]) / 1024);
function require0() { return fsmod; }
const fsmod = await import('node:fs');
for (const scenario of (process.env.SCENARIO ?? 'checkout').split(',')) {
let next: () => Record<string, unknown>;
if (scenario === 'read') {
  const op = (await (await fetch(`${url}/v2/payments?limit=1`, { headers: { 'x-api-key': key0 } })).json()).data[0].id;
  next = () => ({ method: 'GET', path: `/v2/qr/${op}`, headers: { 'x-api-key': key0 } });
} else if (scenario === 'list') {
  const page = await (await fetch(`${url}/v2/payments?limit=100`, { headers: { 'x-api-key': key0 } })).json();
  next = () => ({ method: 'GET', path: `/v2/payments?limit=20&cursor=${encodeURIComponent(page.next_cursor)}`, headers: { 'x-api-key': key0 } });
} else if (scenario === 'checkout') {
  const cookies: string[] = [];
  const tok = (await import('./seed.ts')).BENCH_LINK_TOKEN ?? token;
  for (let i = 0; i < 50; i++) { const r = await fetch(`${url}/v2/checkout/${tok}`); if (r.status !== 200) throw new Error(await r.text()); cookies.push(r.headers.get('set-cookie')!.split(';')[0]); }
  next = () => ({ method: 'GET', path: `/v2/checkout/${tok}`, headers: { cookie: cookies[Math.floor(Math.random() * 50)] } });
} else {
  next = () => ({ method: 'POST', path: '/v2/qr', headers: { 'content-type': 'application/json', 'x-api-key': key0, 'idempotency-key': randomUUID() }, body: '{"amount":5000}' });
}
const dur = Number(process.env.SECONDS ?? 10);
const r = await autocannon({ url, connections: Number(process.env.C ?? 10), duration: dur, requests: [{ setupRequest: (req: any) => ({ ...req, ...next() }) } as never] });
const stat = (await import('node:fs')).readFileSync(`/proc/${proc.pid}/stat`, 'utf8').split(' ');
console.log(scenario, 'rps', r.requests.average, 'p99', r.latency.p99, 'non2xx', r.non2xx, 'cpu_ms_total', (Number(stat[13]) + Number(stat[14])) * 10, 'hwm_mb', hwm());
}
proc.kill('SIGTERM');
await new Promise((r) => proc.once('exit', r));
