// The rekassa driver's request and answer mapping (research section 2): money as {bills, coins} from
// integers, quantities and VAT percents ×1000, VAT inside at 16% and 12%, dateTime parts at UTC+5, the
// return's parentTicket, the stable X-Request-ID, and reKassa's tickets, registers and Z-reports read back.
import { describe, expect, it } from 'vitest';
import {
  dateTimeOf,
  instantOf,
  issuedOf,
  item,
  moneyOfTiyn,
  ofdOf,
  printUrl,
  requestIdOf,
  ticketBody,
  tiynOf,
} from '../../src/fiscal/rekassa/receipt.ts';
import { registerOf, shiftClosed, shiftOf, statusOf, ticketsOf, zReportOf } from '../../src/fiscal/rekassa/driver.ts';
import type { FiscalLine, FiscalReceiptRequest } from '../../src/fiscal/types.ts';

const line = (over: Partial<FiscalLine> = {}): FiscalLine => ({
  name: 'Стрижка',
  price: 500,
  quantity: 1,
  total: 500,
  unitCode: 796,
  sectionCode: null,
  ntin: null,
  gtin: null,
  vatRateBps: 1600,
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
  at: new Date('2026-11-27T19:30:05Z'),
  ...over,
});

const commodity = (l: FiscalLine) => (item(l) as { commodity: Record<string, unknown> }).commodity;

describe('rekassa items', () => {
  it('VAT inside at 16%: 500 carries 68.97 as {68, 97}, percent 16000', () => {
    expect(commodity(line()).taxes).toEqual([
      { taxType: 100, taxationType: 100, percent: 16000, sum: { bills: 68, coins: 97 }, isInTotalSum: true },
    ]);
  });

  it('VAT inside at 12%: 500 carries 53.57, percent 12000', () => {
    const [tax] = commodity(line({ vatRateBps: 1200 })).taxes as { percent: number; sum: unknown }[];
    expect(tax.percent).toBe(12000);
    expect(tax.sum).toEqual({ bills: 53, coins: 57 });
  });

  it('quantities in thousandths, price and sum in whole tenge, codes as strings, no VAT: no taxes', () => {
    const c = commodity(
      line({ price: 1000, quantity: 3, total: 3000, vatRateBps: null, unitCode: 5114, ntin: '01', gtin: '46' }),
    );
    expect(c).toMatchObject({
      quantity: 3000,
      price: { bills: 1000, coins: 0 },
      sum: { bills: 3000, coins: 0 },
      measureUnitCode: '5114',
      sectionCode: '1',
      ntin: '01',
      barcode: '46',
      taxes: [],
    });
    expect(commodity(line({ sectionCode: '3' })).sectionCode).toBe('3');
  });

  it('tiyn to money and back are exact', () => {
    for (const t of [0, 1, 99, 100, 5357, 123456789]) expect(tiynOf(moneyOfTiyn(t))).toBe(t);
    expect(tiynOf({ bills: '100', coins: 5 })).toBe(10005);
    expect(tiynOf(undefined)).toBe(0);
  });
});

describe('rekassa ticket body', () => {
  it('a sale: operation, dateTime at UTC+5, trading domain, one payment, amounts, the external id', () => {
    const b = ticketBody(sale({ customerPhone: '+77001234567' }));
    expect(b).toMatchObject({
      operation: 'OPERATION_SELL',
      // 19:30:05 UTC is 00:30:05 the next day in Almaty
      dateTime: { date: { year: 2026, month: 11, day: 28 }, time: { hour: 0, minute: 30, second: 5 } },
      domain: { type: 'DOMAIN_TRADING' },
      payments: [{ type: 'PAYMENT_MOBILE', sum: { bills: 500, coins: 0 } }],
      amounts: { total: { bills: 500, coins: 0 }, taken: { bills: 500, coins: 0 }, change: { bills: 0, coins: 0 } },
      externalId: 'rc_01JDXYZ',
      extensionOptions: { customer_phone: '+77001234567' },
    });
    expect(b).not.toHaveProperty('parentTicket');
  });

  it('services alone are DOMAIN_SERVICES; a card is PAYMENT_CARD', () => {
    const b = ticketBody(sale({ lines: [line({ positionType: 'service' }), line({ positionType: 'work' })] }));
    expect(b.domain).toEqual({ type: 'DOMAIN_SERVICES' });
    expect(ticketBody(sale({ paymentType: 'card' })).payments).toEqual([
      { type: 'PAYMENT_CARD', sum: { bills: 500, coins: 0 } },
    ]);
  });

  it('a return carries its parent ticket (their spelling), and takes nothing from the buyer', () => {
    const b = ticketBody(
      sale({
        kind: 'return',
        basis: {
          fiscalSign: '881234',
          registrationNumber: '010101010101',
          issuedAt: new Date('2026-11-27T04:00:00Z'),
          total: 500,
          offline: true,
          ref: '77',
        },
      }),
    );
    expect(b.operation).toBe('OPERATION_SELL_RETURN');
    expect(b.parentTicket).toEqual({
      parentTicketNumber: '881234',
      parentTicketDataTime: { date: { year: 2026, month: 11, day: 27 }, time: { hour: 9, minute: 0, second: 0 } },
      kgdKkmId: '010101010101',
      parentTicketTotal: { bills: 500, coins: 0 },
      parentTicketIsOffline: true,
    });
    expect((b.amounts as { taken: unknown }).taken).toEqual({ bills: 0, coins: 0 });
    expect(() => ticketBody(sale({ kind: 'return' }))).toThrow(/no basis/);
  });

  it('dateTime parts round-trip to the instant (to the second)', () => {
    const at = new Date('2026-03-01T23:59:59Z');
    expect(instantOf(dateTimeOf(at))).toEqual(at);
    expect(instantOf({})).toBeNull();
  });

  it('X-Request-ID: a UUID, the same for the same receipt, another for another', () => {
    const a = requestIdOf('rc_01JDXYZ');
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(requestIdOf('rc_01JDXYZ')).toBe(a);
    expect(requestIdOf('rc_01JDXZZ')).not.toBe(a);
  });
});

describe('rekassa answers', () => {
  const ctx = { baseUrl: 'https://app.rekassa.kz/partner', crsId: '42', registrationNumber: '0101', sentAt: null };
  const ticket = {
    id: 9001,
    ticketNumber: '881234',
    qrCode: 'https://ofd.rekassa.kz/?i=881234',
    offline: false,
    shiftNumber: 5,
    externalId: 'rc_1',
    messageTime: '2026-11-27T09:00:03+05:00',
    data: {
      ticket: { dateTime: { date: { year: 2026, month: 11, day: 27 }, time: { hour: 9, minute: 0, second: 0 } } },
    },
  };

  it('a ticket is the port receipt: sign, the ticket time, OFD link, print page, id as ref', () => {
    expect(issuedOf(ticket, ctx)).toEqual({
      fiscalSign: '881234',
      registrationNumber: '0101',
      shiftNumber: 5,
      issuedAt: new Date('2026-11-27T04:00:00Z'),
      offline: false,
      checkUrl: 'https://ofd.rekassa.kz/?i=881234',
      ticketUrl: 'https://app.rekassa.kz/print/42/9001',
      ref: '9001',
    });
  });

  it('offline: the offline number is the sign; without a ticket time, the message time', () => {
    const off = issuedOf({ ...ticket, ticketNumber: null, offlineTicketNumber: 31, offline: true, data: {} }, ctx);
    expect(off).toMatchObject({ fiscalSign: '31', offline: true, issuedAt: new Date('2026-11-27T04:00:03Z') });
    expect(issuedOf({ ...ticket, ticketNumber: null }, ctx)).toBeNull();
    expect(printUrl('https://app-test.rekassa.kz/partner', '1', '2')).toBe('https://app-test.rekassa.kz/print/1/2');
  });

  it('the OFD: a code on registers, an object on tickets', () => {
    expect(ofdOf('REK')).toEqual({ name: 'REK', code: 'REK', host: null });
    expect(ofdOf({ code: 'REK', nameRu: 'COMRUN', url: 'https://ofd.rekassa.kz/x' })).toEqual({
      name: 'COMRUN',
      code: 'REK',
      host: 'ofd.rekassa.kz',
    });
    expect(ofdOf(null)).toBeNull();
  });

  it('registers: blocked, offline, active; the open shift', () => {
    expect(statusOf({ status: 'REGISTERED' })).toBe('active');
    expect(statusOf({ status: 'BLOCKED' })).toBe('blocked');
    expect(statusOf({ status: 'REGISTERED', blockStartTime: '2026-11-27T09:00:00+05:00' })).toBe('blocked');
    expect(statusOf({ status: 'DEREGISTERED' })).toBe('blocked');
    expect(statusOf({ status: 'NEW' })).toBe('blocked');
    expect(statusOf({ status: 'ACTIVE', fdoMode: 'OFFLINE' })).toBe('offline');
    expect(statusOf({ status: 'ACTIVE', fdoMode: 'ONLINE' })).toBe('active');
    expect(statusOf({ status: 'REGISTERED', offlineStartTime: '2026-11-27T09:00:00+05:00' })).toBe('offline');
    expect(shiftOf({ shiftOpen: true, shiftNumber: 5, shiftOpenTime: '2026-11-27T09:00:00+05:00' })).toEqual({
      number: 5,
      openedAt: new Date('2026-11-27T04:00:00Z'),
    });
    expect(shiftOf({ shiftOpen: false, shiftNumber: 5 })).toBeNull();
    expect(registerOf({ cashRegister: { id: 1 } })).toEqual({ id: 1 });
    expect(registerOf({ id: 2 })).toEqual({ id: 2 });
  });

  it('ticket lists as Spring pages, content pages or arrays', () => {
    expect(ticketsOf({ _embedded: { tickets: [1, 2] } })).toEqual([1, 2]);
    expect(ticketsOf({ content: [3] })).toEqual([3]);
    expect(ticketsOf([4])).toEqual([4]);
    expect(ticketsOf({})).toEqual([]);
  });

  it('the Z-report from ticketOperations; a shift is closed by its close time or its flag', () => {
    const z = zReportOf(
      {
        shiftNumber: 5,
        openTime: '2026-11-27T09:00:00+05:00',
        closeTime: '2026-11-27T23:50:00+05:00',
        ticketOperations: [
          { operation: 'OPERATION_SELL', ticketsCount: 3, ticketsSum: { bills: 1500, coins: 0 }, offlineCount: 1 },
          {
            operation: 'OPERATION_SELL_RETURN',
            ticketsCount: 1,
            ticketsSum: { bills: '500', coins: 0 },
            offlineCount: 0,
          },
        ],
      },
      5,
      new Date(),
    );
    expect(z).toEqual({
      shiftNumber: 5,
      openedAt: new Date('2026-11-27T04:00:00Z'),
      closedAt: new Date('2026-11-27T18:50:00Z'),
      saleCount: 3,
      saleTotal: 1500,
      returnCount: 1,
      returnTotal: 500,
      offlineCount: 1,
    });
    const shift = zReportOf(
      {
        shiftNumber: 6,
        openTime: '2026-11-28T09:00:00+05:00',
        closeTime: '2026-11-28T21:00:00+05:00',
        offlineTicketsCount: 2,
        data: {
          sell: { count: 2, sum: { bills: 1000, coins: 50 } },
          sellReturn: { count: 0, sum: { bills: 0, coins: 0 } },
        },
      },
      6,
      new Date(),
    );
    expect(shift).toMatchObject({ shiftNumber: 6, saleCount: 2, saleTotal: 1001, returnCount: 0, offlineCount: 2 });
    expect(shift.closedAt).toEqual(new Date('2026-11-28T16:00:00Z'));
    expect(shiftClosed({ closeTime: '2026-11-27T23:50:00+05:00' })).toBe(true);
    expect(shiftClosed({ open: true, closeTime: null })).toBe(false);
    expect(shiftClosed({ data: { closeShiftTime: 'x' } })).toBe(true);
    expect(shiftClosed({ shiftOpen: false })).toBe(true);
    expect(shiftClosed({ shiftOpen: true, shiftNumber: 5 })).toBe(false);
  });
});
