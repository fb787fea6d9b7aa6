// Drill 3: the worker SIGKILLed mid-delivery. The merchant's receiver holds each answer two seconds, so
// webhooks are always in flight; the ROLE=worker process is killed with SIGKILL while some are (no
// graceful shutdown: the deliveries it had claimed are abandoned mid-request), and started again two
// seconds later, as a supervisor would. The deliveries it held are claimed again when their lease runs
// out (at-least-once: the receiver sees those webhook-ids twice), and the payments made meanwhile wait
// in the table for the new worker.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { collectFigures } from './harness/figures.ts';
import { PaymentLoad, testPayment } from './harness/load.ts';
import { sleep } from './harness/services.ts';
import { DrillStack } from './harness/stack.ts';
import { expectRecovered } from './harness/verdict.ts';

const RESTART_AFTER_MS = 2000;
let stack: DrillStack;
beforeAll(async () => {
  stack = await DrillStack.start('worker');
});
afterAll(() => stack?.close());

it('the worker SIGKILLed mid-delivery: every webhook still delivered, nothing lost or stored twice', async () => {
  const m = await stack.merchant('test');
  stack.receiver.holdMs = 2000;
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
  for (let i = 0; i < 100 && stack.receiver.inFlight === 0; i++) await sleep(100);
  const inFlightAtKill = stack.receiver.inFlight;
  // The drill is only a drill if deliveries were under way when the worker died.
  if (inFlightAtKill === 0) await load.stop();
  expect(inFlightAtKill).toBeGreaterThan(0);
  const faultStart = Date.now();
  await stack.worker.kill('SIGKILL');
  await sleep(RESTART_AFTER_MS);
  await stack.worker.start();
  const faultEnd = Date.now();
  bound = faultEnd + 60_000;
  await sleep(6000);
  await load.stop();
  const f = await collectFigures({
    drill: 'worker-kill',
    fault:
      `worker SIGKILLed with ${inFlightAtKill} deliveries in flight, started again after ` +
      `${RESTART_AFTER_MS / 1000} s`,
    stack,
    load,
    faultStart,
    faultEnd,
    boundMs: 60_000,
  });
  expectRecovered(f, stack);
});
