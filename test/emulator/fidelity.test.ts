// The emulator follows the provider's document, not Tolem's driver (decisions 26): it reads requests as
// leniently as the provider probably does, writes dates in each style the document and production show,
// QrToken as digits, v02's fields, and each call's own codes with the sign it is set to.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import { BIN, EmulatorClient, formOf, newId, readProviderDate } from './harness.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'emu-fidelity-'));
let e: RunningEmulator;
let c: EmulatorClient;
beforeAll(async () => {
  e = await startEmulator({ port: 0, dir });
  c = new EmulatorClient(e);
}, 20_000);
afterAll(async () => {
  await c?.close();
  await e?.close();
});
beforeEach(async () => {
  expect((await c.control('reset', {})).status).toBe(200);
});

const info = (token: string, phone: string) =>
  c.call(`/r3/v01/remote/client-info?phoneNumber=${phone}&deviceToken=${token}`);

describe('lenient reading', () => {
  it('body field names in any case; TradePointId as a number or a digit string; the same device each way', async () => {
    const id = newId();
    const a = await c.r3('device/register', { DeviceId: id, TradePointId: 1 });
    const b = await c.r3('device/register', { deviceId: id, tradePointId: '1' });
    const d = await c.call('/r3/v01/device/register', {
      body: { ORGANIZATIONBIN: BIN, DEVICEID: id, TRADEPOINTID: 1 },
    });
    expect(a.json.StatusCode).toBe(0);
    expect([b.json.Data.DeviceToken, d.json.Data.DeviceToken]).toEqual([
      a.json.Data.DeviceToken,
      a.json.Data.DeviceToken,
    ]);
    expect((await c.r3('device/register', { deviceId: id, tradePointId: '2' })).json.StatusCode).toBe(-1503);

    const token = a.json.Data.DeviceToken;
    const p = (await c.r3('qr/create', { deviceToken: token, amount: 250, externalId: 'camel-1' })).json;
    expect(p).toMatchObject({ StatusCode: 0, Data: { QrPaymentId: expect.any(Number) } });
    const id2 = p.Data.QrPaymentId;
    // The test calls take qrPaymentId in any case, as a string or a number.
    expect((await c.call('/r3/v01/test/payment/scan', { body: { QrPaymentId: String(id2) } })).json.StatusCode).toBe(0);
    expect((await c.call('/r3/v01/test/payment/confirm', { body: { QRPAYMENTID: id2 } })).json.StatusCode).toBe(0);
    expect(e.state().view().payments).toContainEqual(
      expect.objectContaining({ QrPaymentId: id2, ExternalId: 'camel-1', Status: 'Processed' }),
    );
  });

  it('query names in any case', async () => {
    const token = await c.device();
    const id = await c.paid(token, 400);
    for (const q of [
      `QrPaymentId=${id}&DeviceToken=${token}`,
      `qrPaymentId=${id}&deviceToken=${token}`,
      `qrpaymentid=${id}&DEVICETOKEN=${token}`,
    ]) {
      expect((await c.call(`/r3/v01/payment/details?${q}`)).json.Data, q).toMatchObject({
        QrPaymentId: id,
        TotalAmount: 400,
      });
    }
    expect((await c.call(`/r3/v01/remote/client-info?PhoneNumber=87011234567&DeviceToken=${token}`)).json.Data).toEqual(
      { ClientName: 'Test Customer 4567' },
    );
    expect(
      (await c.call(`/r3/v01/remote/client-info?phonenumber=87011234567&devicetoken=${token}`)).json.StatusCode,
    ).toBe(0);
  });

  it('trailing slashes on paths; recorded and counted without them', async () => {
    const token = (
      await c.call('/r3/v01/device/register/', { body: { OrganizationBin: BIN, DeviceId: newId(), TradePointId: 1 } })
    ).json.Data.DeviceToken;
    const p = (await c.call('/r3/v01/qr/create/', { body: { OrganizationBin: BIN, DeviceToken: token, Amount: 10 } }))
      .json.Data;
    expect((await c.call(`/r3/v01/payment/status/${p.QrPaymentId}/`)).json.Data).toEqual({ Status: 'QrTokenCreated' });
    expect((await c.call(`/r3/v02/payment/status/${p.QrPaymentId}//`)).json.Data.Status).toBe('QrTokenCreated');
    const invoice = await c.call('/r3/v01/remote/create/', {
      body: { OrganizationBin: BIN, DeviceToken: token, Amount: 10, PhoneNumber: '87011234567' },
    });
    expect(invoice.json).toMatchObject({ StatusCode: 0, Data: { QrPaymentId: expect.any(Number) } });
    expect((await c.call('/r3/v01/health/ping/')).json.StatusCode).toBe(0);
    const { calls } = (await c.control('calls')).json;
    expect(calls).toMatchObject({
      'POST /r3/v01/device/register': 1,
      'POST /r3/v01/qr/create': 1,
      'GET /r3/v01/payment/status/:n': 1,
      'POST /r3/v01/remote/create': 1,
    });
    // A fault names the path without the slash and still meets it.
    await c.control('faults', { faults: [{ path: 'health/ping', kind: 'code', code: -999, times: 1 }] });
    expect((await c.call('/r3/v01/health/ping/')).json.StatusCode).toBe(-999);
  });

  it(
    'a trailing comma before } or ] is taken; one inside a string is ' + 'kept; a body that is not JSON is not',
    async () => {
      const token = await c.device();
      const raw = `{"OrganizationBin": "${BIN}", "DeviceToken": "${token}", "Amount": 300, "ExternalId": "a,}b",\n}`;
      const p = (await c.call('/r3/v01/qr/create', { body: raw })).json;
      expect(p.StatusCode).toBe(0);
      expect(e.state().payments.get(p.Data.QrPaymentId)).toMatchObject({ Amount: 300, ExternalId: 'a,}b' });
      expect(
        (await c.call('/r3/v01/test/payment/scan', { body: `{"qrPaymentId": "${p.Data.QrPaymentId}", }` })).json
          .StatusCode,
      ).toBe(0);
      // Parsed; no POST ping.
      expect((await c.call('/r3/v01/health/ping', { method: 'POST', body: '[1, 2,]' })).status).toBe(404);
      expect((await c.call('/r3/v01/qr/create', { body: '{"Amount": ' })).json).toEqual({
        StatusCode: -1,
        Message: 'the body is not JSON',
      });
    },
  );
});

describe('dates', () => {
  const expireOf = async (token: string) => {
    const before = Date.now();
    const p = await c.qr(token);
    return { text: p.ExpireDate as string, expected: before + 180_000 };
  };

  it("offset (production's form) by default; doc and local by a control call; each names the QR deadline", async () => {
    const token = await c.device();
    const byDefault = await expireOf(token);
    expect(formOf(byDefault.text), byDefault.text).toBe('offset');
    expect(byDefault.text).toMatch(/\.\d{3}\+05:00$/);
    expect(Math.abs(readProviderDate(byDefault.text) - byDefault.expected)).toBeLessThan(3000);
    await c.control('date-style', { style: 'doc' });
    const doc = await expireOf(token);
    expect(formOf(doc.text), doc.text).toBe('doc');
    expect(doc.text).toMatch(/\+05$/);
    expect(Math.abs(readProviderDate(doc.text) - doc.expected)).toBeLessThan(3000);

    expect((await c.control('date-style', { style: 'offset' })).json).toEqual({
      ok: true,
      style: 'offset',
      utc_offset_hours: 5,
    });
    const offset = await expireOf(token);
    expect(formOf(offset.text), offset.text).toBe('offset');
    expect(offset.text).toMatch(/\+05:00$/);
    expect(Math.abs(readProviderDate(offset.text) - offset.expected)).toBeLessThan(3000);

    await c.control('date-style', { style: 'local' });
    const local = await expireOf(token);
    expect(formOf(local.text), local.text).toBe('local');
    // No offset: the provider's local time, UTC+5.
    expect(Math.abs(readProviderDate(local.text, 5) - local.expected)).toBeLessThan(3000);

    await c.control('date-style', { style: 'doc', utc_offset_hours: 6 });
    const six = await expireOf(token);
    expect(six.text).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+06$/);
    expect(Math.abs(readProviderDate(six.text) - six.expected)).toBeLessThan(3000);

    expect((await c.control('date-style', { style: 'iso' })).status).toBe(400);
    expect((await c.control('date-style', { style: 'doc', utc_offset_hours: 20 })).status).toBe(400);
  });

  it('vary takes the five forms by turns, one per answer with a date, whatever comes between', async () => {
    // On the 3rd of next month at 08:00 there, so the one-digit form has a zero to drop.
    const now = new Date();
    const target = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 3, 3, 0, 0);
    await c.control('clock/advance', { seconds: Math.round((target - Date.now()) / 1000) });
    const token = await c.device();
    await c.control('date-style', { style: 'vary' });
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      const p = await c.qr(token);
      await c.call(`/r3/v01/payment/status/${p.QrPaymentId}`); // no date: takes no turn
      seen.push(p.ExpireDate);
      expect(Math.abs(readProviderDate(p.ExpireDate) - (e.state().now() + 180_000))).toBeLessThan(3000);
    }
    expect(seen.map(formOf)).toEqual(['doc', 'offset', 'local', 'plus-hhmm', 'one-digit', 'doc']);
    expect(seen[4]).toMatch(/^\d{4}-\d{1,2}-3T8:0\d:\d\d\.\d{3}\+05:00$/);
  });

  it('the date_vary fault varies the dates of its path only; every date of an answer has one form', async () => {
    const token = await c.device();
    const id = await c.paid(token, 500);
    await c.control('faults', { faults: [{ path: 'qr/create', kind: 'date_vary' }] });
    const forms = [];
    for (let i = 0; i < 5; i++) forms.push(formOf((await c.qr(token)).ExpireDate));
    expect(new Set(forms).size).toBeGreaterThanOrEqual(4); // one-digit may have nothing to drop today
    const details = (await c.call(`/r3/v01/payment/details?QrPaymentId=${id}&DeviceToken=${token}`)).json.Data;
    expect(formOf(details.TransactionDate)).toBe('offset');
  });

  it(
    'TransactionDate of payment/details, and the dates of return/create ' + 'and return/operations, in the set style',
    async () => {
      await c.control('date-style', { style: 'local' });
      const token = await c.device('r2');
      const paidAt = Date.now();
      const id = await c.paid(token, 700, 'customer-d', 'r2');
      const details = (await c.call(`/r2/v01/payment/details?QrPaymentId=${id}&DeviceToken=${token}`)).json.Data;
      expect(formOf(details.TransactionDate)).toBe('local');
      expect(Math.abs(readProviderDate(details.TransactionDate) - paidAt)).toBeLessThan(3000);
      const ret = (await c.r2('return/create', { DeviceToken: token })).json.Data;
      expect(formOf(ret.ExpireDate)).toBe('local');
      await c.call('/r2/v01/test/return/scan', {
        body: { qrReturnId: String(ret.QrReturnId), qrPaymentId: String(id) },
      });
      const ops = (await c.r2('return/operations', { DeviceToken: token, QrReturnId: ret.QrReturnId, MaxResult: 10 }))
        .json.Data;
      expect(ops).toEqual([{ QrPaymentId: id, Amount: 700, TransactionDate: details.TransactionDate }]);
    },
  );

  it('startEmulator({dateStyle, utcOffsetHours}) sets the style, and a reset goes back to it', async () => {
    const other = await startEmulator({ port: 0, dir, dateStyle: 'offset', utcOffsetHours: 6 });
    const oc = new EmulatorClient(other);
    try {
      const token = await oc.device();
      expect((await oc.qr(token)).ExpireDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+06:00$/);
      await oc.control('date-style', { style: 'doc', utc_offset_hours: 5 });
      await oc.control('reset', {});
      expect((await oc.control('state')).json.settings).toMatchObject({ date_style: 'offset', utc_offset_hours: 6 });
    } finally {
      await oc.close();
      await other.close();
    }
    await expect(startEmulator({ port: 0, dir, dateStyle: 'iso' as never })).rejects.toThrow(/dateStyle/);
    await expect(startEmulator({ port: 0, dir, utcOffsetHours: 24 })).rejects.toThrow(/utcOffsetHours/);
  });

  it('npm run emulator -- --date-style local --utc-offset 6; a bad style exits 2', async () => {
    const cwd = path.resolve(import.meta.dirname, '../..');
    const run = (...args: string[]) =>
      spawn(process.execPath, ['--import', 'tsx', 'emulator/main.ts', '--port', '0', '--dir', dir, ...args], { cwd });
    const child = run('--date-style', 'local', '--utc-offset', '6');
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (b: Buffer) => {
          out += b.toString();
          if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      const { url } = JSON.parse(line);
      const res = await request(`${url}/__emulator/state`, { dispatcher: c.noCert });
      expect(((await res.body.json()) as { settings: object }).settings).toMatchObject({
        date_style: 'local',
        utc_offset_hours: 6,
      });
    } finally {
      child.kill('SIGTERM');
    }
    const bad = run('--date-style', 'iso');
    const code = await new Promise<number | null>((resolve) => bad.on('exit', resolve));
    expect(code).toBe(2);
  }, 10_000);
});

describe('QR tokens', () => {
  it('QrToken is a 40-digit string, unique per QR; a pay link stays an https link of its own payment', async () => {
    const token = await c.device();
    const tokens = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const p = await c.qr(token);
      expect(p.QrToken).toMatch(/^[1-9]\d{39}$/);
      expect(p.QrToken.endsWith(String(p.QrPaymentId).padStart(12, '0'))).toBe(true);
      tokens.add(p.QrToken);
      expect((await c.control('state')).json.payments).toContainEqual(
        expect.objectContaining({ QrPaymentId: p.QrPaymentId, QrToken: p.QrToken }),
      );
    }
    expect(tokens.size).toBe(5);
    const link = (await c.r3('qr/create-link', { DeviceToken: token, Amount: 100 })).json.Data;
    expect(link.PaymentLink).toBe(`https://pay.provider.example/pay/${link.PaymentId}`);
    expect(link.QrToken).toBeUndefined();
  });
});

describe('v02 status', () => {
  it('carries TransactionId, Amount, ProductType, loan, offer and store fields; v01 stays {Status}', async () => {
    const token = await c.device('r3', 2);
    const gold = await c.paid(token, 1500);
    expect((await c.call(`/r3/v02/payment/status/${gold}`)).json.Data).toEqual({
      Status: 'Processed',
      TransactionId: expect.stringMatching(/^\d+$/),
      Amount: 1500,
      ProductType: 'Gold',
      LoanOfferName: null,
      LoanTerm: null,
      IsOffer: false,
      StoreName: 'Test point 2',
      Address: 'Test street 2',
      City: 'Almaty',
    });
    const p = await c.qr(token, 90_000);
    await c.customer('scan', p.QrPaymentId);
    await c.customer('confirm', p.QrPaymentId, { productType: 'Loan' });
    expect((await c.call(`/r3/v02/payment/status/${p.QrPaymentId}`)).json.Data).toMatchObject({
      ProductType: 'Loan',
      LoanOfferName: expect.any(String),
      LoanTerm: 12,
    });
    expect((await c.call(`/r3/v01/payment/status/${p.QrPaymentId}`)).json.Data).toEqual({ Status: 'Processed' });
  });
});

describe("each call's own codes", () => {
  it('client-info: the phone ending chooses -1401, -1404, 990000029, 990000031, 990000032; -1601 never', async () => {
    const token = await c.device();
    const codes: Record<string, number> = {
      '0000': -1401,
      '0001': -1404,
      '0002': 990000029,
      '0003': 990000031,
      '0004': 990000032,
    };
    for (const [end, code] of Object.entries(codes))
      expect((await info(token, `8701000${end}`)).json.StatusCode, end).toBe(code);
    // In any writing of the number.
    expect((await info(token, encodeURIComponent('+7 (701) 000-00-01'))).json.StatusCode).toBe(-1404);
    expect((await info(token, '87010000010')).json).toMatchObject({
      StatusCode: 0,
      Data: { ClientName: 'Test Customer 0010' },
    });
  });

  it(
    'remote/create: -1401, -1404, 990000032 by the phone, 99000010 for ' + '0010, 990000028 for an amount <= 0',
    async () => {
      const token = await c.device();
      const create = (phone: string, amount = 100) =>
        c.r3('remote/create', { DeviceToken: token, Amount: amount, PhoneNumber: phone });
      const codes: Record<string, number> = { '0000': -1401, '0001': -1404, '0004': 990000032, '0010': 99000010 };
      for (const [end, code] of Object.entries(codes))
        expect((await create(`8701000${end}`)).json.StatusCode, end).toBe(code);
      // The document lists neither 990000029 nor 990000031 for remote/create.
      for (const end of ['0002', '0003']) expect((await create(`8701000${end}`)).json.StatusCode, end).toBe(0);
      for (const amount of [0, -1]) expect((await create('87011234567', amount)).json.StatusCode).toBe(990000028);
    },
  );

  it('remote/cancel: paid -1404, cancelled already -1404, expired -1404, unknown or a QR -99000001', async () => {
    const token = await c.device();
    const invoice = async () =>
      (await c.r3('remote/create', { DeviceToken: token, Amount: 100, PhoneNumber: '87011234567' })).json.Data
        .QrPaymentId as number;
    const cancel = (id: number) => c.r3('remote/cancel', { DeviceToken: token, QrPaymentId: id });
    const paid = await invoice();
    await c.customer('scan', paid);
    await c.customer('confirm', paid);
    expect((await cancel(paid)).json.StatusCode).toBe(-1404);
    const twice = await invoice();
    expect((await cancel(twice)).json.StatusCode).toBe(0);
    expect((await cancel(twice)).json.StatusCode).toBe(-1404);
    const late = await invoice();
    await c.control('clock/advance', { seconds: 24 * 3600 + 1 });
    expect((await cancel(late)).json.StatusCode).toBe(-1404);
    expect((await cancel(999_999_999)).json.StatusCode).toBe(-99000001);
    expect((await cancel((await c.qr(token)).QrPaymentId)).json.StatusCode).toBe(-99000001);
  });

  it(
    'code-sign: doc as written, negative for every 99... code, positive ' +
      'for the 99000xxx family; others and injected codes untouched',
    async () => {
      const token = await c.device();
      const id = await c.paid(token, 100);
      const codes = async () => [
        (await c.r3('qr/create', { DeviceToken: token, Amount: 0 })).json.StatusCode,
        (await c.r3('payment/return', { DeviceToken: token, QrPaymentId: id, Amount: 101 })).json.StatusCode,
        (await c.r3('remote/create', { DeviceToken: token, Amount: 1, PhoneNumber: '87010000010' })).json.StatusCode,
        (await c.r3('remote/cancel', { DeviceToken: token, QrPaymentId: 999_999_999 })).json.StatusCode,
        (await c.r3('qr/create', { DeviceToken: crypto.randomUUID(), Amount: 1 })).json.StatusCode,
      ];
      expect(await codes()).toEqual([990000028, -99000005, 99000010, -99000001, -1501]);
      expect((await c.control('code-sign', { sign: 'negative' })).json).toEqual({ ok: true, sign: 'negative' });
      expect(await codes()).toEqual([-990000028, -99000005, -99000010, -99000001, -1501]);
      await c.control('code-sign', { sign: 'positive' });
      expect(await codes()).toEqual([990000028, 99000005, 99000010, 99000001, -1501]);
      // -999 is no 99... code; an injected code is sent as the test wrote it.
      await c.control('faults', { faults: [{ path: 'health/ping', kind: 'code', code: -99000006, times: 1 }] });
      expect((await c.call('/r3/v01/health/ping')).json.StatusCode).toBe(-99000006);
      expect((await c.control('code-sign', { sign: 'both' })).status).toBe(400);
    },
  );
});

describe('trade points', () => {
  it('disabled: 990000018 on QR, remote and return calls; device/register still works', async () => {
    const token = await c.device('r3', 1);
    const id = await c.paid(token, 300);
    const tp2 = await c.device('r3', 2);
    expect((await c.control('trade-point', { bin: BIN, trade_point_id: 1, state: 'disabled' })).status).toBe(200);
    expect((await c.r3('qr/create', { DeviceToken: token, Amount: 1 })).json.StatusCode).toBe(990000018);
    expect((await c.r3('qr/create-link', { DeviceToken: token, Amount: 1 })).json.StatusCode).toBe(990000018);
    expect((await info(token, '87011234567')).json.StatusCode).toBe(990000018);
    expect(
      (await c.r3('remote/create', { DeviceToken: token, Amount: 1, PhoneNumber: '87011234567' })).json.StatusCode,
    ).toBe(990000018);
    expect((await c.r3('remote/cancel', { DeviceToken: token, QrPaymentId: id })).json.StatusCode).toBe(990000018);
    expect((await c.r3('payment/return', { DeviceToken: token, QrPaymentId: id, Amount: 1 })).json.StatusCode).toBe(
      990000018,
    );
    expect((await c.r3('device/register', { DeviceId: newId(), TradePointId: 1 })).json.StatusCode).toBe(0);
    // The other trade point and the other organizations are untouched.
    expect((await c.r3('qr/create', { DeviceToken: tp2, Amount: 1 })).json.StatusCode).toBe(0);
    const r2 = await c.device('r2', 1);
    expect((await c.r2('qr/create', { DeviceToken: r2, Amount: 1 })).json.StatusCode).toBe(0);
    await c.control('trade-point', { bin: BIN, trade_point_id: 1, state: 'ok' });
    expect((await c.r3('qr/create', { DeviceToken: token, Amount: 1 })).json.StatusCode).toBe(0);
  });

  it(
    'no_qr: 990000026 on QR creation and device/register; no_methods: ' +
      "990000033 on QR creation; bin defaults to r1/r2's",
    async () => {
      const token = await c.device('r2', 2);
      await c.control('trade-point', { trade_point_id: 2, state: 'no_qr' });
      expect((await c.r2('qr/create', { DeviceToken: token, Amount: 1 })).json.StatusCode).toBe(990000026);
      expect((await c.r2('qr/create-link', { DeviceToken: token, Amount: 1 })).json.StatusCode).toBe(990000026);
      expect((await c.r2('device/register', { DeviceId: newId(), TradePointId: 2 })).json.StatusCode).toBe(990000026);
      expect((await c.r2('return/create', { DeviceToken: token })).json.StatusCode).toBe(0);
      await c.control('trade-point', { trade_point_id: 2, state: 'no_methods' });
      expect((await c.r2('qr/create', { DeviceToken: token, Amount: 1 })).json.StatusCode).toBe(990000033);
      expect((await c.r2('device/register', { DeviceId: newId(), TradePointId: 2 })).json.StatusCode).toBe(0);
      expect((await c.control('state')).json.settings.trade_points).toEqual({ '000000000000/2': 'no_methods' });
      for (const bad of [
        { trade_point_id: 3, state: 'ok' },
        { trade_point_id: 1, state: 'closed' },
        { bin: '990140001234', trade_point_id: 1, state: 'ok' },
      ]) {
        expect((await c.control('trade-point', bad)).status, JSON.stringify(bad)).toBe(400);
      }
    },
  );

  it(
    'device/register: another trade point -1503, an unknown one -99000002, ' + 'the same arguments the same token',
    async () => {
      const id = newId();
      const a = await c.r3('device/register', { DeviceId: id, TradePointId: 1 });
      expect((await c.r3('device/register', { DeviceId: id, TradePointId: 1 })).json.Data).toEqual(a.json.Data);
      expect((await c.r3('device/register', { DeviceId: id, TradePointId: 2 })).json.StatusCode).toBe(-1503);
      expect((await c.r3('device/register', { DeviceId: newId(), TradePointId: 9 })).json.StatusCode).toBe(-99000002);
      expect((await c.r3('device/register', { DeviceId: newId(), TradePointId: 'one' })).json.StatusCode).toBe(
        -99000002,
      );
    },
  );
});

describe('reset', () => {
  it('restores the date style, code sign, trade points and allow-list to how the emulator started', async () => {
    await c.control('date-style', { style: 'vary', utc_offset_hours: 6 });
    await c.control('code-sign', { sign: 'negative' });
    await c.control('trade-point', { trade_point_id: 1, state: 'disabled' });
    await c.control('allowlist', { r3: ['203.0.113.7'], refuse: 'http403' });
    expect((await c.call('/r3/v01/health/ping')).status).toBe(403);
    await c.control('reset', {});
    expect((await c.control('state')).json.settings).toEqual({
      date_style: 'offset',
      utc_offset_hours: 5,
      code_sign: 'doc',
      allowlist: { r3: null, refuse: 'http403' },
      trade_points: {},
    });
    expect((await c.call('/r3/v01/health/ping')).json.StatusCode).toBe(0);
    const token = await c.device('r2');
    expect(formOf((await c.qr(token, 1, 'r2')).ExpireDate)).toBe('offset');
  });
});
