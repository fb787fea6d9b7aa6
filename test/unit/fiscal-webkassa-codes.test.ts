// Webkassa's error codes to the port's kinds, the 505's alternative hosts (host names only, the configured
// scheme and port), and how an unanswered call is told apart: nothing sent (unavailable) from sent and
// unanswered (outcome_unknown).
import { afterAll, describe, expect, it } from 'vitest';
import { closeFiscalPools, networkFailure, send, poolFor, statusFailure } from '../../src/fiscal/http.ts';
import { errorOf, kindOfCode } from '../../src/fiscal/webkassa/codes.ts';
import { alternativeBases } from '../../src/fiscal/webkassa/connection.ts';
import { FiscalError } from '../../src/fiscal/types.ts';

describe('webkassa error codes', () => {
  it('each code the domain acts on has its kind', () => {
    const table: [number, string][] = [
      [1, 'auth_failed'],
      [2, 'token_expired'],
      [3, 'token_expired'],
      [4, 'auth_failed'],
      [5, 'auth_failed'],
      [6, 'blocked'],
      [7, 'blocked'],
      [8, 'rejected'],
      [9, 'rejected'],
      [10, 'blocked'],
      [11, 'shift_expired'],
      [13, 'rejected'],
      [14, 'duplicate'],
      [17, 'rejected'],
      [18, 'offline_expired'],
      [255, 'basis_missing'],
      [-1, 'rejected'],
      [4242, 'rejected'],
    ];
    for (const [code, kind] of table) expect([code, kindOfCode(code, 'x')]).toEqual([code, kind]);
  });

  it('9 is busy when its text says the register is serving another request, rejected otherwise', () => {
    expect(kindOfCode(9, 'Нарушена очередность запросов по кассе')).toBe('busy');
    expect(kindOfCode(9, 'По кассе уже выполняется операция')).toBe('busy');
    expect(kindOfCode(9, 'Сумма оплат меньше итога')).toBe('rejected');
    expect(kindOfCode(9, undefined)).toBe('rejected');
  });

  it('9 is basis_missing when the return names a sale the register does not know', () => {
    expect(kindOfCode(9, 'Чек-основание не найден: фискальный признак, РНМ, дата, сумма не совпадают')).toBe(
      'basis_missing',
    );
    expect(kindOfCode(9, 'Сумма возврата превышает остаток чека-основания (500.00)')).toBe('rejected');
  });

  it('the error keeps the code and every text of the list', () => {
    const e = errorOf('/api/v4/check', [
      { Code: 11, Text: 'Продолжительность смены превысила 24 часа' },
      { Code: 9, Text: 'x' },
    ]);
    expect(e).toBeInstanceOf(FiscalError);
    expect(e.kind).toBe('shift_expired');
    expect(e.code).toBe('11');
    expect(e.message).toContain('24 часа');
    expect(e.message).toContain('9: x');
    expect(errorOf('/x', []).kind).toBe('rejected');
  });
});

describe('webkassa 505 alternative hosts', () => {
  const base = 'https://kkm.webkassa.kz';

  it('bare names, lists, several headers: each host on the configured scheme', () => {
    expect(alternativeBases('kkm2.webkassa.kz, kkm3.webkassa.kz', base)).toEqual([
      'https://kkm2.webkassa.kz',
      'https://kkm3.webkassa.kz',
    ]);
    expect(alternativeBases(['kkm2.webkassa.kz', 'kkm3.webkassa.kz;kkm2.webkassa.kz'], base)).toEqual([
      'https://kkm2.webkassa.kz',
      'https://kkm3.webkassa.kz',
    ]);
  });

  it('a URL gives its host only: the configured scheme and port stay, another port is ignored', () => {
    expect(alternativeBases('http://kkm2.webkassa.kz', base)).toEqual(['https://kkm2.webkassa.kz']);
    expect(alternativeBases('kkm2.webkassa.kz:8443', 'https://localhost:9443')).toEqual([
      'https://kkm2.webkassa.kz:9443',
    ]);
    expect(alternativeBases('https://127.0.0.1:1/', 'https://localhost:9443')).toEqual(['https://127.0.0.1:9443']);
  });

  it('anything but a host is dropped: paths, credentials, other schemes, junk, the same host', () => {
    expect(
      alternativeBases(
        'https://evil.example/steal, https://u:p@evil.example, ftp://x.kz, javascript:alert(1), ' +
          'a_b.kz, kkm.webkassa.kz, -x.kz',
        base,
      ),
    ).toEqual([]);
    expect(alternativeBases(undefined, base)).toEqual([]);
    expect(alternativeBases('', base)).toEqual([]);
  });
});

describe('unanswered calls', () => {
  afterAll(closeFiscalPools);
  const err = (code: string) => Object.assign(new Error(code), { code });

  it('nothing reached the service: unavailable, whatever the call', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'UND_ERR_CONNECT_TIMEOUT', 'ERR_TLS_CERT_ALTNAME_INVALID'])
      expect(networkFailure(err(code), 'check', true).kind).toBe('unavailable');
    expect(networkFailure({ cause: { code: 'ECONNREFUSED' } }, 'check', true).kind).toBe('unavailable');
  });

  it('sent and unanswered: outcome_unknown for a receipt, unavailable for a read', () => {
    for (const code of ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_SOCKET', 'ECONNRESET', 'UND_ERR_BODY_TIMEOUT']) {
      expect(networkFailure(err(code), 'check', true).kind).toBe('outcome_unknown');
      expect(networkFailure(err(code), 'Cashboxes', false).kind).toBe('unavailable');
    }
  });

  it('a gateway 503 took nothing; another 5xx on a receipt may have come after it was signed', () => {
    expect(statusFailure(503, 'check', true).kind).toBe('unavailable');
    expect(statusFailure(502, 'check', true).kind).toBe('outcome_unknown');
    expect(statusFailure(504, 'check', true).kind).toBe('outcome_unknown');
    expect(statusFailure(500, 'Cashboxes', false).kind).toBe('unavailable');
  });

  it('a refused connection is unavailable end to end', async () => {
    const call = send(
      poolFor('test', undefined),
      { method: 'POST', url: 'http://127.0.0.1:1/api/v4/check', body: {}, mutating: true, name: 'check' },
      2000,
      {},
    );
    await expect(call).rejects.toMatchObject({ name: 'FiscalError', kind: 'unavailable' });
  });
});
