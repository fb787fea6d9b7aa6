// Drill 2: Redis stopped and started under a steady payment load. Redis holds only the rate-limit
// counters (docs/operations.md): while it is away each API process counts in its own memory, and no request
// waits on it longer than a second. The private redis-server gets SIGTERM (an operator's stop), stays
// down a few seconds and starts again, empty, on the same port.
import { afterAll, beforeAll, it } from 'vitest';
import { collectFigures } from './harness/figures.ts';
import { PaymentLoad, testPayment } from './harness/load.ts';
import { sleep } from './harness/services.ts';
import { DrillStack } from './harness/stack.ts';
import { expectRecovered } from './harness/verdict.ts';

const DOWN_MS = 8000;
let stack: DrillStack;
beforeAll(async () => {
  stack = await DrillStack.start('redis');
});
afterAll(() => stack?.close());

it('Redis stopped and started under load: nothing lost or stored twice, every webhook delivered', async () => {
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
  await stack.redis.stopServer();
  await sleep(DOWN_MS);
  await stack.redis.startServer();
  const faultEnd = Date.now();
  bound = faultEnd + 60_000;
  await sleep(6000);
  await load.stop();
  const f = await collectFigures({
    drill: 'redis-restart',
    fault: `Redis stopped (SIGTERM), down ${DOWN_MS / 1000} s, started again empty`,
    stack,
    load,
    faultStart,
    faultEnd,
    boundMs: 60_000,
  });
  expectRecovered(f, stack);
});
