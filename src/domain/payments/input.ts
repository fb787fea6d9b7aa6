// Input rules shared by every way of creating a payment (v2, cabinet, v1, links): decisions 1.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { AppError } from '../../errors.ts';

export function checkAmount(amount: number, max: number, param = 'amount'): number {
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > max) {
    throw new AppError('invalid_parameter', `${param} must be an integer from 1 to ${max} tenge`, { param });
  }
  return amount;
}

/** Kazakhstan mobile numbers in any common spelling, to E.164 (+77012345678). */
export function normalizePhone(raw: string, param = 'phone'): string {
  let s = raw.trim();
  // The domestic trunk prefix 8 (87012345678) means +7.
  const digits = s.replace(/[^\d]/g, '');
  if (/^8\d{10}$/.test(digits) && !s.startsWith('+')) s = `+7${digits.slice(1)}`;
  const p = parsePhoneNumberFromString(s, 'KZ');
  if (!p || !p.isValid() || p.country !== 'KZ' || p.getType() !== 'MOBILE') {
    throw new AppError('invalid_phone', 'phone must be a Kazakhstan mobile number, e.g. +7 701 234 56 78', { param });
  }
  return p.number;
}

export interface Item {
  name: string;
  price: number;
  quantity?: number;
}

export function checkItems(items: Item[] | undefined, amount: number, max: number): { name: string; price: number; quantity: number }[] | null {
  if (!items) return null;
  let total = 0;
  const out = items.map((i, n) => {
    checkAmount(i.price, max, `items.${n}.price`);
    const quantity = i.quantity ?? 1;
    total += i.price * quantity;
    return { name: i.name, price: i.price, quantity };
  });
  if (total !== amount) throw new AppError('invalid_parameter', `items add up to ${total}, not amount ${amount}`, { param: 'items' });
  return out;
}
