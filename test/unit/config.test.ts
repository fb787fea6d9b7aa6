// Configuration rules added with the provider-outcome and OIDC work: an issuer without an audience stops
// the start (its id_tokens' audience would go unchecked), and the gateway time-out is read from the env.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

const issuer = { name: 'local', issuer: 'https://id.example', audience: 'tolem', jwks_uri: 'https://id.example/jwks' };

describe('loadConfig', () => {
  it('takes complete OIDC issuers and refuses one missing a field', () => {
    expect(loadConfig({ OIDC_ISSUERS: JSON.stringify([issuer]) }).oidcIssuers).toEqual([issuer]);
    for (const f of ['name', 'issuer', 'audience', 'jwks_uri'] as const) {
      const partial = { ...issuer, [f]: undefined };
      expect(() => loadConfig({ OIDC_ISSUERS: JSON.stringify([partial]) }), f).toThrow(`"${f}"`);
    }
    expect(() => loadConfig({ OIDC_ISSUERS: '{}' })).toThrow('JSON array');
  });

  it('reads PROVIDER_TIMEOUT_MS, 10 s by default', () => {
    expect(loadConfig({}).providerTimeoutMs).toBe(10_000);
    expect(loadConfig({ PROVIDER_TIMEOUT_MS: '2500' }).providerTimeoutMs).toBe(2500);
  });
});
