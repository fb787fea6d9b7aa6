// Input rules of payment links that a JSON schema cannot say: redirect URLs, the size of metadata, a
// description that is not just spaces.
import { isIP } from 'node:net';
import { invalidParam } from '../../errors.ts';
import { URL_MAX } from '../addresses.ts';

export const DESCRIPTION_MAX = 500;
export const METADATA_MAX_KEYS = 50;
export const METADATA_MAX_KEY_LENGTH = 40;
export const METADATA_MAX_BYTES = 4096;
export const EXPIRES_MIN = 5;
export const EXPIRES_MAX = 43_200;
export const EXPIRES_DEFAULT = 1440;

/** Loopback hosts, where plain http is allowed so that integrators can test against a local shop. */
function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h === '::1';
}

/**
 * success_url / cancel_url: absolute https URLs (http only for loopback hosts), no credentials, at most
 * 2083 characters. The payer's browser is sent there, so anything else (javascript:, data:) is refused.
 */
export function checkRedirectUrl(value: string | null | undefined, param: string): string | null {
  if (value === undefined || value === null) return null;
  const bad = (why: string) => invalidParam(param, `${param} ${why}`);
  if (value.length > URL_MAX) throw bad(`must be at most ${URL_MAX} characters`);
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw bad('must be an absolute URL');
  }
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && isLoopback(u.hostname))) {
    throw bad('must use https (http is allowed only for localhost)');
  }
  if (u.username || u.password) throw bad('must not carry credentials');
  return value;
}

export function checkDescription(value: string, param = 'description'): string {
  if (value.trim() === '') throw invalidParam(param, `${param} must not be empty`);
  if ([...value].length > DESCRIPTION_MAX)
    throw invalidParam(param, `${param} must be at most ${DESCRIPTION_MAX} characters`);
  return value;
}

export function checkExpiresIn(minutes: number): number {
  if (!Number.isInteger(minutes) || minutes < EXPIRES_MIN || minutes > EXPIRES_MAX) {
    throw invalidParam(
      'expires_in_minutes',
      `expires_in_minutes must be an integer from ${EXPIRES_MIN} to ${EXPIRES_MAX}`,
    );
  }
  return minutes;
}

/** Metadata is the merchant's own: at most 50 keys of at most 40 characters, 4 KiB of JSON in all. */
export function checkMetadata(value: Record<string, unknown> | undefined | null): Record<string, unknown> | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidParam('metadata', 'metadata must be an object');
  const keys = Object.keys(value);
  if (keys.length > METADATA_MAX_KEYS)
    throw invalidParam('metadata', `metadata may have at most ${METADATA_MAX_KEYS} keys`);
  const long = keys.find((k) => k.length === 0 || k.length > METADATA_MAX_KEY_LENGTH);
  if (long !== undefined)
    throw invalidParam('metadata', `metadata keys must be 1 to ${METADATA_MAX_KEY_LENGTH} characters`);
  if (Buffer.byteLength(JSON.stringify(value), 'utf8') > METADATA_MAX_BYTES) {
    throw invalidParam('metadata', `metadata must be at most ${METADATA_MAX_BYTES} bytes of JSON`);
  }
  return value;
}
