// Drill 4: the provider down for a minute while live payments are created and watched. Tolem runs with the
// official-API driver (PROVIDER_DRIVER=qrapi) against the emulator (client-certificate TLS), reached
// through a relay that the drill takes down for 60 s: every call to the provider is refused or cut. Two
// clients keep creating live QRs (retrying with the same Idempotency-Key), and each QR's customer pays it
// in the provider's app a few seconds after it is made, so some pay while Tolem cannot see it: the
// worker's watcher must notice them once the provider is back, and send their webhooks.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import { BIN, EmulatorClient } from '../emulator/harness.ts';
import { collectFigures } from './harness/figures.ts';
import { PaymentLoad, type Intent } from './harness/load.ts';
import { TcpRelay } from './harness/proxy.ts';
import { sleep } from './harness/services.ts';
import { DrillStack } from './harness/stack.ts';
import { expectRecovered } from './harness/verdict.ts';

const DOWN_MS = 60_000;
const PAY_WITHIN_MS = 6000;
let emuDir: string;
let emu: RunningEmulator;
let relay: TcpRelay;
let customer: EmulatorClient;
let stack: DrillStack;

beforeAll(async () => {
  emuDir = mkdtempSync(path.join(tmpdir(), 'tolem-drill-emu-'));
  emu = await startEmulator({ port: 0, dir: emuDir });
  customer = new EmulatorClient(emu);
  relay = await TcpRelay.start(Number(new URL(emu.url).port));
  stack = await DrillStack.start('provider', {
    PROVIDER_DRIVER: 'qrapi',
    QRAPI_BASE_URL: `https://127.0.0.1:${relay.port}`,
    QRAPI_CA_FILE: emu.ca,
    // The watcher's allowance per account: the drill's one shop has a few dozen QRs waiting at the end of
    // the outage, and the default (5 a second) would spread their polls over many seconds.
    QRAPI_WATCH_CALLS_PER_SECOND: '20',
  });
});
afterAll(async () => {
  await stack?.close();
  await relay?.close();
  await customer?.close();
  await emu?.close();
  rmSync(emuDir, { recursive: true, force: true });
});

async function post(pathName: string, token: string, body: unknown): Promise<any> {
  const res = await fetch(`${stack.api.url}${pathName}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const answer = await res.json();
  expect(res.status, JSON.stringify(answer)).toBe(200);
  return answer;
}

it('the provider down for a minute: live payments noticed after, nothing lost or stored twice', async () => {
  const m = await stack.merchant('live');
  // The live account, connected through the official-API onboarding as a merchant does it.
  await post('/onboarding/provider/start', m.token, {
    org_bin: BIN,
    display_name: 'Drill shop',
    credentials: {
      scheme: 'r3',
      certificate_pfx_base64: readFileSync(emu.clientPfx).toString('base64'),
      password: emu.clientPassword,
    },
  });
  expect((await post('/onboarding/provider/verify', m.token, { trade_point_id: 1 })).state).toBe('connected');
  // A direct write in place of a plan purchase: the trial's 30 live payments a month and 60 live
  // requests a minute would cut the drill short. The store holds this one shop only.
  await stack.db.query(`UPDATE clients SET plan = 'enterprise', plan_expires_at = NULL`);

  const customerPaidAt = new Map<string, number>();
  const paying: Promise<void>[] = [];
  const payLater = (op: string) => async () => {
    await sleep(Math.random() * PAY_WITHIN_MS);
    const ref = (await stack.db.query('SELECT provider_ref FROM operations WHERE id = $1', [op])).rows[0].provider_ref;
    for (const action of ['scan', 'confirm'] as const) {
      const answer = await customer.customer(action, Number(ref));
      if (answer?.StatusCode !== 0) throw new Error(`the customer's ${action} of ${op}: ${JSON.stringify(answer)}`);
    }
    customerPaidAt.set(op, Date.now());
  };
  const livePayment: Intent = async (client, tag, n) => {
    const qr = await client.send(
      'POST',
      '/v2/qr',
      { 'x-api-key': m.liveKey, 'idempotency-key': randomUUID() },
      { amount: 100 + (n % 900), comment: tag },
    );
    paying.push(payLater(qr.body.operation_id)());
  };

  let bound = Number.POSITIVE_INFINITY;
  const load = new PaymentLoad({
    clients: 2,
    pauseMs: 1000,
    base: stack.api.url,
    deadline: () => bound,
    intent: livePayment,
  });
  load.start();
  await sleep(6000);
  const faultStart = Date.now();
  await relay.down();
  await sleep(DOWN_MS);
  await relay.up();
  const faultEnd = Date.now();
  // The account's circuit breaker stays open up to 30 s after the last failure (QRAPI_BREAKER_OPEN_MS).
  bound = faultEnd + 90_000;
  await sleep(6000);
  await load.stop();
  await Promise.all(paying);
  const f = await collectFigures({
    drill: 'provider-down',
    fault: `provider unreachable from Tolem for ${DOWN_MS / 1000} s (connections refused and cut)`,
    stack,
    load,
    faultStart,
    faultEnd,
    boundMs: 60_000,
    backlog: [...customerPaidAt].filter(([, at]) => at <= faultEnd).map(([op]) => op),
  });
  expectRecovered(f, stack);
});
