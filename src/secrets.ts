// Server secrets: APP_SECRET (cursor signing, sealing secrets at rest) and the RS256 key of access tokens.
// They never live in the database: a dump of it must open no webhook secret and sign no token.
// Where each comes from, in order:
//   1. the environment (APP_SECRET, JWT_PRIVATE_KEY): what production sets;
//   2. the secrets file (mode 0600), where values generated on an earlier start are kept: SECRETS_FILE, or
//      DATA_DIR/secrets.json. Kept apart from DATA_DIR, a copy of the data directory alone opens nothing
//      sealed in it and signs no token;
//   3. a value an earlier version generated into the `settings` table: the embedded store (one process)
//      moves it into the file and deletes the row; PostgreSQL keeps using it with a warning, since other
//      instances may still read it there (set the variables, then delete the rows);
//   4. generated now and kept in the file: with PostgreSQL and NODE_ENV=production the process refuses to
//      start instead, naming the variables, because instances on other machines could not share a file.
// An in-memory store (tests) keeps generated values in memory only.
import { exportPKCS8, exportJWK, generateKeyPair, importPKCS8, calculateJwkThumbprint, type JWK } from 'jose';
import { createPublicKey, type KeyObject } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import type { Db } from './db/db.ts';
import type { Config } from './config.ts';
import { appSecretKeyId, decryptSecret, encryptSecret, randomToken, sealedKeyId } from './crypto.ts';

/** Seals secrets kept at rest with the current APP_SECRET; opens what it or a previous one sealed. */
export interface Sealer {
  seal(plain: string): string;
  open(sealed: string): string;
  /** sealed with the current key (`reseal` leaves these alone) */
  isCurrent(sealed: string): boolean;
}

export interface Secrets {
  appSecret: string;
  sealer: Sealer;
  /** random per database: separates the Redis keys of deployments that share one Redis */
  namespace: string;
  jwt: { privateKey: CryptoKey | KeyObject; publicJwk: JWK; kid: string };
}

export interface LoadedSecrets {
  secrets: Secrets;
  /** what the operator should hear at start-up (values in a file, or still in the database) */
  warnings: string[];
}

const VARS = { app_secret: 'APP_SECRET', jwt_private_key: 'JWT_PRIVATE_KEY' } as const;
type SecretName = keyof typeof VARS;

export function makeSealer(current: string, previous: string[]): Sealer {
  const keys = [current, ...previous.filter((p) => p !== current)];
  const byId = new Map(keys.map((k) => [appSecretKeyId(k), k]));
  const currentId = appSecretKeyId(current);
  // Opened values by their sealed text (unique per seal: a fresh IV each time). The delivery worker opens
  // the same few webhook secrets for every delivery; deciphering each time was a measurable share of its
  // CPU. Bounded: emptied when full.
  const opened = new Map<string, string>();
  const remember = (sealed: string, plain: string) => {
    if (opened.size >= OPENED_CACHE_SIZE) opened.clear();
    opened.set(sealed, plain);
    return plain;
  };
  return {
    seal: (plain) => encryptSecret(current, plain),
    open(sealed) {
      const known = opened.get(sealed);
      if (known !== undefined) return known;
      return remember(sealed, openUncached(sealed));
    },
    isCurrent: (sealed) => sealedKeyId(sealed) === currentId,
  };

  function openUncached(sealed: string): string {
    const id = sealedKeyId(sealed);
    if (id !== null) {
      const key = byId.get(id);
      if (!key) throw new Error(`sealed with key ${id}, which is neither APP_SECRET nor in APP_SECRET_PREVIOUS`);
      return decryptSecret(key, sealed);
    }
    for (const key of keys) {
      try {
        return decryptSecret(key, sealed);
      } catch {
        /* v1 values name no key: try the next */
      }
    }
    throw new Error('no configured APP_SECRET opens this value');
  }
}

const OPENED_CACHE_SIZE = 1000;

/** SECRETS_FILE when set; else DATA_DIR/secrets.json for a store on disk, none for an in-memory one (backups too). */
export function secretsFile(config: Config): string | undefined {
  if (config.secretsFile) return path.resolve(config.secretsFile);
  if (!config.dataDir || config.dataDir.startsWith('memory://')) return undefined;
  return path.join(config.dataDir, 'secrets.json');
}

function readFile(file: string | undefined): Partial<Record<SecretName, string>> {
  if (!file || !existsSync(file)) return {};
  return JSON.parse(readFileSync(file, 'utf8')) as Partial<Record<SecretName, string>>;
}

/**
 * Keeps generated values in the file and answers what the file then holds. Written whole to a temporary
 * file (0600 from the start) and linked into place only if no file is there yet, so that two processes
 * starting together on one DATA_DIR both end with the first one's values; adding to an existing file
 * renames over it. A crash never leaves half a file.
 */
function keepInFile(file: string, generated: Partial<Record<SecretName, string>>): Partial<Record<SecretName, string>> {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  const existed = existsSync(file);
  writeFileSync(tmp, JSON.stringify({ ...readFile(file), ...generated }, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600);
  if (existed) {
    renameSync(tmp, file);
  } else {
    try {
      linkSync(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      unlinkSync(tmp);
    }
  }
  return readFile(file);
}

async function legacyRow(db: Db, name: SecretName): Promise<string | undefined> {
  return (await db.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [name])).rows[0]?.value;
}

/** Insert-if-absent, then read: two instances starting at once end with the same value. */
async function storedSetting(db: Db, key: string, make: () => Promise<string>): Promise<string> {
  const existing = await db.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [key]);
  if (existing.rows[0]) return existing.rows[0].value;
  await db.query('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, await make()]);
  return (await db.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [key])).rows[0].value;
}

const GENERATE: Record<SecretName, () => Promise<string>> = {
  app_secret: async () => randomToken(48),
  jwt_private_key: async () =>
    exportPKCS8((await generateKeyPair('RS256', { modulusLength: 2048, extractable: true })).privateKey),
};

export async function loadSecrets(db: Db, config: Config): Promise<LoadedSecrets> {
  const warnings: string[] = [];
  const given: Record<SecretName, string | undefined> = {
    app_secret: config.appSecret,
    jwt_private_key: config.jwtPrivateKey,
  };
  const missing = (Object.keys(VARS) as SecretName[]).filter((n) => !given[n]);
  const shared = db.kind === 'pg';
  if (missing.length && shared && config.nodeEnv === 'production') {
    const names = missing.map((n) => VARS[n]).join(' and ');
    throw new Error(
      `${names} must be set with DATABASE_URL and NODE_ENV=production: ` +
        'generated values are never kept in the database, ' +
        'and instances on other machines could not share a local file. See docs/operations.md (secrets).',
    );
  }
  const file = secretsFile(config);
  const kept = readFile(file);
  const values = { ...given } as Record<SecretName, string>;
  const generated: Partial<Record<SecretName, string>> = {};
  for (const name of missing) {
    if (kept[name]) {
      values[name] = kept[name]!;
      continue;
    }
    const legacy = await legacyRow(db, name);
    if (legacy && shared) {
      values[name] = legacy;
      warnings.push(
        `${VARS[name]} is read from the database, where an earlier version generated it: ` +
          'a dump of the database opens it. ' +
          `Set ${VARS[name]} to that value on every instance, then DELETE FROM settings WHERE key = '${name}'.`,
      );
      continue;
    }
    values[name] = legacy ?? (await GENERATE[name]());
    generated[name] = values[name];
    if (shared)
      warnings.push(
        `${VARS[name]} was generated and kept in ${file ?? 'memory'}: ` +
          `every instance needs the same value; set ${VARS[name]}.`,
      );
  }
  if (file && Object.keys(generated).length) {
    const now = keepInFile(file, generated);
    for (const name of Object.keys(generated) as SecretName[]) values[name] = now[name] ?? values[name];
  }
  // Only once the file holds them, and only for the embedded store (one process, nobody else reads them
  // there): values an earlier version generated into the database leave it.
  if (!shared && file) await db.query(`DELETE FROM settings WHERE key IN ('app_secret', 'jwt_private_key')`);
  const namespace = await storedSetting(db, 'namespace', async () => randomToken(9));
  const pem = values.jwt_private_key;
  const privateKey = await importPKCS8(pem, 'RS256', { extractable: true });
  const publicJwk = await exportJWK(createPublicKey(pem));
  const kid = await calculateJwkThumbprint(publicJwk);
  return {
    secrets: {
      appSecret: values.app_secret,
      sealer: makeSealer(values.app_secret, config.appSecretPrevious),
      namespace,
      jwt: { privateKey, publicJwk: { ...publicJwk, kid, alg: 'RS256', use: 'sig' }, kid },
    },
    warnings,
  };
}
