// Input rules shared by every way of creating a payment (v2, cabinet, v1, links): decisions 1.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { AppError } from '../../errors.ts';

export function checkAmount(amount: number, max: number, param = 'amount'): number {
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > max) {
    throw new AppError('invalid_parameter', `${param} must be an integer from 1 to ${max} tenge`, { param });
  }
  return amount;
}

/**
 * The spellings people write (decisions 1): ASCII digits grouped by spaces, dashes and one pair of
 * parentheses around the operator code, after +7, 8 or 7 (or the ten national digits alone). Checked
 * before libphonenumber reads the number, because it reads numbers out of any text: `tel:` URIs, `;ext=`
 * and `;phone-context=` parameters, extensions ("x5", "доб. 5"), letters, and digits of other scripts
 * (Arabic-Indic, Persian, full-width), all of which would otherwise become a valid number silently.
 */
const SPELLING = /^(?:\+7|8|7)?(?:\d{3}|\(\d{3}\))\d{7}$/;
const PHONE_MAX = 32;

/** Kazakhstan mobile numbers in a common spelling, to E.164 (+77012345678); else 400 invalid_phone. */
export function normalizePhone(raw: string, param = 'phone'): string {
  const bad = () =>
    new AppError('invalid_phone', 'phone must be a Kazakhstan mobile number, e.g. +7 701 234 56 78', { param });
  if (typeof raw !== 'string' || raw.length > PHONE_MAX) throw bad();
  // Spaces around the number are dropped; spaces and dashes inside it only separate digit groups.
  const compact = raw.replace(/^ +| +$/g, '').replace(/(?<=[\d()+]) *-* *(?=[\d(])/g, '');
  if (!SPELLING.test(compact)) throw bad();
  // The last ten digits are the national number, whichever prefix (+7, 8, 7, none) came before them.
  const p = parsePhoneNumberFromString(`+7${compact.replace(/\D/g, '').slice(-10)}`);
  if (!p || !p.isValid() || p.country !== 'KZ' || p.getType() !== 'MOBILE') throw bad();
  return p.number;
}
