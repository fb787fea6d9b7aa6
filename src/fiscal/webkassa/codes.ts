// Webkassa's error codes (research section 1: the OPOS driver's enum and the iiko adapter's catalogue) and
// the FiscalError kind each one means to Tolem's domain. docs/fiscal.md carries the same table.
import { FiscalError, type FiscalErrorKind } from '../types.ts';

export interface WebkassaErrorItem {
  Code: number;
  Text?: string;
}

/** Codes answered by one call that mean "nothing there", which the caller turns into null. */
export const NO_OPEN_SHIFT = 13;
export const SHIFT_ALREADY_CLOSED = 12;
export const DUPLICATE = 14;
export const NO_SUCH_RECEIPT = 19;
export const OTHER_DOMAIN = 505;

const KINDS: Record<number, FiscalErrorKind> = {
  1: 'auth_failed', // wrong login or password
  2: 'token_expired',
  3: 'token_expired', // "not authorized": the token is not (or no longer) valid; one new login settles it
  // 4 (no right to the operation) and 5 (no access to this cash register): the user whose credentials the
  // merchant gave cannot work this register. Only the merchant fixes that, with other credentials or
  // rights in Webkassa's cabinet: the register's status auth_failed says so, where blocked would blame
  // the register.
  4: 'auth_failed',
  5: 'auth_failed',
  6: 'blocked', // register not found or not available to the user
  7: 'blocked', // register blocked
  9: 'rejected', // validation (see busy below)
  10: 'blocked', // register not activated, or its licence ended
  11: 'shift_expired', // the shift passed 24 hours
  14: 'duplicate', // ExternalCheckNumber already used
  18: 'offline_expired', // offline for more than 72 hours
  255: 'basis_missing', // a return without the sale it refers to
};

/**
 * Webkassa answers a second request on a register whose first one is still running with code 9 and a text
 * about the request order (iiko's notes). That is a `busy`: the same request succeeds later. Any other 9 is
 * a validation error: `rejected`, never repeated unchanged.
 */
const ORDER_BROKEN =
  /очеред|последовательн|параллельн|одновременн|уже выполняется|в обработке|sequen|parallel|concurren|in progress/i;

/**
 * A return whose basis matches no sale of the register comes as a 9 too (its real code is not public): its
 * text says the basis receipt was not found. That is the domain's `basis_missing`; a return above what is
 * left of its sale names the basis as well, but is a plain refusal.
 */
const BASIS_UNKNOWN = /основани\S* не найден|не указаны данные чека-основания|basis\S* not found/i;

/** The kind a Webkassa error code means; -1 and codes not listed are a refusal of this request. */
export function kindOfCode(code: number, text: string | undefined): FiscalErrorKind {
  if (code === 9 && text && ORDER_BROKEN.test(text)) return 'busy';
  if (code === 9 && text && BASIS_UNKNOWN.test(text)) return 'basis_missing';
  return KINDS[code] ?? 'rejected';
}

/** The FiscalError of an `Errors` list: its first entry decides, every text goes into the message. */
export function errorOf(call: string, errors: WebkassaErrorItem[]): FiscalError {
  const first = errors[0] ?? { Code: -1 };
  const code = Number(first.Code);
  const texts = errors.map((e) => `${e.Code}: ${e.Text ?? ''}`.trim()).join('; ');
  return new FiscalError(kindOfCode(code, first.Text), `webkassa ${call}: ${texts}`, String(code));
}

/** The first Errors entry with this code, if any. */
export function hasCode(errors: WebkassaErrorItem[], code: number): boolean {
  return errors.some((e) => Number(e.Code) === code);
}
