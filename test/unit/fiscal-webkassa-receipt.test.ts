// The webkassa driver's request and answer mapping (research section 1): positions with VAT inside at 16%
// and 12%, quantities, payment and position types, the return basis in Almaty's "dd.MM.yyyy HH:mm:ss", and
// the check's Data as the port's receipt.
import { describe, expect, it } from 'vitest';
import { formatDotted, parseServiceTime } from '../../src/fiscal/almaty.ts';
import {
  checkBody,
  checkUrlFor,
  issuedOf,
  ofdOf,
  position,
  ticketPrintUrl,
  tiynToTenge,
} from '../../src/fiscal/webkassa/receipt.ts';
import { openShiftOf, statusOf, zReportOf } from '../../src/fiscal/webkassa/driver.ts';
import type { FiscalLine, FiscalReceiptRequest } from '../../src/fiscal/types.ts';

const line = (over: Partial<FiscalLine> = {}): FiscalLine => ({
  name: 'Кофе',
  price: 500,
  quantity: 1,
  total: 500,
  unitCode: 796,
  sectionCode: null,
  ntin: null,
  gtin: null,
  vatRateBps: 1200,
  positionType: 'goods',
  ...over,
});

const sale = (over: Partial<FiscalReceiptRequest> = {}): FiscalReceiptRequest => ({
  externalNumber: 'rc_01JDXYZ',
  kind: 'sale',
  lines: [line()],
  total: 500,
  paymentType: 'mobile',
  basis: null,
  customerEmail: null,
  customerPhone: null,
  at: new Date('2026-11-27T10:00:00Z'),
  ...over,
});

describe('webkassa positions', () => {
  it('VAT inside the price at 12%: 500 carries 53.57, as the PM example', () => {
    expect(position(line())).toMatchObject({ TaxType: 100, TaxPercent: 12, Tax: 53.57, Price: 500, Count: 1 });
  });

  it('VAT inside at 16%: 500 carries 68.97, 3 × 1,000 carries 413.79, 1 tenge carries 0.14', () => {
    expect(position(line({ vatRateBps: 1600 }))).toMatchObject({ TaxPercent: 16, Tax: 68.97 });
    const three = position(line({ vatRateBps: 1600, price: 1000, quantity: 3, total: 3000 }));
    expect(three).toMatchObject({ Count: 3, Price: 1000, Tax: 413.79 });
    expect(position(line({ vatRateBps: 1600, price: 1, total: 1 })).Tax).toBe(0.14);
  });

  it('VAT amounts are exact two-decimal numbers in the JSON (no binary drift)', () => {
    for (let total = 1; total <= 3000; total += 7) {
      const tax = position(line({ vatRateBps: 1600, price: total, total })).Tax as number;
      expect(JSON.stringify(tax)).toMatch(/^\d+(\.\d{1,2})?$/);
    }
    expect(tiynToTenge(5357)).toBe(53.57);
    expect(tiynToTenge(100)).toBe(1);
  });

  it('a line without VAT is TaxType 0 with no percent or tax', () => {
    const p = position(line({ vatRateBps: null }));
    expect(p.TaxType).toBe(0);
    expect(p).not.toHaveProperty('Tax');
    expect(p).not.toHaveProperty('TaxPercent');
  });

  it('catalogue codes and position types go as Webkassa names them; absent codes are left out', () => {
    const p = position(
      line({ ntin: '0100000012345', gtin: '4600000000001', sectionCode: '2', positionType: 'service', unitCode: 5114 }),
    );
    expect(p).toMatchObject({ NTIN: '0100000012345', GTIN: '4600000000001', SectionCode: '2', PositionType: 2 });
    expect(p.UnitCode).toBe(5114);
    expect(position(line({ positionType: 'work' })).PositionType).toBe(1);
    expect(position(line())).not.toHaveProperty('NTIN');
  });
});

describe('webkassa check body', () => {
  it('a sale: operation 2, one payment of the total, change 0, rounding per position, the external number', () => {
    const b = checkBody('SWK00033717', sale({ customerEmail: 'a@b.kz' }));
    expect(b).toMatchObject({
      CashboxUniqueNumber: 'SWK00033717',
      OperationType: 2,
      Payments: [{ Sum: 500, PaymentType: 4 }],
      Change: 0,
      RoundType: 2,
      ExternalCheckNumber: 'rc_01JDXYZ',
      CustomerEmail: 'a@b.kz',
    });
    expect(b).not.toHaveProperty('ReturnBasisDetails');
    expect(b).not.toHaveProperty('CustomerPhone');
    expect(checkBody('X', sale({ paymentType: 'card' })).Payments).toEqual([{ Sum: 500, PaymentType: 1 }]);
  });

  it('a return: operation 3 with the sale as its basis, the time in Almaty as dd.MM.yyyy HH:mm:ss', () => {
    const basis = {
      fiscalSign: '367645207',
      registrationNumber: '032600010282',
      issuedAt: new Date('2026-12-31T19:30:05Z'),
      total: 500,
      offline: false,
      ref: null,
    };
    const b = checkBody('SWK1', sale({ kind: 'return', basis }));
    expect(b.OperationType).toBe(3);
    expect(b.ReturnBasisDetails).toEqual({
      CheckNumber: '367645207',
      DateTime: '01.01.2027 00:30:05',
      RegistrationNumber: '032600010282',
      Total: 500,
      IsOffline: false,
    });
  });

  it('a return without its basis is never sent', () => {
    expect(() => checkBody('SWK1', sale({ kind: 'return' }))).toThrow(/no basis/);
  });
});

describe('webkassa answers', () => {
  const data = {
    CheckNumber: '367645207',
    DateTime: '14.09.2025 16:55:37',
    OfflineMode: false,
    ShiftNumber: 12,
    CheckOrderNumber: 3,
    TicketUrl: 'http://cabinet.wofd.kz/consumer?i=367645207&f=032600010282&s=500.00&t=20250914T165537',
    TicketPrintUrl: 'https://devkkm.webkassa.kz/spa-ui/ticket?chb=SWK1&sh=12&extnum=rc_1',
    Cashbox: { UniqueNumber: 'SWK1', RegistrationNumber: '032600010282', Ofd: { Name: 'WOFD', Host: 'x' } },
  };

  it('the check Data is the port receipt: sign, Almaty time, shift, links, the register number', () => {
    expect(issuedOf(data)).toEqual({
      fiscalSign: '367645207',
      registrationNumber: '032600010282',
      shiftNumber: 12,
      issuedAt: new Date('2025-09-14T11:55:37Z'),
      offline: false,
      checkUrl: data.TicketUrl,
      ticketUrl: data.TicketPrintUrl,
      ref: null,
    });
    expect(issuedOf({ ...data, OfflineMode: true })?.offline).toBe(true);
  });

  it('Data without a fiscal sign or a time is no receipt', () => {
    expect(issuedOf({ ...data, CheckNumber: undefined })).toBeNull();
    expect(issuedOf({ ...data, DateTime: 'garbage' })).toBeNull();
    expect(issuedOf(undefined)).toBeNull();
  });

  it('times: dotted, dotted with +05:00, ISO with offset, ISO local as UTC+5', () => {
    const at = new Date('2025-09-14T11:55:37Z');
    expect(parseServiceTime('14.09.2025 16:55:37')).toEqual(at);
    expect(parseServiceTime('14.09.2025 16:55:37 +05:00')).toEqual(at);
    expect(parseServiceTime('2025-09-14T16:55:37+05:00')).toEqual(at);
    expect(parseServiceTime('2025-09-14T16:55:37')).toEqual(at);
    expect(parseServiceTime('')).toBeNull();
    expect(formatDotted(at)).toBe('14.09.2025 16:55:37');
  });

  it('the OFD check link is built as the operators read it; the print page as Webkassa writes it', () => {
    const url = checkUrlFor('cabinet.wofd.kz/consumer', {
      fiscalSign: '367645207',
      registrationNumber: '032600010282',
      total: 500,
      issuedAt: new Date('2025-09-14T11:55:37Z'),
    });
    expect(url).toBe('http://cabinet.wofd.kz/consumer?i=367645207&f=032600010282&s=500.00&t=20250914T165537');
    expect(
      checkUrlFor('https://ofd1.kz/t/', { fiscalSign: '1', registrationNumber: '2', total: 5, issuedAt: new Date(0) }),
    ).toBe('https://ofd1.kz/t/?i=1&f=2&s=5.00&t=19700101T050000');
    expect(ticketPrintUrl('https://devkkm.webkassa.kz', 'SWK1', 12, 'rc_1')).toBe(
      'https://devkkm.webkassa.kz/spa-ui/ticket?chb=SWK1&sh=12&extnum=rc_1',
    );
  });
});

describe('webkassa OFDs', () => {
  it('a full Ofd block as it is; a code alone named from the known operators', () => {
    expect(ofdOf({ Name: 'WOFD', Host: 'cabinet.wofd.kz/consumer', Code: 4 })).toEqual({
      name: 'WOFD',
      code: '4',
      host: 'cabinet.wofd.kz/consumer',
    });
    expect(ofdOf({ Ofd: 1 })).toEqual({ name: 'АО "Казахтелеком"', code: '1', host: 'consumer.oofd.kz' });
    expect(ofdOf({ Ofd: 9 })).toEqual({ name: '9', code: '9', host: null });
    expect(ofdOf({})).toBeNull();
  });
});

describe('webkassa registers and shifts', () => {
  it('CurrentStatus 1 is active (offline when IsOffline), every other status blocked', () => {
    expect(statusOf({ CurrentStatus: 1, IsOffline: false })).toBe('active');
    expect(statusOf({ CurrentStatus: 1, IsOffline: true })).toBe('offline');
    for (const s of [0, 2, 4, 5]) expect(statusOf({ CurrentStatus: s })).toBe('blocked');
  });

  it('an open shift has a number and an open date; a closed one is null', () => {
    expect(openShiftOf({ ShiftNumber: 7, OpenDate: '27.11.2026 09:00:00' })).toEqual({
      number: 7,
      openedAt: new Date('2026-11-27T04:00:00Z'),
    });
    expect(
      openShiftOf({ ShiftNumber: 7, OpenDate: '27.11.2026 09:00:00', CloseDate: '27.11.2026 23:50:00' }),
    ).toBeNull();
    expect(openShiftOf({})).toBeNull();
  });

  it('the Z-report: counts and totals of sales and returns from their payments', () => {
    const z = zReportOf(
      {
        ShiftNumber: 7,
        StartOn: '27.11.2026 09:00:00',
        CloseOn: '27.11.2026 23:50:00',
        Sell: {
          Count: 3,
          PaymentsByTypesApiModel: [
            { Sum: 1500, Type: 4 },
            { Sum: 250.5, Type: 1 },
          ],
        },
        ReturnSell: { Count: 1, Taken: 500, Change: 0 },
      },
      new Date(),
    );
    expect(z).toEqual({
      shiftNumber: 7,
      openedAt: new Date('2026-11-27T04:00:00Z'),
      closedAt: new Date('2026-11-27T18:50:00Z'),
      saleCount: 3,
      saleTotal: 1751,
      returnCount: 1,
      returnTotal: 500,
      offlineCount: null,
    });
  });
});
