// Kazakh company requisites (decisions 17): pure checks, each returning the normalized value or the
// reason it is refused, so that the API names the field (400 invalid_parameter with `param`).
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

export type Checked = { ok: true; value: string } | { ok: false; why: string };

const ok = (value: string): Checked => ({ ok: true, value });
const no = (why: string): Checked => ({ ok: false, why });

/**
 * BIN (companies) and IIN (individuals, the ИП's number) share one form: 12 digits, the last a check
 * digit. Weights 1..11 give the sum mod 11; a result of 10 takes the second weights 3..11,1,2; a second
 * 10 means the number cannot be valid.
 */
export function checkBin(raw: string): Checked {
  const s = raw.replace(/\s+/g, '');
  if (!/^\d{12}$/.test(s)) return no('must be 12 digits');
  const d = [...s].map(Number);
  const sum = (weights: number[]) => weights.reduce((acc, w, i) => acc + w * d[i], 0) % 11;
  let check = sum([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  if (check === 10) check = sum([3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 2]);
  if (check === 10 || check !== d[11]) return no('has a wrong check digit');
  return ok(s);
}

/** A Kazakh IBAN: KZ, 2 check digits, 3 digits of the bank, 13 characters of the account; ISO 13616 mod 97. */
export function checkIban(raw: string): Checked {
  const s = raw.replace(/\s+/g, '').toUpperCase();
  if (!/^KZ\d{2}[0-9A-Z]{16}$/.test(s)) return no('must be KZ followed by 18 letters or digits');
  const rearranged = s.slice(4) + s.slice(0, 4);
  let rest = 0;
  for (const ch of rearranged) {
    const n = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const digit of n) rest = (rest * 10 + Number(digit)) % 97;
  }
  return rest === 1 ? ok(s) : no('fails the IBAN check (mod 97)');
}

/** The bank's BIK, which in Kazakhstan is its SWIFT/BIC code: 8 to 11 letters and digits. */
export function checkBik(raw: string): Checked {
  const s = raw.replace(/\s+/g, '').toUpperCase();
  return /^[A-Z0-9]{8,11}$/.test(s) ? ok(s) : no('must be 8 to 11 letters or digits');
}

/** Any valid phone (landlines too), numbers without a country code read as Kazakh; kept in E.164. */
export function checkPhone(raw: string): Checked {
  const p = parsePhoneNumberFromString(raw.trim(), 'KZ');
  return p?.isValid() ? ok(p.number) : no('is not a valid phone number');
}

/** Kbe, the beneficiary code of payment orders: two digits (residency, then economic sector). */
export function checkKbe(raw: string): Checked {
  const s = raw.trim();
  return /^[12]\d$/.test(s) ? ok(s) : no('must be two digits, the first 1 (resident) or 2 (non-resident)');
}
