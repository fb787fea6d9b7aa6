// Server secrets at rest (#16): generated ones never reach the database, a shared production database
// refuses to start without them, values an earlier version kept in the database move out, and APP_SECRET
// rotates (a previous key still opens what it sealed; `reseal` re-seals with the current one). Each case
// runs on a store of its own: a PGlite data directory, or a fresh PostgreSQL database when
// TEST_DATABASE_URL is set.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { importPKCS8 } from 'jose';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config.ts';
import { bootstrap } from '../../src/bootstrap.ts';
import { buildApp } from '../../src/app.ts';
import { connect } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';
import { decryptSecret } from '../../src/crypto.ts';
import { loadSecrets, makeSealer } from '../../src/secrets.ts';
import { HIGH_LIMITS } from '../helpers/app.ts';
import { newMerchant } from '../helpers/factories.ts';
import { createHook } from '../webhooks/helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const adminUrl = process.env.TEST_DATABASE_URL;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A store of its own for one case: its DATA_DIR, and its DATABASE_URL on PostgreSQL. */
async function freshStore(): Promise<{ dataDir: string; databaseUrl: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tolem-secrets-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  if (!adminUrl) return { dataDir, databaseUrl: '' };
  const name = `tolem_secrets_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const a = new pg.Client({ connectionString: adminUrl });
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await a.end();
  });
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return { dataDir, databaseUrl: u.toString() };
}

const configOf = (store: { dataDir: string; databaseUrl: string }, env: Record<string, string> = {}): Config =>
  loadConfig(
    { DATABASE_URL: store.databaseUrl, DATA_DIR: store.dataDir, REDIS_URL: '', WEBHOOKS_ALLOW_PRIVATE: 'true', ...env },
    { rateLimits: HIGH_LIMITS, logLevel: 'silent' },
  );

/**
 * Makes a merchant with one webhook through the API; answers the webhook's secret as shown once. With
 * `organizations`, two merchants' IBANs beside it: one sealed as now, one in clear as before sealing.
 */
async function withWebhook(config: Config, opts: { organizations?: boolean } = {}): Promise<string> {
  const runtime = await bootstrap(config);
  const { app } = await buildApp(runtime.deps, { logger: false });
  try {
    const m = await newMerchant(app);
    const hook = await createHook(app, m, { url: 'http://127.0.0.1:9/hook', events: ['payment.completed'] });
    for (const who of opts.organizations ? [m, await newMerchant(app)] : []) {
      const put = await app.inject({
        method: 'PUT',
        url: '/me/organization',
        headers: { authorization: `Bearer ${who.access}` },
        payload: { bank: { iban: IBAN } },
      });
      expect(put.statusCode, put.body).toBe(200);
    }
    if (opts.organizations) {
      await runtime.deps.db.query(
        `UPDATE organizations SET bank_iban = $1, bank_iban_sealed = NULL ` +
          `WHERE client_id = (SELECT max(client_id) FROM organizations)`,
        [IBAN],
      );
    }
    return hook.secret as string;
  } finally {
    await app.close();
    await runtime.close();
  }
}

const IBAN = 'KZ86125KZT5004100100';

async function dumpOf(config: Config) {
  const db = await connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const settings = (await db.query<{ key: string; value: string }>('SELECT key, value FROM settings')).rows;
    const webhooks = (await db.query<{ secret_enc: string }>('SELECT secret_enc FROM webhooks')).rows;
    const organizations = (
      await db.query<{ bank_iban: string | null; bank_iban_sealed: string | null }>(
        'SELECT bank_iban, bank_iban_sealed FROM organizations ORDER BY client_id',
      )
    ).rows;
    return { settings, webhooks, organizations };
  } finally {
    await db.close();
  }
}

describe('generated secrets stay out of the database', () => {
  let store: { dataDir: string; databaseUrl: string };
  beforeEach(async () => {
    store = await freshStore();
  });

  it('a default-configured instance: its dump opens no webhook secret and signs no token', async () => {
    const config = configOf(store);
    const secret = await withWebhook(config);
    const dump = await dumpOf(config);
    expect(dump.settings.map((s) => s.key)).not.toContain('app_secret');
    expect(dump.settings.map((s) => s.key)).not.toContain('jwt_private_key');
    expect(dump.webhooks).toHaveLength(1);
    for (const { value } of dump.settings) {
      expect(() => decryptSecret(value, dump.webhooks[0].secret_enc)).toThrow();
      await expect(importPKCS8(value, 'RS256')).rejects.toThrow();
    }
    // They are in DATA_DIR/secrets.json, readable by the owner alone, and open the webhook's secret.
    const file = path.join(store.dataDir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const kept = JSON.parse(readFileSync(file, 'utf8'));
    expect(decryptSecret(kept.app_secret, dump.webhooks[0].secret_enc)).toBe(secret);
    await expect(importPKCS8(kept.jwt_private_key, 'RS256')).resolves.toBeDefined();
    // A second start reads the same values: the webhook secret still opens, tokens still verify.
    const again = await bootstrap(config);
    expect(again.deps.secrets.appSecret).toBe(kept.app_secret);
    await again.close();
  }, 60_000); // two starts of a store of its own: slow on a busy machine

  it('with PostgreSQL and NODE_ENV=production, a start without them is refused, naming the variables', async () => {
    const config = configOf(store, { NODE_ENV: 'production' });
    const db = await connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    await migrate(db);
    try {
      // The rule is the shared store's; on a PGlite run the same store is presented as PostgreSQL.
      const shared = { ...db, kind: 'pg' as const };
      await expect(loadSecrets(shared, config)).rejects.toThrow(/APP_SECRET and JWT_PRIVATE_KEY must be set/);
      await expect(loadSecrets(shared, { ...config, appSecret: 'x'.repeat(48) })).rejects.toThrow(
        /^JWT_PRIVATE_KEY must be set/,
      );
      const rows = await db.query('SELECT key FROM settings WHERE key IN ($1, $2)', ['app_secret', 'jwt_private_key']);
      expect(rows.rows).toHaveLength(0);
    } finally {
      await db.close();
    }
  });

  it('SECRETS_FILE keeps them outside DATA_DIR: a copy of the data directory alone opens nothing', async () => {
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'tolem-secrets-file-'));
    cleanups.push(() => rmSync(elsewhere, { recursive: true, force: true }));
    const file = path.join(elsewhere, 'tolem', 'secrets.json');
    const config = configOf(store, { SECRETS_FILE: file });
    const secret = await withWebhook(config);
    expect(existsSync(path.join(store.dataDir, 'secrets.json'))).toBe(false);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const kept = JSON.parse(readFileSync(file, 'utf8'));
    expect(decryptSecret(kept.app_secret, (await dumpOf(config)).webhooks[0].secret_enc)).toBe(secret);
    // No file of the data directory holds either value (on PostgreSQL DATA_DIR holds nothing at all).
    for (const e of readdirSync(store.dataDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile())) {
      const bytes = readFileSync(path.join(e.parentPath, e.name));
      expect(bytes.includes(kept.app_secret), e.name).toBe(false);
      expect(bytes.includes(kept.jwt_private_key.split('\n')[1]), e.name).toBe(false);
    }
    // The next start reads them there again.
    const again = await bootstrap(config);
    expect(again.deps.secrets.appSecret).toBe(kept.app_secret);
    await again.close();
  }, 60_000);

  it.skipIf(Boolean(adminUrl))(
    'values an earlier version kept in the embedded store move to the file and leave the database',
    async () => {
      const config = configOf(store);
      const db = await connect({ dataDir: config.dataDir });
      await migrate(db);
      const legacy = 'legacy-app-secret-'.padEnd(64, 'x');
      await db.query(`INSERT INTO settings (key, value) VALUES ('app_secret', $1)`, [legacy]);
      const loaded = await loadSecrets(db, config);
      expect(loaded.secrets.appSecret).toBe(legacy);
      expect(JSON.parse(readFileSync(path.join(store.dataDir, 'secrets.json'), 'utf8')).app_secret).toBe(legacy);
      expect((await db.query(`SELECT 1 FROM settings WHERE key = 'app_secret'`)).rows).toHaveLength(0);
      await db.close();
    },
  );
});

describe('rotating APP_SECRET', () => {
  it('the previous key still opens what it sealed; `reseal` re-seals with the current one', async () => {
    const store = await freshStore();
    const OLD = 'old-app-secret-'.padEnd(48, 'o');
    const NEW = 'new-app-secret-'.padEnd(48, 'n');
    // Beside it, values issue 38 seals: an organization's IBAN, and one written in clear before sealing.
    const secret = await withWebhook(configOf(store, { APP_SECRET: OLD }), { organizations: true });

    // The current key alone cannot open it; with the old one as previous it can.
    const sealed = (await dumpOf(configOf(store))).webhooks[0].secret_enc;
    expect(() => makeSealer(NEW, []).open(sealed)).toThrow(/neither APP_SECRET nor in APP_SECRET_PREVIOUS/);
    expect(makeSealer(NEW, [OLD]).open(sealed)).toBe(secret);

    // The command, as an operator runs it.
    const env = {
      ...process.env,
      DATABASE_URL: store.databaseUrl,
      DATA_DIR: store.dataDir,
      APP_SECRET: NEW,
      APP_SECRET_PREVIOUS: OLD,
      LOG_LEVEL: 'warn',
      REDIS_URL: '',
    };
    const run = () =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/main.ts', 'reseal'], { cwd: ROOT, env });
    const first = (await run()).stdout;
    expect(first).toContain('re-sealed 1 webhook secret');
    expect(first).toMatch(/re-sealed 1 other value .*; sealed 1 IBAN kept in clear before/);
    const second = (await run()).stdout;
    expect(second).toContain('re-sealed 0 webhook secrets'); // nothing left to do
    expect(second).toMatch(/re-sealed 0 other values .*; sealed 0 IBANs/);

    const ibans = (await dumpOf(configOf(store))).organizations;
    expect(ibans).toHaveLength(2);
    for (const o of ibans) {
      expect(o.bank_iban).toBeNull();
      expect(makeSealer(NEW, []).isCurrent(o.bank_iban_sealed!)).toBe(true);
      expect(makeSealer(NEW, []).open(o.bank_iban_sealed!)).toBe(IBAN);
    }
    const after = (await dumpOf(configOf(store))).webhooks[0].secret_enc;
    expect(makeSealer(NEW, []).open(after)).toBe(secret);
    expect(makeSealer(NEW, []).isCurrent(after)).toBe(true);
    expect(() => decryptSecret(OLD, after)).toThrow();
  }, 120_000);

  it('values sealed before key ids (v1) still open, with the current or a previous key', () => {
    // v1 format: `v1.<iv>.<tag>.<ciphertext>`, as written before key ids; made here with the same cipher.
    const v2 = makeSealer('k-old', []).seal('whsec_abc');
    const v1 = ['v1', ...v2.split('.').slice(2)].join('.');
    expect(makeSealer('k-old', []).open(v1)).toBe('whsec_abc');
    expect(makeSealer('k-new', ['k-old']).open(v1)).toBe('whsec_abc');
    expect(() => makeSealer('k-new', []).open(v1)).toThrow();
    expect(makeSealer('k-new', ['k-old']).isCurrent(v1)).toBe(false);
  });
});
