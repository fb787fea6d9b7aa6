// Server secrets: APP_SECRET (cursor signing, encryption at rest) and the RS256 key of access tokens.
// From configuration when set; otherwise generated on first start and kept in the store, so every
// instance sharing the database agrees on them.
import { exportPKCS8, exportJWK, generateKeyPair, importPKCS8, calculateJwkThumbprint, type JWK } from 'jose';
import { createPublicKey, type KeyObject } from 'node:crypto';
import type { Db } from './db/db.ts';
import type { Config } from './config.ts';
import { randomToken } from './crypto.ts';

export interface Secrets {
  appSecret: string;
  /** random per database: separates the Redis keys of deployments that share one Redis */
  namespace: string;
  jwt: { privateKey: CryptoKey | KeyObject; publicJwk: JWK; kid: string };
}

/** Insert-if-absent, then read: two instances starting at once end with the same value. */
async function storedSetting(db: Db, key: string, make: () => Promise<string>): Promise<string> {
  const existing = await db.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [key]);
  if (existing.rows[0]) return existing.rows[0].value;
  await db.query('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, await make()]);
  return (await db.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [key])).rows[0].value;
}

export async function loadSecrets(db: Db, config: Config): Promise<Secrets> {
  const appSecret = config.appSecret ?? (await storedSetting(db, 'app_secret', async () => randomToken(48)));
  const namespace = await storedSetting(db, 'namespace', async () => randomToken(9));
  const pem =
    config.jwtPrivateKey ??
    (await storedSetting(db, 'jwt_private_key', async () => {
      const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
      return exportPKCS8(privateKey);
    }));
  const privateKey = await importPKCS8(pem, 'RS256', { extractable: true });
  const publicJwk = await exportJWK(createPublicKey(pem));
  const kid = await calculateJwkThumbprint(publicJwk);
  return { appSecret, namespace, jwt: { privateKey, publicJwk: { ...publicJwk, kid, alg: 'RS256', use: 'sig' }, kid } };
}
