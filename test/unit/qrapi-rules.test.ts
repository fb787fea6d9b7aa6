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

describe('client certificate', () => {
  it('a PFX that cannot be opened fails the call as a certificate failure, before anything is sent', async () => {
    const { QrapiClient } = await import('../../src/providers/qrapi/client.ts');
    // Port 1: a call that tried to connect would fail as not reachable (ProviderUnavailable) instead.
    const ep = { r3: 'https://127.0.0.1:1/r3/v01', timeoutMs: 1000 };
    for (const pfx of [Buffer.from('not a pkcs12 file'), Buffer.alloc(0)]) {
      const client = new QrapiClient(ep, { scheme: 'r3', pfx, password: 'pw' });
      const err = await client.call('GET', 'health/ping').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderSessionExpired);
      expect((err as Error).message).toMatch(/client certificate/);
      await client.close();
    }
    // The same client without a certificate (r1) does try to connect.
    const r1 = new QrapiClient({ r1: 'https://127.0.0.1:1/r1/v01', timeoutMs: 1000 }, { scheme: 'r1', apiKey: 'k' });
    expect(await r1.call('GET', 'health/ping').catch((e: unknown) => e)).toBeInstanceOf(ProviderUnavailable);
    await r1.close();
  });
});
