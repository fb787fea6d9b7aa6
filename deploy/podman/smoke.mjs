// The compose stack's smoke test (run by ci.sh once the stack is up): through the proxy, a shop registers,
// subscribes a test-mode webhook on a receiver running here, outside the containers, and takes a test
// payment. The receiver holds the first delivery without answering while the worker container is SIGKILLed;
// the worker is started again and the delivery must still arrive, with the same webhook-id, and be recorded
// as delivered. Prints its figures as one JSON line; exits non-zero with the reason on any failure.
//   node deploy/podman/smoke.mjs --base http://127.0.0.1:18080 --worker <container> [--timeout 240]
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { base: { type: 'string' }, worker: { type: 'string' }, timeout: { type: 'string', default: '240' } },
});
const base = values.base ?? process.exit(2);
const worker = values.worker ?? process.exit(2);
const deadline = Date.now() + Number(values.timeout) * 1000;
const figures = {};
const step = (name) => process.stderr.write(`smoke: ${name}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, probe, everyMs = 500) {
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/**
 * One API call as a client is told to make it: a 503 `service_unavailable` (the database out of reach for a
 * moment) is sent again after its Retry-After, with the same Idempotency-Key, at most five times. Each retry
 * is counted in the figures, so a stack that needs them shows it. (The podman network's resolver here has
 * been seen to miss a lookup of `postgres` for a new connection now and then.)
 */
async function call(method, path, { key, token, body, idempotent } = {}) {
  const headers = { 'content-type': 'application/json' };
  if (key) headers['x-api-key'] = key;
  if (token) headers.authorization = `Bearer ${token}`;
  if (idempotent) headers['idempotency-key'] = randomUUID();
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${base}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
    const text = await res.text();
    if (res.status === 503 && attempt < 5 && /"service_unavailable"/.test(text)) {
      figures.retried_503 = (figures.retried_503 ?? 0) + 1;
      step(`${method} ${path} answered 503 service_unavailable; again after Retry-After`);
      await sleep(Number(res.headers.get('retry-after') ?? 2) * 1000);
      continue;
    }
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  }
}

// The receiver: the first delivery is held open (never answered) until the worker that sent it is dead.
const received = [];
let holdFirst = true;
const held = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    received.push({ id: req.headers['webhook-id'], at: Date.now(), body: JSON.parse(body) });
    if (holdFirst) {
      holdFirst = false;
      held.push(res);
      return;
    }
    res.writeHead(200).end('ok');
  });
});
await new Promise((r) => receiver.listen(0, '0.0.0.0', r));
const receiverUrl = `http://host.containers.internal:${receiver.address().port}/hooks/tolem`;

try {
  step('waiting for /readyz through the proxy');
  const started = Date.now();
  await until('the stack to be ready', async () => (await fetch(`${base}/readyz`)).ok);
  figures.ready_wait_s = Math.round((Date.now() - started) / 100) / 10;
  // Both API instances must answer: each request goes to the next one; twenty must all succeed.
  for (let i = 0; i < 20; i++) if (!(await fetch(`${base}/readyz`)).ok) throw new Error('an API instance is not ready');

  step('register, webhook, test payment');
  const account = await call('POST', '/auth/register', {
    body: { name: 'Smoke shop', email: `smoke-${randomUUID()}@example.kz`, password: 'a long smoke password' },
  });
  const key = account.api_keys.test;
  const token = account.access_token;
  const hook = await call('POST', '/me/webhooks?mode=test', {
    token,
    body: { url: receiverUrl, events: ['payment.completed'] },
  });
  const qr = await call('POST', '/v2/qr', { key, idempotent: true, body: { amount: 5000, comment: 'smoke' } });
  const paid = await call('POST', `/v2/test/payments/${qr.operation_id}/pay`, { key });
  if (paid.status !== 'paid') throw new Error(`the test payment is ${paid.status}, not paid`);

  step('the first delivery arrives and is held; SIGKILL the worker');
  const first = await until('the first delivery', async () => received[0]);
  if (first.body.type !== 'payment.completed' || first.body.data.operation_id !== qr.operation_id)
    throw new Error(`unexpected delivery: ${JSON.stringify(first.body).slice(0, 300)}`);
  execFileSync('podman', ['kill', '--signal', 'KILL', worker], { stdio: 'ignore' });
  for (const res of held) res.destroy();
  const killedAt = Date.now();
  execFileSync('podman', ['start', worker], { stdio: 'ignore' });

  step('the delivery arrives again from the restarted worker');
  const again = await until('the delivery after the worker was killed', async () =>
    received.find((r, i) => i > 0 && r.id === first.id),
  );
  figures.redelivered_after_kill_s = Math.round((again.at - killedAt) / 100) / 10;
  const deliveries = await until('the delivery recorded as delivered', async () => {
    const page = await call('GET', `/me/webhooks/${hook.id}/deliveries?mode=test`, { token });
    return page.data.some((d) => d.status === 'delivered') ? page : undefined;
  });
  figures.deliveries = deliveries.data.length;
  figures.received = received.length;
  const ids = new Set(received.map((r) => r.id));
  if (ids.size !== 1) throw new Error(`expected one webhook-id, got ${[...ids].join(', ')}`);
  figures.payment = (await call('GET', `/v2/qr/${qr.operation_id}`, { key })).status;
  process.stdout.write(`${JSON.stringify({ ok: true, ...figures })}\n`);
} catch (err) {
  process.stderr.write(`smoke: FAILED: ${err.message}\n`);
  process.exitCode = 1;
} finally {
  receiver.closeAllConnections();
  receiver.close();
}
