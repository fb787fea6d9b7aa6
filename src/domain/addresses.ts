// Addresses a person types and payers meet: e-mail addresses (payer e-mails, branding's support e-mail),
// the length limit of URLs (link redirects, branding logos) and web site addresses (a partner's website).
// Shared by links, branding and partners, so that none imports another.
import { AppError } from '../errors.ts';

/** The longest URL browsers handle everywhere. */
export const URL_MAX = 2083;

// The HTML living standard's valid e-mail address, with a dotted domain (real mail goes to a domain
// with a TLD), and the RFC 5321 length limits.
const EMAIL_RE = new RegExp(
  "^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@" +
    '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$',
);

export function isValidEmail(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 254) return false;
  const at = value.lastIndexOf('@');
  return at > 0 && at <= 64 && EMAIL_RE.test(value) && !/\.$/.test(value);
}

/** Normalized e-mail or 400 bad_email naming the field. */
export function checkEmail(value: unknown, param: string): string {
  const v = typeof value === 'string' ? value.trim() : value;
  if (!isValidEmail(v)) throw new AppError('bad_email', `${param} must be a valid e-mail address`, { param });
  return v;
}

/**
 * A web site's address as people are shown it (a partner's `website`): an absolute http or https URL
 * with a host and no credentials, written without spaces or control characters (the URL parser would
 * drop or encode them silently); spaces around it are dropped. Anything else (javascript:, data:,
 * mailto:, a bare host name) is 400 invalid_parameter naming the field.
 */
export function checkWebsite(value: unknown, param: string, max = 300): string {
  const v = typeof value === 'string' ? value.trim() : value;
  const bad = () =>
    new AppError(
      'invalid_parameter',
      `${param} must be an http or https URL such as https://example.kz, of at most ${max} characters`,
      { param },
    );
  if (typeof v !== 'string' || v.length > max || !/^https?:\/\/[^\s\u0000-\u001f\u007f]+$/i.test(v)) throw bad();
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw bad();
  }
  if ((u.protocol !== 'https:' && u.protocol !== 'http:') || !u.hostname || u.username || u.password) throw bad();
  return v;
}
