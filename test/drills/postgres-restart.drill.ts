// Drill 1: PostgreSQL restarted under a steady payment load. The private cluster is stopped the hard way
// (pg_ctl -m immediate: no checkpoint, as a crash or a failover leaves it), kept down a few seconds and
// started again (crash recovery), while four clients create and pay test QRs and retry what fails with
// the same Idempotency-Key.
import { afterAll, beforeAll, it } from 'vitest';
import { collectFigures } from './harness/figures.ts';
import { PaymentLoad, testPayment } from './harness/load.ts';
import { sleep } from './harness/services.ts';
import { DrillStack } from './harness/stack.ts';
import { expectRecovered } from './harness/verdict.ts';

const DOWN_MS = 5000;
let stack: DrillStack;
beforeAll(async () => {
  stack = await DrillStack.start('postgres');
});
afterAll(() => stack?.close());

it('PostgreSQL restarted under load: nothing lost or stored twice, every webhook delivered', async () => {
  const m = await stack.merchant('test');
  let bound = Number.POSITIVE_INFINITY;
  const load = new PaymentLoad({
    clients: 4,
    pauseMs: 100,
    base: stack.api.url,
    deadline: () => bound,
    intent: testPayment(m.testKey),
  });
  load.start();
  await sleep(5000);
  const faultStart = Date.now();
  await stack.postgres.stopServer('immediate');
  await sleep(DOWN_MS);
  await stack.postgres.startServer();
  const faultEnd = Date.now();
  bound = faultEnd + 60_000;
  await sleep(6000);
  await load.stop();
  const f = await collectFigures({
    drill: 'postgres-restart',
    fault: `PostgreSQL crashed (pg_ctl stop -m immediate), down ${DOWN_MS / 1000} s, started again`,
    stack,
    load,
    faultStart,
    faultEnd,
    boundMs: 60_000,
  });
  expectRecovered(f, stack);
});
