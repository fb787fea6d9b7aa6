// Configuration rules added with the provider-outcome and OIDC work: an issuer without an audience stops
// the start (its id_tokens' audience would go unchecked), and the gateway time-out is read from the env.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

  it('reads APP_SECRET and JWT_PRIVATE_KEY from <NAME>_FILE (container secrets); refuses both or a bad file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tolem-config-'));
    const pem = '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----';
    writeFileSync(path.join(dir, 'key.pem'), `${pem}\n`);
    writeFileSync(path.join(dir, 'app'), 's3cret\n');
    writeFileSync(path.join(dir, 'empty'), '\n');
    const c = loadConfig({ JWT_PRIVATE_KEY_FILE: path.join(dir, 'key.pem'), APP_SECRET_FILE: path.join(dir, 'app') });
    expect(c.jwtPrivateKey).toBe(pem);
    expect(c.appSecret).toBe('s3cret');
    expect(loadConfig({ APP_SECRET: 'direct' }).appSecret).toBe('direct');
    expect(() => loadConfig({ APP_SECRET: 'x', APP_SECRET_FILE: path.join(dir, 'app') })).toThrow('not both');
    expect(() => loadConfig({ APP_SECRET_FILE: path.join(dir, 'missing') })).toThrow('cannot read');
    expect(() => loadConfig({ APP_SECRET_FILE: path.join(dir, 'empty') })).toThrow('is empty');
  });
});
