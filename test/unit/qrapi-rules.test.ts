// The qrapi driver's pure rules: StatusCodes call by call to errors (either sign and width of the 99...
// codes), the provider's dates, phones, status words to the port's, and the per-account circuit breaker
// (5 failures, 30 s, one trial call).
import { describe, expect, it } from 'vitest';
import { CODES, errorForCode, normalizeCode, type Call } from '../../src/providers/qrapi/codes.ts';
import { callOf } from '../../src/providers/qrapi/connection.ts';
import { parseProviderDate, parseTimezone } from '../../src/providers/qrapi/dates.ts';
import { mapStatus, providerPhone } from '../../src/providers/qrapi/driver.ts';
import { CircuitBreaker } from '../../src/providers/qrapi/breaker.ts';
import { ProviderRejected, ProviderSessionExpired, ProviderUnavailable } from '../../src/providers/types.ts';

describe('StatusCodes', () => {
  it('one code whichever sign and width it comes in', () => {
    expect(normalizeCode(99000005)).toBe(-99000005);
    expect(normalizeCode(-99000005)).toBe(-99000005);
    expect(normalizeCode(-990000028)).toBe(990000028);
    expect(normalizeCode(990000028)).toBe(990000028);
    expect(normalizeCode(-1501)).toBe(-1501);
    // A digit short, as public clients write them: -99000018 is 990000018, 99000033 is 990000033.
    expect(normalizeCode(-99000018)).toBe(990000018);
    expect(normalizeCode(99000033)).toBe(990000033);
    expect(normalizeCode(-99000026)).toBe(990000026);
    // remote/create's own 99000010 stays itself.
    expect(normalizeCode(99000010)).toBe(99000010);
    expect(normalizeCode(-99000010)).toBe(99000010);
  });

  it('every code the document lists for a call has its row, and only -999 and -99000006 are outages', () => {
    for (const [call, row] of Object.entries(CODES) as [Call, Record<number, string>][]) {
      for (const [code, meaning] of Object.entries(row)) {
        const outage = Number(code) === -999 || Number(code) === -99000006;
        expect(meaning === 'outage', `${call} ${code}`).toBe(outage);
      }
    }
    // The document's lists, call by call (integration document v3.9).
    const listed: [Call, number[]][] = [
      ['partner/tradepoints', [-999, -10000, -14000002]],
      ['device/register', [-999, -10000, -1503, -99000002, 990000026]],
      ['device/delete', [-999, -10000, -1501]],
      ['qr/create', [-999, -10000, -1501, -1502, -99000002, 990000018, 990000026, 990000028, 990000033]],
      ['payment/status', [-999, -10000, -1601]],
      [
        'payment/return',
        [
          -999, -10000, -1501, -1502, -1601, -99000005, -99000006, -99000001, -99000002, -99000003, -99000011,
          -99000020, 990000018,
        ],
      ],
      ['remote/client-info', [-999, -1401, -1404, -1501, -99000002, 990000018, 990000029, 990000031, 990000032]],
      ['remote/create', [-999, -1401, -1404, -1501, -99000002, 99000010, 990000018, 990000028, 990000032]],
      ['remote/cancel', [-999, -1401, -1404, -1501, -99000001, -99000002, 990000018]],
    ];
    for (const [call, codes] of listed) for (const c of codes) expect(CODES[call][c], `${call} ${c}`).toBeDefined();
  });

  it('session codes expire the session; refusals keep a named reason; outages stay outages', () => {
    for (const c of [-10000, -1501, -1502, -99000002, 99000002, 990000018, -990000018, -99000018]) {
      expect(errorForCode('qr/create', c, 'x'), String(c)).toBeInstanceOf(ProviderSessionExpired);
    }
    const reason = (call: Call, c: number) => (errorForCode(call, c, undefined) as ProviderRejected).reason;
    expect(reason('qr/create', 990000028)).toBe('invalid_amount');
    expect(reason('qr/create', -990000026)).toBe('trade_point_refused');
    expect(reason('qr/create', 99000033)).toBe('trade_point_refused');
    expect(reason('payment/return', 99000005)).toBe('refund_amount_exceeds');
    expect([-99000011, -99000020, -99000003, 99000011].map((c) => reason('payment/return', c))).toEqual(
      Array(4).fill('payment_not_refundable'),
    );
    expect([-1601, -99000001].map((c) => reason('payment/return', c))).toEqual(['not_found', 'not_found']);
    expect(
      [-1401, -1404, 990000029, 990000031, 990000032, -99000029].map((c) => reason('remote/client-info', c)),
    ).toEqual(Array(6).fill('client_not_found'));
    expect(reason('remote/create', 99000010)).toBe('refused');
    expect(reason('device/register', -1503)).toBe('device_conflict');
    expect(reason('device/register', -99000002)).toBe('trade_point_not_found');
    // A code nobody documents is an answer too: a refusal, never an outage.
    const odd = errorForCode('qr/create', 12345, 'm') as ProviderRejected;
    expect(odd).toBeInstanceOf(ProviderRejected);
    expect(odd.reason).toBe('undocumented');
    expect(odd.message).toContain('12345');
    for (const c of [-999, -99000006, 99000006]) {
      const e = errorForCode('payment/return', c, 'm');
      expect(e, String(c)).toBeInstanceOf(ProviderUnavailable);
      expect(e).not.toBeInstanceOf(ProviderRejected);
      expect(e.message).toContain(String(c));
    }
  });

  it('the paths with ids name their call', () => {
    expect(callOf('payment/status/123')).toBe('payment/status');
    expect(callOf('partner/tradepoints/990140001233')).toBe('partner/tradepoints');
    expect(callOf('return/status/7')).toBe('return/status');
    expect(callOf('qr/create')).toBe('qr/create');
  });
});

describe('dates as the provider writes them', () => {
  const at = (s: string, offset?: number) => parseProviderDate(s, offset)?.toISOString() ?? null;
  it('reads every form of decisions 26', () => {
    expect(at('2020-01-16T10:30:00+06')).toBe('2020-01-16T04:30:00.000Z'); // the document's qr/create example
    expect(at('2020-01-16T10:30:00+0600')).toBe('2020-01-16T04:30:00.000Z');
    expect(at('2025-10-22T17:10:50.717+05:00')).toBe('2025-10-22T12:10:50.717Z'); // production
    expect(at('2021-11-3T11:55:14.166+06:00')).toBe('2021-11-03T05:55:14.166Z'); // one-digit day
    expect(at('2021-1-3T1:05:14+06:00')).toBe('2021-01-02T19:05:14.000Z');
    expect(at('2021-12-08T11:35:48.1566667')).toBe('2021-12-08T06:35:48.156Z'); // no offset: UTC+5, 7 digits cut
    expect(at('2021-12-08T11:35:48')).toBe('2021-12-08T06:35:48.000Z');
    expect(at('2021-12-08T11:35:48.1')).toBe('2021-12-08T06:35:48.100Z');
    expect(at('2021-12-08T11:35:48.1234567Z')).toBe('2021-12-08T11:35:48.123Z');
    expect(at('2021-12-08T11:35:48', 6 * 60)).toBe('2021-12-08T05:35:48.000Z'); // QRAPI_TIMEZONE=+06:00
    expect(at('2021-12-08 11:35:48-03:30')).toBe('2021-12-08T15:05:48.000Z');
  });

  it('refuses what is not a date, rather than guessing', () => {
    for (const bad of [
      '',
      'soon',
      '2021-13-01T00:00:00+05',
      '2021-02-30T00:00:00+05',
      '2021-12-08T25:00:00',
      '2021-12-08T11:35:48+15',
      '2021-12-08',
      '1638945348',
      null,
      undefined,
      1638945348,
    ]) {
      expect(parseProviderDate(bad), String(bad)).toBeNull();
    }
  });

  it('QRAPI_TIMEZONE: an offset or a zone name, UTC+5 when unset', () => {
    expect(parseTimezone(undefined)).toBe(300);
    expect(parseTimezone('+06:00')).toBe(360);
    expect(parseTimezone('UTC+5')).toBe(300);
    expect(parseTimezone('-0330')).toBe(-210);
    expect(parseTimezone('UTC')).toBe(0);
    expect(parseTimezone('Asia/Tokyo')).toBe(540);
    expect(() => parseTimezone('Mars/Olympus')).toThrow(/QRAPI_TIMEZONE/);
    expect(() => parseTimezone('+15')).toThrow(/QRAPI_TIMEZONE/);
  });

  it("phones go in the document's form, or with 7 when configured", () => {
    expect(providerPhone('+77012345678')).toBe('87012345678');
    expect(providerPhone('+77012345678', '7')).toBe('77012345678');
  });
});

describe('status words', () => {
  it('map as decisions 24 says, and an unknown word keeps waiting', () => {
    expect(
      [
        'QrTokenCreated',
        'Wait',
        'Processed',
        'Error',
        'RemotePaymentCreated',
        'RemotePaymentCanceled',
        'SomethingNew',
      ].map(mapStatus),
    ).toEqual(['waiting', 'waiting', 'paid', 'declined', 'waiting', 'cancelled', 'waiting']);
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

describe("the provider's CA", () => {
  it('is trusted beside the well-known CAs, never instead of them', async () => {
    const { rootCertificates } = await import('node:tls');
    const { trustedCas } = await import('../../src/infra/outbound.ts');
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    const cas = trustedCas(pem)!;
    expect(cas).toContain(pem);
    for (const root of rootCertificates) expect(cas).toContain(root);
    expect(trustedCas(undefined)).toBeUndefined();
  });
});

describe('client certificate', () => {
  it('a PFX that cannot be opened fails the call as a certificate failure, before anything is sent', async () => {
    const { QrapiConnection } = await import('../../src/providers/qrapi/connection.ts');
    // Port 1: a call that tried to connect would fail as not reachable (ProviderUnavailable) instead.
    const ep = { r3: 'https://127.0.0.1:1/r3/v01', timeoutMs: 1000 };
    for (const pfx of [Buffer.from('not a pkcs12 file'), Buffer.alloc(0)]) {
      const client = new QrapiConnection(ep, { scheme: 'r3', pfx, password: 'pw' });
      const err = await client.call('GET', 'health/ping').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProviderSessionExpired);
      expect((err as Error).message).toMatch(/client certificate/);
      await client.close();
    }
    // The same client without a certificate (r1) does try to connect.
    const r1 = new QrapiConnection(
      { r1: 'https://127.0.0.1:1/r1/v01', timeoutMs: 1000 },
      { scheme: 'r1', apiKey: 'k' },
    );
    expect(await r1.call('GET', 'health/ping').catch((e: unknown) => e)).toBeInstanceOf(ProviderUnavailable);
    await r1.close();
  });
});
