// The fields a fiscal receipt's line carries beside name and price (decisions 27), checked the same way
// in the catalog and in the items of a payment, a link or a refund: 400 invalid_parameter naming the field.
import { invalidParam } from '../../errors.ts';

export const POSITION_TYPES = ['goods', 'work', 'service'] as const;
export type PositionType = (typeof POSITION_TYPES)[number];

/** шт (piece), the unit a line has when none is given (OKEI code, Webkassa's RefUnits). */
export const DEFAULT_UNIT_CODE = 796;
export const UNIT_CODE_MAX = 99_999;
export const SECTION_CODE_MAX = 32;
export const NAME_MAX = 128;

/** The GS1 check digit rule: weights 3 and 1 from the right, the last digit makes the sum a multiple of 10. */
function gs1CheckDigitOk(digits: string): boolean {
  let sum = 0;
  for (let i = digits.length - 2, w = 3; i >= 0; i--, w = 4 - w) sum += Number(digits[i]) * w;
  return (10 - (sum % 10)) % 10 === Number(digits[digits.length - 1]);
}

/** GTIN-8, -12 (UPC-A), -13 (EAN-13) or -14, with a valid check digit. */
export function checkGtin(value: string | null | undefined, param: string): string | null {
  if (value === undefined || value === null) return null;
  if (!/^(\d{8}|\d{12,14})$/.test(value) || !gs1CheckDigitOk(value))
    throw invalidParam(param, `${param} must be a GTIN: 8, 12, 13 or 14 digits ending in a valid check digit`);
  return value;
}

/**
 * The National Catalogue's (НКТ) identification code: 13 or 14 digits. NTINs are issued in the GS1 layout,
 * but their check digit rule is not published by the catalogue's operator, so only the form is checked: a
 * wrong code is refused by the register, not silently changed here.
 */
export function checkNtin(value: string | null | undefined, param: string): string | null {
  if (value === undefined || value === null) return null;
  if (!/^\d{13,14}$/.test(value)) throw invalidParam(param, `${param} must be an NTIN: 13 or 14 digits`);
  return value;
}

export function checkUnitCode(value: number | undefined, param: string): number {
  if (value === undefined) return DEFAULT_UNIT_CODE;
  if (!Number.isInteger(value) || value < 1 || value > UNIT_CODE_MAX)
    throw invalidParam(param, `${param} must be an integer unit code from 1 to ${UNIT_CODE_MAX} (796: piece)`);
  return value;
}

/** Basis points: 1200 is 12 %. null leaves the rate to the register's default. */
export function checkVatRate(value: number | null | undefined, param: string): number | null {
  if (value === undefined || value === null) return null;
  if (!Number.isInteger(value) || value < 0 || value > 10_000)
    throw invalidParam(param, `${param} must be an integer from 0 to 10000 basis points (1200 is 12 %)`);
  return value;
}

export function checkSectionCode(value: string | null | undefined, param: string): string | null {
  if (value === undefined || value === null) return null;
  if (value.trim() === '' || value.length > SECTION_CODE_MAX)
    throw invalidParam(param, `${param} must be 1 to ${SECTION_CODE_MAX} characters`);
  return value;
}

export function checkPositionType(value: string | undefined, param: string): PositionType {
  if (value === undefined) return 'goods';
  if (!(POSITION_TYPES as readonly string[]).includes(value))
    throw invalidParam(param, `${param} must be one of ${POSITION_TYPES.join(', ')}`);
  return value as PositionType;
}

export function checkName(value: string, param: string, max = NAME_MAX): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalidParam(param, `${param} must not be empty`);
  if ([...value].length > max) throw invalidParam(param, `${param} must be at most ${max} characters`);
  return value;
}
