// Small primitives used across the code: hashing of stored credentials, random tokens, and
// authenticated encryption of secrets kept at rest (webhook secrets).
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';

export const sha256Hex = (s: string): string => createHash('sha256').update(s).digest('hex');

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform base62 string from a CSPRNG (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248) out += BASE62[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

export function hmacHex(key: string | Buffer | KeyObject, data: string): string {
  return createHmac('sha256', key).update(data).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

// Secrets at rest: AES-256-GCM with a key derived from APP_SECRET. A sealed value names its key
// (`v2.<key id>.<iv>.<tag>.<ciphertext>`, base64url parts), so that after APP_SECRET is rotated the
// previous secret still opens what it sealed until `reseal` has re-sealed it. `v1.` values (before key
// ids) carry no id and are tried with each key.
const atRestKey = (appSecret: string) => createHash('sha256').update(`tolem-at-rest:${appSecret}`).digest();

/** A short public name of an APP_SECRET (not a way to it: a hash of a 48-byte random secret). */
export const appSecretKeyId = (appSecret: string): string =>
  createHash('sha256').update(`tolem-key-id:${appSecret}`).digest('base64url').slice(0, 8);

export function encryptSecret(appSecret: string, plain: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', atRestKey(appSecret), iv);
  const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return [
    'v2',
    appSecretKeyId(appSecret),
    iv.toString('base64url'),
    c.getAuthTag().toString('base64url'),
    ct.toString('base64url'),
  ].join('.');
}

/** The key id a sealed value names; null for a v1 value (no id). */
export function sealedKeyId(sealed: string): string | null {
  const parts = sealed.split('.');
  return parts[0] === 'v2' ? (parts[1] ?? null) : null;
}

export function decryptSecret(appSecret: string, sealed: string): string {
  const parts = sealed.split('.');
  const [iv, tag, ct] =
    parts[0] === 'v2' && parts.length === 5
      ? parts.slice(2)
      : parts[0] === 'v1' && parts.length === 4
        ? parts.slice(1)
        : [];
  if (!iv || !tag || ct === undefined) throw new Error('unknown secret format');
  const d = createDecipheriv('aes-256-gcm', atRestKey(appSecret), Buffer.from(iv, 'base64url'));
  d.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8');
}
