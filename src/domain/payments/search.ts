// Finding a payment: the filters of the payments list, the cabinet's list and the CSV export, read from the
// query as the caller wrote them, checked (every bad value is 400 naming its parameter) and turned into SQL
// conditions that each list adds to its keyset page. The checked values are also what a cursor is bound to.
import { AppError } from '../../errors.ts';

/** The filters as a query gives them (the HTTP schema has already made the amounts integers). */
export interface PaymentSearchInput {
  status?: string;
  type?: string;
  created_from?: string;
  created_to?: string;
  amount?: number;
  amount_min?: number;
  amount_max?: number;
  phone_last?: string;
  q?: string;
}

/** The checked filters. */
export interface PaymentSearch {
  status?: string;
  type?: string;
  createdFrom?: Date;
  createdTo?: Date;
  amount?: number;
  amountMin?: number;
  amountMax?: number;
  phoneLast?: string;
  q?: string;
}

/** The longest text search: longer than any id, shorter than a comment (255), so it stays a search. */
export const Q_MAX = 100;

const bad = (param: string, message: string) => new AppError('invalid_parameter', message, { param });

// A date and time with its offset (Z or ±hh:mm); seconds and their fraction optional. A bare date or a time
// without an offset is refused rather than guessed: for a shop in Almaty, UTC and local time differ by 5 hours.
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):?(\d{2}))$/i;

export function parseInstant(raw: string, param: string): Date {
  // An unencoded `+` in a query string arrives as a space (`...T00:00:00 05:00`): it can only be the offset's.
  const value = raw.replace(/ (\d{2}:?\d{2})$/, '+$1');
  const m = INSTANT.exec(value);
  const refuse = () =>
    bad(param, `${param} must be a date and time with its offset, e.g. 2026-05-01T00:00:00+05:00 (Almaty)`);
  if (!m) throw refuse();
  const [y, mo, d, h, mi] = m.slice(1, 6).map(Number);
  const s = Number(m[6] ?? 0);
  const ms = Number((m[7] ?? '0').padEnd(3, '0').slice(0, 3));
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  const days = mo === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(mo) ? 30 : 31;
  // Years 1 to 9999: what both stores take.
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > days || h > 23 || mi > 59 || s > 59) throw refuse();
  let offset = 0;
  if (m[8].toUpperCase() !== 'Z') {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 14 || om > 59) throw refuse();
    offset = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const utc = new Date(0);
  utc.setUTCFullYear(y, mo - 1, d); // setUTCFullYear, not Date.UTC: Date.UTC reads years 0 to 99 as 1900s
  utc.setUTCHours(h, mi, s, ms);
  return new Date(utc.getTime() - offset * 60_000);
}

function parseAmount(value: number | undefined, param: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 1)
    throw bad(param, `${param} must be a whole number of tenge, 1 or more`);
  return value;
}

/** Checks the filters; an empty text is no filter (a search form sends its empty fields). */
export function parsePaymentSearch(input: PaymentSearchInput): PaymentSearch {
  const createdFrom = input.created_from ? parseInstant(input.created_from, 'created_from') : undefined;
  const createdTo = input.created_to ? parseInstant(input.created_to, 'created_to') : undefined;
  if (createdFrom && createdTo && createdFrom > createdTo)
    throw bad('created_from', 'created_from is after created_to');
  const amount = parseAmount(input.amount, 'amount');
  const amountMin = parseAmount(input.amount_min, 'amount_min');
  const amountMax = parseAmount(input.amount_max, 'amount_max');
  if (amount !== undefined && (amountMin !== undefined || amountMax !== undefined))
    throw bad('amount', 'amount is an exact amount: give it, or amount_min and amount_max, not both');
  if (amountMin !== undefined && amountMax !== undefined && amountMin > amountMax)
    throw bad('amount_min', 'amount_min is more than amount_max');
  let phoneLast: string | undefined;
  if (input.phone_last) {
    if (!/^\d{4,10}$/.test(input.phone_last))
      throw bad('phone_last', 'phone_last must be the last 4 to 10 digits of the phone, digits only');
    phoneLast = input.phone_last;
  }
  const q = input.q?.trim() || undefined;
  if (q !== undefined) {
    if (q.length > Q_MAX) throw bad('q', `q must be at most ${Q_MAX} characters`);
    // Control characters never occur in a comment or an id, and NUL is a text PostgreSQL refuses (a 500).
    if (/[\u0000-\u001f\u007f]/.test(q)) throw bad('q', 'q must not contain control characters');
  }
  return {
    status: input.status,
    type: input.type,
    createdFrom,
    createdTo,
    amount,
    amountMin,
    amountMax,
    phoneLast,
    q,
  };
}

/**
 * What a cursor is bound to: the checked values in one spelling (so `+05:00` and the same instant in `Z` page
 * alike). The keys of the filters that existed before the search (status, type) keep their names, so cursors
 * made before it stay valid.
 */
export function cursorFilters(s: PaymentSearch): Record<string, unknown> {
  return {
    status: s.status,
    type: s.type,
    from: s.createdFrom?.toISOString(),
    to: s.createdTo?.toISOString(),
    amount: s.amount,
    amount_min: s.amountMin,
    amount_max: s.amountMax,
    phone_last: s.phoneLast,
    q: s.q,
  };
}

/** `%`, `_` and the escape character itself match literally in a LIKE pattern with ESCAPE '\'. */
export const likeEscaped = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/**
 * The conditions of `s` on the operations table, their values pushed onto `params`. The text search and the
 * phone are LIKE patterns with an explicit escape character; ILIKE folds case by the database's ctype (both
 * stores here fold Cyrillic and Kazakh letters; a database made with the plain C locale would not).
 */
export function searchConditions(s: PaymentSearch, params: unknown[]): string[] {
  const where: string[] = [];
  const p = (v: unknown) => `$${params.push(v)}`;
  if (s.status) where.push(`status = ${p(s.status)}`);
  if (s.type) where.push(`type = ${p(s.type)}`);
  if (s.createdFrom) where.push(`created_at >= ${p(s.createdFrom)}`);
  if (s.createdTo) where.push(`created_at <= ${p(s.createdTo)}`);
  if (s.amount !== undefined) where.push(`amount = ${p(s.amount)}`);
  if (s.amountMin !== undefined) where.push(`amount >= ${p(s.amountMin)}`);
  if (s.amountMax !== undefined) where.push(`amount <= ${p(s.amountMax)}`);
  // Phones are kept in E.164 (+77012345678), so the last digits are the text's end.
  if (s.phoneLast) where.push(`phone LIKE ${p(`%${s.phoneLast}`)}`);
  if (s.q) {
    const pattern = p(`%${likeEscaped(s.q)}%`);
    where.push(`(comment ILIKE ${pattern} ESCAPE '\\' OR id ILIKE ${pattern} ESCAPE '\\')`);
  }
  return where;
}
