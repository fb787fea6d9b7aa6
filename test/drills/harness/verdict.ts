// What every drill asserts: no payment lost, none stored twice, every paid payment's payment.completed
// delivered (more than once is allowed: at-least-once), and no Tolem process gone because of the fault.
// Timings are figures only. On a failure the processes' last log lines come with the message.
import { expect } from 'vitest';
import type { Figures } from './figures.ts';
import type { DrillStack } from './stack.ts';

export function expectRecovered(f: Figures, stack: DrillStack): void {
  const context = `${JSON.stringify(f)}\n${stack.logs()}`;
  expect(f.payments_meant, context).toBeGreaterThan(0);
  expect(f.payments_lost, context).toBe(0);
  expect(f.payments_duplicated, context).toBe(0);
  expect(f.webhooks_delivered, context).toBe(f.webhooks_expected);
  expect(f.webhooks_expected, context).toBeGreaterThanOrEqual(f.payments_stored);
  expect(f.processes_exited, context).toEqual([]);
}
