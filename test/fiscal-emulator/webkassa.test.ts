// Webkassa v4 as research section 1 and 10 describe it: auth and token expiry, the receipt's Data and
// OFD link, shift numbering, the 24-hour rule, X/Z, duplicates, lookups, returns with a basis, the code-9
// validations, cash, and the register's status codes. Over HTTPS to an emulator started for the file.
import { describe, expect, it } from 'vitest';
import { sale, saleReturn, useFiscalEmulator } from './harness.ts';

const client = useFiscalEmulator('webkassa');
const code = (r: { json: any }) => r.json.Errors?.[0]?.Code;

describe('auth', () => {
  it('refuses a wrong API key (3), a wrong password (1), and an expired token (2) until a new one', async () => {
    const c = client();
    const key = await c.call('POST', '/api/v4/Authorize', { Login: 'x', Password: 'y' }, { 'x-api-key': 'nope' });
    expect(code(key)).toBe(3);
    expect(code(await c.wk('Authorize', { Login: c.e.webkassa.login, Password: 'wrong' }))).toBe(1);
    expect(code(await c.wk('Cashboxes'))).toBe(3);
    await c.ok('POST', 'settings', { token_ttl_seconds: 60 });
    await c.login();
    expect((await c.wk('Cashboxes')).json.Data.List[0].UniqueNumber).toBe('SWK00033717');
    await c.ok('POST', 'clock/advance', { seconds: 61 });
    const expired = await c.wk('Cashboxes');
    expect(expired.status).toBe(200);
    expect(code(expired)).toBe(2);
    await c.login();
    expect((await c.wk('Cashboxes')).json.Data).toBeDefined();
  });
});

describe('check', () => {
  it('issues a sale: documented Data, an OFD link (sign, РНМ, total, Almaty time), shift 1', async () => {
    const c = client();
    await c.login();
    const r = await c.wk('check', sale('ext-1', 500));
    const d = r.json.Data;
    expect(r.status).toBe(200);
    expect(d.CheckNumber).toMatch(/^\d+$/);
    expect(d.DateTime).toMatch(/^\d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d$/);
    expect(d.DateTimeUTC).toBe(`${d.DateTime} +05:00`);
    expect(d).toMatchObject({ OfflineMode: false, CashboxOfflineMode: false, ShiftNumber: 1, CheckOrderNumber: 1 });
    expect(Object.keys(d.Cashbox)).toEqual(
      expect.arrayContaining(['UniqueNumber', 'RegistrationNumber', 'IdentityNumber', 'Ofd']),
    );
    const [dd, mm, yyyy, hh, mi, ss] = d.DateTime.split(/[. :]/);
    const f = d.Cashbox.RegistrationNumber;
    expect(d.TicketUrl).toBe(
      `http://cabinet.wofd.kz/consumer?i=${d.CheckNumber}&f=${f}&s=500.00&t=${yyyy}${mm}${dd}T${hh}${mi}${ss}`,
    );
    // Almaty time is UTC+5 whatever the machine's zone.
    const utc = new Date();
    expect(Number(hh)).toBe((utc.getUTCHours() + 5) % 24);
    const second = (await c.wk('check', sale('ext-2', 100))).json.Data;
    expect(second.CheckOrderNumber).toBe(2);
    expect(second.CheckNumber).not.toBe(d.CheckNumber);
  });

  it('answers a repeated ExternalCheckNumber with 14 and no new receipt, or 14 + Data when switched', async () => {
    const c = client();
    await c.login();
    const first = (await c.wk('check', sale('dup', 500))).json.Data;
    const again = await c.wk('check', sale('dup', 500));
    expect(code(again)).toBe(14);
    expect(again.json.Data).toBeUndefined();
    await c.ok('POST', 'settings', { duplicate_mode: 'error_with_data' });
    const withData = await c.wk('check', sale('dup', 500));
    expect(code(withData)).toBe(14);
    expect(withData.json.Data.CheckNumber).toBe(first.CheckNumber);
    expect((await c.ok('GET', 'receipts')).receipts).toHaveLength(1);
  });

  it('finds a receipt by its external number (the original) and 19 for an unknown one', async () => {
    const c = client();
    await c.login();
    const d = (await c.wk('check', sale('look', 700))).json.Data;
    const url = '/api-history/v4/Ticket/GetTicketByExternalCheckNumber';
    const h = { 'x-api-key': c.e.webkassa.apiKey };
    const found = await c.call(
      'POST',
      url,
      { Token: c.token, CashboxUniqueNumber: 'SWK00033717', ExternalCheckNumber: 'look' },
      h,
    );
    expect(found.json.Data).toMatchObject({ CheckNumber: d.CheckNumber, Total: 700, ShiftNumber: 1, IsOffline: false });
    const none = await c.call(
      'POST',
      url,
      { Token: c.token, CashboxUniqueNumber: 'SWK00033717', ExternalCheckNumber: 'x' },
      h,
    );
    expect(code(none)).toBe(19);
    const print = await c.wk('Ticket/PrintFormat', { CashboxUniqueNumber: 'SWK00033717', ExternalCheckNumber: 'look' });
    expect(print.json.Data.Lines.find((l: any) => l.Type === 2).Value).toBe(d.TicketUrl);
    const hist = await c.wk('Check/History', { CashboxUniqueNumber: 'SWK00033717', ShiftNumber: 1, Skip: 0, Take: 5 });
    expect(hist.json.Data.Items[0]).toMatchObject({ Number: d.CheckNumber, ExternalCheckNumber: 'look', Total: 700 });
  });

  it('returns against a stored sale, not above what is left of it (9), and never without a basis (255)', async () => {
    const c = client();
    await c.login();
    const d = (await c.wk('check', sale('s1', 1000))).json.Data;
    const part = await c.wk('check', saleReturn(d, 1000, 600));
    expect(part.json.Data.CheckNumber).toMatch(/^\d+$/);
    const tooMuch = await c.wk('check', saleReturn(d, 1000, 500));
    expect(code(tooMuch)).toBe(9);
    const wrongTotal = saleReturn(d, 1000, 300);
    wrongTotal.ReturnBasisDetails.Total = 999;
    expect(code(await c.wk('check', wrongTotal))).toBe(9);
    const wrongRnm = saleReturn(d, 1000, 300);
    wrongRnm.ReturnBasisDetails.RegistrationNumber = '000000000000';
    expect(code(await c.wk('check', wrongRnm))).toBe(9);
    const { ReturnBasisDetails: _, ...noBasis } = saleReturn(d, 1000, 300);
    expect(code(await c.wk('check', noBasis))).toBe(255);
    const rest = await c.wk('check', saleReturn(d, 1000, 400));
    expect(rest.json.Data).toBeDefined();
  });

  it.each([
    ['payments below the total', { Payments: [{ Sum: 400, PaymentType: 4 }] }],
    [
      'a repeated payment type',
      {
        Payments: [
          { Sum: 250, PaymentType: 1 },
          { Sum: 250, PaymentType: 1 },
        ],
      },
    ],
    ['a negative price', { Positions: [{ ...sale().Positions[0], Price: -500 }] }],
    ['three decimals', { Positions: [{ ...sale().Positions[0], Price: 500.001 }] }],
    ['a name over 128', { Positions: [{ ...sale().Positions[0], PositionName: 'x'.repeat(129) }] }],
    ['VAT off by more than 0.01', { Positions: [{ ...sale().Positions[0], Tax: 53.6 }] }],
    ['two marks for one item', { Positions: [{ ...sale().Positions[0], MarkList: ['a', 'b'] }] }],
    ['card above the total', { Payments: [{ Sum: 600, PaymentType: 1 }] }],
  ])('refuses %s with 9', async (_name, patch) => {
    const c = client();
    await c.login();
    const r = await c.wk('check', { ...sale(), ...patch });
    expect(code(r)).toBe(9);
    expect(r.json.Errors[0].Text.length).toBeGreaterThan(5);
  });

  it('accepts VAT within 0.01 and cash change, and needs PositionType on 2.0.4 and NTIN in strict mode', async () => {
    const c = client();
    await c.login();
    expect((await c.wk('check', sale(undefined, 500, { Tax: 53.58 }))).json.Data).toBeDefined();
    const change = await c.wk('check', { ...sale(), Payments: [{ Sum: 1000, PaymentType: 0 }] });
    expect(change.json.Data).toBeDefined();
    await c.ok('PATCH', 'registers/SWK00033717', { protocol: '2.0.4' });
    expect(code(await c.wk('check', sale()))).toBe(9);
    expect((await c.wk('check', sale(undefined, 500, { PositionType: 2 }))).json.Data).toBeDefined();
    await c.ok('PATCH', 'registers/SWK00033717', { protocol: '2.0.3', strict_catalog: true });
    expect(code(await c.wk('check', sale()))).toBe(9);
    expect((await c.wk('check', sale(undefined, 500, { NTIN: '0200000000003' }))).json.Data).toBeDefined();
  });
});

describe('shifts and reports', () => {
  it('refuses everything 24 h after the shift opened (11) until a Z; after Z, X is 13 and a second Z 12', async () => {
    const c = client();
    await c.login();
    const reg = { CashboxUniqueNumber: 'SWK00033717' };
    expect(code(await c.wk('XReport', reg))).toBe(13);
    expect(code(await c.wk('ZReport', reg))).toBe(13);
    await c.wk('check', sale());
    expect((await c.wk('XReport', reg)).json.Data.ShiftNumber).toBe(1);
    await c.ok('POST', 'registers/SWK00033717/shift-age', { hours: 24.1 });
    expect(code(await c.wk('check', sale()))).toBe(11);
    expect(code(await c.wk('MoneyOperation', { ...reg, OperationType: 0, Sum: 10, ExternalCheckNumber: 'm' }))).toBe(
      11,
    );
    const z = await c.wk('ZReport', reg);
    expect(z.json.Data).toMatchObject({ ShiftNumber: 1, DocumentCount: 1, CashboxSN: 'SWK00033717' });
    expect(z.json.Data.Sell.Count).toBe(1);
    expect(code(await c.wk('XReport', reg))).toBe(13);
    expect(code(await c.wk('ZReport', reg))).toBe(12);
    expect((await c.wk('check', sale())).json.Data.ShiftNumber).toBe(2);
    const shifts = await c.wk('Cashbox/ShiftHistory', { ...reg, Skip: 0, Take: 10 });
    expect(shifts.json.Data.Shifts.map((s: any) => [s.ShiftNumber, Boolean(s.CloseDate)])).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  it('takes cash in and out, refusing to take more than the drawer holds (8)', async () => {
    const c = client();
    await c.login();
    const reg = { CashboxUniqueNumber: 'SWK00033717' };
    const put = await c.wk('MoneyOperation', { ...reg, OperationType: 0, Sum: 2000, ExternalCheckNumber: 'in' });
    expect(put.json.Data.Sum).toBe(2000);
    expect(code(await c.wk('MoneyOperation', { ...reg, OperationType: 1, Sum: 2500, ExternalCheckNumber: 'o1' }))).toBe(
      8,
    );
    expect(
      (await c.wk('MoneyOperation', { ...reg, OperationType: 1, Sum: 500, ExternalCheckNumber: 'o2' })).json.Data.Sum,
    ).toBe(1500);
    expect(code(await c.wk('MoneyOperation', { ...reg, OperationType: 1, Sum: 500, ExternalCheckNumber: 'o2' }))).toBe(
      14,
    );
    expect((await c.wk('XReport', reg)).json.Data).toMatchObject({
      PutMoneySum: 2000,
      TakeMoneySum: 500,
      SumInCashbox: 1500,
    });
  });

  it('answers a blocked register 7, a not activated one 10, and an unknown or foreign one 6', async () => {
    const c = client();
    await c.login();
    await c.ok('POST', 'registers', { unique_number: 'SWK00000002', status: 'not-activated' });
    await c.ok('POST', 'registers', { unique_number: 'SWK00000003' });
    await c.ok('POST', 'users', { login: 'limited@x', password: 'p', registers: ['SWK00000002'] });
    await c.ok('PATCH', 'registers/SWK00033717', { status: 'blocked' });
    expect(code(await c.wk('check', sale()))).toBe(7);
    expect(code(await c.wk('check', sale(undefined, 500, {}, 'SWK00000002')))).toBe(10);
    expect(code(await c.wk('check', sale(undefined, 500, {}, 'SWK99999999')))).toBe(6);
    const r = await c.wk('Authorize', { Login: 'limited@x', Password: 'p' });
    c.token = r.json.Data.Token;
    expect(code(await c.wk('check', sale(undefined, 500, {}, 'SWK00000003')))).toBe(6);
  });
});
