// reKassa's refusals ({code, message} under a 4xx/5xx) to the port's kinds.
import { describe, expect, it } from 'vitest';
import { errorOf, kindOf } from '../../src/fiscal/rekassa/codes.ts';

describe('rekassa errors', () => {
  it('the status decides where the words name nothing', () => {
    const table: [number, boolean, string][] = [
      [401, false, 'token_expired'],
      [401, true, 'auth_failed'],
      [403, true, 'auth_failed'],
      [400, true, 'auth_failed'],
      [403, false, 'auth_failed'],
      [400, false, 'rejected'],
      [404, false, 'rejected'],
      [409, false, 'duplicate'],
      [429, false, 'busy'],
      [500, false, 'unavailable'],
      [503, false, 'unavailable'],
    ];
    for (const [status, login, kind] of table)
      expect([status, login, kindOf(status, { code: 'X', message: 'y' }, login)]).toEqual([status, login, kind]);
  });

  it('codes and messages that name a state the domain acts on refine the status', () => {
    expect(kindOf(400, { code: 'shiftExpired' }, false)).toBe('shift_expired');
    expect(kindOf(400, { code: 'SHIFT_EXPIRED' }, false)).toBe('shift_expired');
    expect(kindOf(400, { message: 'Смена превысила 24 часа' }, false)).toBe('shift_expired');
    expect(kindOf(400, { code: 'OFFLINE_EXPIRED' }, false)).toBe('offline_expired');
    expect(kindOf(400, { message: 'Касса в автономном режиме более 72 часов' }, false)).toBe('offline_expired');
    expect(kindOf(403, { code: 'CASH_REGISTER_BLOCKED' }, false)).toBe('blocked');
    expect(kindOf(400, { message: 'Касса заблокирована' }, false)).toBe('blocked');
    expect(kindOf(400, { code: 'PARENT_TICKET_NOT_FOUND' }, false)).toBe('basis_missing');
    expect(kindOf(400, { code: 'PARENT_TICKET_REQUIRED' }, false)).toBe('basis_missing');
    expect(kindOf(400, { code: 'VALIDATION_ERROR', message: 'Чек-основание не найден' }, false)).toBe('basis_missing');
    const above = { code: 'VALIDATION_ERROR', message: 'Сумма возврата превышает остаток чека-основания' };
    expect(kindOf(400, above, false)).toBe('rejected');
    expect(kindOf(400, { code: 'DUPLICATE_REQUEST' }, false)).toBe('duplicate');
    // A conflict because another request on the register runs is busy, not a duplicate.
    expect(kindOf(409, { code: 'CONCURRENT_REQUEST', message: 'запросы должны идти последовательно' }, false)).toBe(
      'busy',
    );
    expect(kindOf(409, { code: 'DUPLICATE' }, false)).toBe('duplicate');
    expect(kindOf(400, { code: 'VALIDATION_ERROR', message: 'amounts.total' }, false)).toBe('rejected');
    expect(kindOf(400, { code: 'OFFLINE_PERIOD_EXPIRED' }, false)).toBe('offline_expired');
    expect(kindOf(404, { code: 'CASH_REGISTER_NOT_FOUND' }, false)).toBe('blocked');
    expect(kindOf(403, { code: 'CASH_REGISTER_NOT_ACTIVATED' }, false)).toBe('blocked');
    expect(kindOf(403, { code: 'WRONG_CASH_REGISTER_PASSWORD' }, false)).toBe('auth_failed');
    expect(kindOf(401, { code: 'INVALID_API_KEY' }, true)).toBe('auth_failed');
    expect(kindOf(400, { code: 'DATE_TIME_INVALID' }, false)).toBe('rejected');
  });

  it('the error carries the service code, or the status when there is none', () => {
    const e = errorOf('/api/crs/{id}/tickets', 400, { code: 'VALIDATION_ERROR', message: 'bad' }, false);
    expect(e).toMatchObject({ kind: 'rejected', code: 'VALIDATION_ERROR' });
    expect(e.message).toContain('bad');
    expect(errorOf('/x', 404, {}, false).code).toBe('HTTP_404');
  });
});
