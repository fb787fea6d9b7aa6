// Addresses a person types and payers meet: e-mail addresses (payer e-mails, branding's support e-mail)
// and the length limit of URLs (link redirects, branding logos). Shared by links and branding, so that
// neither imports the other.
import { AppError } from '../errors.ts';

/** The longest URL browsers handle everywhere. */
export const URL_MAX = 2083;

// The HTML living standard's valid e-mail address, with a dotted domain (real mail goes to a domain
// with a TLD), and the RFC 5321 length limits.
const EMAIL_RE = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

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
