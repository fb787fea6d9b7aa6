// Spans for calls through the provider port (decisions 29): one per call the domain makes of a driver,
// whichever it is (the sandbox, the gateway, a qrapi account's), named `<driver>.<call>`. The drivers
// that go over the network add an HTTP client span per attempt beneath it (qrapi/connection.ts,
// gateway.ts), so a retried call shows its attempts. Tracing off: the driver itself, no wrapper.
import { inSpan, tracingOn } from '../telemetry/tracing.ts';

/** The port's calls (types.ts), the sandbox's `simulate`, and those of `onboarding` and `returns`. */
const CALLS = new Set([
  'createQr',
  'createInvoice',
  'getStatus',
  'cancelInvoice',
  'refund',
  'refundableAmount',
  'findCustomer',
  'checkSession',
  'simulate',
  'tradePoints',
  'registerDevice',
  'deleteDevice',
  'createReturn',
  'returnStatus',
  'returnPurchases',
  'refundWithReturn',
]);
const PARTS = new Set(['onboarding', 'returns']);

export function tracedProvider<P extends object>(provider: P, driver: string): P {
  if (!tracingOn()) return provider;
  return new Proxy(provider, {
    get(target, prop) {
      // The driver's own `this` (its private state), not the proxy's.
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof prop !== 'string' || value === null || value === undefined) return value;
      if (PARTS.has(prop) && typeof value === 'object') return tracedProvider(value, driver);
      if (typeof value !== 'function' || !CALLS.has(prop)) return value;
      return (...args: unknown[]) =>
        inSpan(
          `${driver}.${prop}`,
          { kind: 'client', attributes: { 'tolem.provider.driver': driver, 'tolem.provider.call': prop } },
          () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args),
        );
    },
  });
}
