// IPv6 addresses that carry an IPv4 one: IPv4-compatible (::/96, which the URL parser writes as
// [::7f00:1] for [::127.0.0.1]), NAT64 (64:ff9b::/96) and 6to4 (2002::/16) are never webhook targets,
// and an embedded metadata address is named as such. A real public IPv6 address stays allowed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress } from '../../src/domain/webhooks/address-policy.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, errorOf, newMerchant } from '../helpers/factories.ts';

describe('addresses embedding IPv4', () => {
  it('IPv4-compatible ::/96 is refused, private addresses allowed or not', () => {
    for (const allowPrivate of [false, true]) {
      expect(classifyAddress('::7f00:1', allowPrivate)).toMatchObject({ allowed: false, range: 'ipv4Compatible' });
      expect(classifyAddress('::127.0.0.1', allowPrivate)).toMatchObject({ allowed: false, range: 'ipv4Compatible' });
      expect(classifyAddress('::808:808', allowPrivate)).toMatchObject({ allowed: false, range: 'ipv4Compatible' });
      expect(classifyAddress('::a9fe:a9fe', allowPrivate)).toMatchObject({ allowed: false, range: 'metadata' });
    }
  });

  it('NAT64 and 6to4 are refused, and name an embedded metadata address', () => {
    expect(classifyAddress('64:ff9b::a9fe:a9fe', true)).toMatchObject({ allowed: false, range: 'metadata' });
    expect(classifyAddress('64:ff9b::7f00:1', true)).toMatchObject({ allowed: false, range: 'rfc6052' });
    expect(classifyAddress('2002:a9fe:a9fe::1', true)).toMatchObject({ allowed: false, range: 'metadata' });
    expect(classifyAddress('2002:c0a8:0101::1', true)).toMatchObject({ allowed: false, range: '6to4' });
  });

  it('the unspecified and loopback addresses keep their own names; public IPv6 is allowed', () => {
    expect(classifyAddress('::', false)).toMatchObject({ allowed: false, range: 'unspecified' });
    expect(classifyAddress('::1', false)).toMatchObject({ allowed: false, range: 'loopback' });
    expect(classifyAddress('::1', true)).toMatchObject({ allowed: true, range: 'loopback' });
    expect(classifyAddress('2a00:1450:4001:82b::200e', false)).toMatchObject({ allowed: true, range: 'unicast' });
  });
});

describe('POST /me/webhooks with such an address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('is 400 invalid_parameter naming url', async () => {
    const m = await newMerchant(t.app);
    for (const host of [
      '[::127.0.0.1]',
      '[::7f00:1]',
      '[::169.254.169.254]',
      '[64:ff9b::a9fe:a9fe]',
      '[2002:a9fe:a9fe::1]',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/me/webhooks',
        headers: bearer(m),
        payload: { url: `https://${host}/hook`, events: ['payment.completed'] },
      });
      expect(res.statusCode, host).toBe(400);
      expect(errorOf(res), host).toMatchObject({ code: 'invalid_parameter', param: 'url' });
    }
  });
});

describe('odd IPv6 text', () => {
  it('a zone id does not throw: classified, and refused as link-local', () => {
    expect(classifyAddress('fe80::1%eth0', false)).toMatchObject({ allowed: false });
  });
});
