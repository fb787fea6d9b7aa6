// The payments search's two ends without a server: the API's parser of the filters (domain/payments/search.ts:
// forms of time, calendars, offsets, bounds) and the dashboard's form (pages/merchant/payment-search.ts), whose
// Almaty days must be exactly the instants the API reads.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.ts';
import { likeEscaped, parsePaymentSearch } from '../../src/domain/payments/search.ts';
import {
  EMPTY_SEARCH,
  formOf,
  paramsOf,
  phoneDigits,
  problemsOf,
  queryOf,
} from '../../packages/dashboard/src/pages/merchant/payment-search.ts';

const refused = (input: Parameters<typeof parsePaymentSearch>[0]) => {
  try {
    parsePaymentSearch(input);
  } catch (e) {
    if (e instanceof AppError) return { code: e.code, param: e.param };
    throw e;
  }
  return null;
};

describe('the API reads times with their offset', () => {
  it.each([
    ['2026-05-01T00:00:00+05:00', '2026-04-30T19:00:00.000Z'],
    ['2026-05-01T00:00+05:00', '2026-04-30T19:00:00.000Z'],
    ['2026-05-01T00:00:00+0500', '2026-04-30T19:00:00.000Z'],
    ['2026-05-01T00:00:00 05:00', '2026-04-30T19:00:00.000Z'],
    ['2026-05-01T23:59:59.999999+05:00', '2026-05-01T18:59:59.999Z'],
    ['2026-05-01T10:00:00.5Z', '2026-05-01T10:00:00.500Z'],
    ['2026-05-01t10:00:00z', '2026-05-01T10:00:00.000Z'],
    ['2026-01-01T01:00:00-03:30', '2026-01-01T04:30:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
  ])('%s is %s', (raw, iso) => {
    expect(parsePaymentSearch({ created_from: raw }).createdFrom?.toISOString()).toBe(iso);
  });

  it.each([
    '2026-05-01',
    '2026-05-01T10:00:00',
    '2026-05-01 10:00:00Z',
    '2025-02-29T00:00:00Z',
    '2100-02-29T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-05-01T10:60:00Z',
    '2026-05-01T10:00:60Z',
    '2026-05-01T10:00:00+15:00',
    '2026-05-01T10:00:00+05:60',
    '0000-12-31T00:00:00Z',
    '+2026-05-01T00:00:00Z',
    'now',
  ])('%s is refused, naming the parameter', (raw) => {
    expect(refused({ created_to: raw })).toEqual({ code: 'invalid_parameter', param: 'created_to' });
  });

  it('an equal range is allowed; a reversed one names created_from', () => {
    expect(refused({ created_from: '2026-05-01T00:00:00Z', created_to: '2026-05-01T05:00:00+05:00' })).toBeNull();
    expect(refused({ created_from: '2026-05-01T00:00:01Z', created_to: '2026-05-01T05:00:00+05:00' })).toEqual({
      code: 'invalid_parameter',
      param: 'created_from',
    });
  });
});

describe('the API reads amounts, phones and text', () => {
  it('amounts are whole tenge from 1; exact or a range, not both', () => {
    expect(parsePaymentSearch({ amount_min: 1, amount_max: 1 })).toMatchObject({ amountMin: 1, amountMax: 1 });
    expect(refused({ amount: 0 })?.param).toBe('amount');
    expect(refused({ amount_max: 2 ** 53 })?.param).toBe('amount_max');
    expect(refused({ amount: 5, amount_max: 10 })?.param).toBe('amount');
    expect(refused({ amount_min: 11, amount_max: 10 })?.param).toBe('amount_min');
  });

  it('phone_last is 4 to 10 digits; q is trimmed, bounded and free of control characters', () => {
    expect(parsePaymentSearch({ phone_last: '0123' }).phoneLast).toBe('0123');
    for (const p of ['123', '12345678901', '１２３４', '12 34', '+7701'])
      expect(refused({ phone_last: p })?.param).toBe('phone_last');
    expect(parsePaymentSearch({ q: '  кофе  ' }).q).toBe('кофе');
    expect(parsePaymentSearch({ q: '   ' }).q).toBeUndefined();
    expect(parsePaymentSearch({ q: 'я'.repeat(100) }).q).toHaveLength(100);
    expect(refused({ q: 'я'.repeat(101) })?.param).toBe('q');
    expect(refused({ q: 'a\u0000b' })?.param).toBe('q');
    expect(likeEscaped('100%_a\\b')).toBe('100\\%\\_a\\\\b');
  });
});

describe("the dashboard's search form", () => {
  it('keeps only filled fields in the URL and reads them back', () => {
    const form = { ...EMPTY_SEARCH, q: ' кофе ', amount: '4500', from: '2026-05-01' };
    const params = paramsOf(form);
    expect(params.toString()).toBe('from=2026-05-01&amount=4500&q=%D0%BA%D0%BE%D1%84%D0%B5');
    expect(formOf(params)).toEqual({ ...EMPTY_SEARCH, q: 'кофе', amount: '4500', from: '2026-05-01' });
  });

  it("makes Almaty days into the API's instants, and the API reads them as those days", () => {
    const query = queryOf({
      ...EMPTY_SEARCH,
      from: '2026-05-01',
      to: '2026-05-02',
      amount: '4 500',
      phone: '+7 701 234 56 78',
    });
    expect(query).toEqual({
      created_from: '2026-05-01T00:00:00+05:00',
      created_to: '2026-05-02T23:59:59.999+05:00',
      amount: 4500,
      phone_last: '7012345678',
    });
    const read = parsePaymentSearch(query);
    expect(read.createdFrom?.toISOString()).toBe('2026-04-30T19:00:00.000Z');
    expect(read.createdTo?.toISOString()).toBe('2026-05-02T18:59:59.999Z');
  });

  it('says what is wrong before asking, and leaves a wrong field out of the query', () => {
    const form = { ...EMPTY_SEARCH, from: '2026-05-03', to: '2026-05-02', amount: '1.5', phone: '12-3' };
    expect(problemsOf(form)).toEqual({ to: 'dateOrder', amount: 'amountWhole', phone: 'phoneDigits' });
    expect(queryOf(form)).toEqual({ created_from: '2026-05-03T00:00:00+05:00' });
    expect(problemsOf({ ...EMPTY_SEARCH, from: '01.05.2026' })).toEqual({ from: 'dateForm' });
    expect(phoneDigits('8 (701) 234-56-78')).toBe('7012345678');
  });
});
