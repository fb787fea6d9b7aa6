// The qrapi driver's pure rules: StatusCodes to errors (either sign of the 99... codes), status words to
// the port's, and the per-account circuit breaker (5 failures, 30 s, one trial call).
import { describe, expect, it } from 'vitest';
import { errorForCode, normalizeCode } from '../../src/providers/qrapi/codes.ts';
import { mapStatus } from '../../src/providers/qrapi/driver.ts';
import { CircuitBreaker } from '../../src/providers/qrapi/breaker.ts';
import { ProviderRejected, ProviderSessionExpired, ProviderUnavailable } from '../../src/providers/types.ts';

describe('StatusCodes', () => {
  it('the 99... codes are one code whichever sign they come with', () => {
    expect(normalizeCode(99000005)).toBe(-99000005);
    expect(normalizeCode(-99000005)).toBe(-99000005);
    expect(normalizeCode(-990000028)).toBe(990000028);
    expect(normalizeCode(990000028)).toBe(990000028);
    expect(normalizeCode(-1501)).toBe(-1501);
  });

  it('session codes expire the session; named refusals keep their reason; the rest is unavailable', () => {
    for (const c of [-10000, -1501, -1502, -14000002, -99000002, 99000002, 990000018, -990000018]) {
      expect(errorForCode(c, 'x'), String(c)).toBeInstanceOf(ProviderSessionExpired);
    }
    const reason = (c: number) => (errorForCode(c, undefined) as ProviderRejected).reason;
    expect(reason(990000028)).toBe('invalid_amount');
    expect(reason(99000005)).toBe('refund_amount_exceeds');
    expect([-99000011, -99000020, -99000003, 99000011].map(reason)).toEqual(Array(4).fill('payment_not_refundable'));
    expect([-1601, -99000001].map(reason)).toEqual(['not_found', 'not_found']);
    for (const c of [-999, -99000006, 12345, -1401]) {
      const e = errorForCode(c, 'm');
      expect(e, String(c)).toBeInstanceOf(ProviderUnavailable);
      expect(e).not.toBeInstanceOf(ProviderRejected);
      expect(e.message).toContain(String(c));
    }
  });
});

describe('status words', () => {
  it('map as decisions 24 says, and an unknown word keeps waiting', () => {
    expect(['QrTokenCreated', 'Wait', 'Processed', 'Error', 'RemotePaymentCreated', 'RemotePaymentCanceled', 'SomethingNew'].map(mapStatus))
      .toEqual(['waiting', 'waiting', 'paid', 'declined', 'waiting', 'cancelled', 'waiting']);
  });
});

describe('circuit breaker', () => {
  it('opens after 5 failures in a row, lets one trial through after 30 s, closes on its success', () => {
    let now = 0;
    const b = new CircuitBreaker(5, 30_000, () => now);
    for (let i = 0; i < 4; i++) {
      expect(b.allow()).toBe(true);
      b.failure();
    }
    b.success(); // a success in between starts the count again
    for (let i = 0; i < 5; i++) b.failure();
    expect(b.state).toBe('open');
    expect(b.allow()).toBe(false);
    now += 30_000;
    expect(b.allow()).toBe(true); // the trial
    expect(b.allow()).toBe(false); // only one at a time
    b.failure();
    expect(b.allow()).toBe(false); // open again for 30 s
    now += 30_000;
    expect(b.allow()).toBe(true);
    b.success();
    expect(b.state).toBe('closed');
    expect(b.allow()).toBe(true);
  });
});
