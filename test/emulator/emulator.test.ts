// The emulator's contract (decisions 24), so anyone can drive it: files made once and reused, the
// credentials of each scheme, the documented answers and rules, the timers on the virtual clock, the
// control API and each kind of fault. One emulator for the file, on a free port; each test < 5 s.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import { makeClientPfx } from '../../emulator/certificates.ts';
import type { Fault } from '../../emulator/faults.ts';

/** A BIN with a valid check digit, and one with a wrong one. */
const BIN = '990140001233';
const BAD_BIN = '990140001234';
const FILES = ['ca.pem', 'ca-key.pem', 'server.pem', 'server-key.pem', 'client.p12', 'client.password', 'api-key.txt'];

const dir = mkdtempSync(path.join(tmpdir(), 'emu-contract-'));
let e: RunningEmulator;
let withCert: Agent;
let noCert: Agent;
beforeAll(async () => {
  e = await startEmulator({ port: 0, dir });
  withCert = new Agent({
    connect: { ca: e.caPem, pfx: readFileSync(e.clientPfx), passphrase: e.clientPassword, minVersion: 'TLSv1.2' },
  });
  noCert = new Agent({ connect: { ca: e.caPem, minVersion: 'TLSv1.2' } });
}, 20_000);
afterAll(async () => {
  await withCert?.close();
  await noCert?.close();
  await e?.close();
});

interface CallOptions {
  method?: 'GET' | 'POST';
  body?: object;
  agent?: Agent;
  headers?: Record<string, string>;
  timeoutMs?: number;
}
async function call(pathName: string, o: CallOptions = {}) {
  const res = await request(`${e.url}${pathName}`, {
    method: o.method ?? (o.body ? 'POST' : 'GET'),
    dispatcher: o.agent ?? withCert,
    headers: {
      'x-request-id': crypto.randomUUID(),
      ...(o.body ? { 'content-type': 'application/json' } : {}),
      ...o.headers,
    },
    body: o.body ? JSON.stringify(o.body) : undefined,
    headersTimeout: o.timeoutMs ?? 4000,
    bodyTimeout: o.timeoutMs ?? 4000,
  });
  const text = await res.body.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, text, json };
}
/** The control API needs no client certificate. */
const control = (name: string, body?: object) =>
  call(`/__emulator/${name}`, { agent: noCert, method: body ? 'POST' : 'GET', body });
const faults = async (list: Fault[]) => expect((await control('faults', { faults: list })).status).toBe(200);
const r3 = (name: string, body: object) => call(`/r3/v01/${name}`, { body: { OrganizationBin: BIN, ...body } });
const newId = () => `dev-${Math.random().toString(36).slice(2)}`;
const device = async (id = newId(), tp = 1) =>
  (await r3('device/register', { DeviceId: id, TradePointId: tp })).json.Data.DeviceToken as string;
const qr = async (token: string, amount = 100) =>
  (await r3('qr/create', { DeviceToken: token, Amount: amount })).json.Data;
const customer = async (action: 'scan' | 'confirm' | 'scanerror' | 'confirmerror', id: number) =>
  (await call(`/r3/v01/test/payment/${action}`, { body: { qrPaymentId: String(id) } })).json;
const statusOf = async (id: number, v = 'v01') => (await call(`/r3/${v}/payment/status/${id}`)).json;
const paid = async (token: string, amount: number) => {
  const p = await qr(token, amount);
  await customer('scan', p.QrPaymentId);
  await customer('confirm', p.QrPaymentId);
  return p.QrPaymentId as number;
};

describe('start', () => {
  it(
    'writes its CA, server and client certificates, password and r1 key ' +
      'once (private files 0600), and reuses them',
    async () => {
      for (const f of FILES) expect(statSync(path.join(dir, f)).isFile(), f).toBe(true);
      for (const f of ['ca-key.pem', 'server-key.pem', 'client.p12', 'client.password', 'api-key.txt'])
        expect(statSync(path.join(dir, f)).mode & 0o777, f).toBe(0o600);
      expect(path.isAbsolute(e.ca) && path.isAbsolute(e.clientPfx)).toBe(true);
      expect(e.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(e.apiKey).toMatch(/^test_[0-9a-f-]{36}$/);
      expect(readFileSync(path.join(dir, 'client.password'), 'utf8').trim()).toBe(e.clientPassword);
      const pfx = readFileSync(e.clientPfx);
      const again = await startEmulator({ port: 0, dir });
      try {
        expect([again.apiKey, again.caPem, again.clientPassword]).toEqual([e.apiKey, e.caPem, e.clientPassword]);
        expect(readFileSync(again.clientPfx).equals(pfx)).toBe(true);
        // The reused server certificate still serves 127.0.0.1 under the same CA.
        const res = await request(`${again.url}/r3/v01/health/ping`, { dispatcher: withCert });
        expect(await res.body.json()).toEqual({ StatusCode: 0, Message: 'OK' });
      } finally {
        await again.close();
      }
    },
  );

  it('npm run emulator prints one line of JSON when ready', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'emulator/main.ts', '--port', '0', '--dir', dir], {
      cwd: path.resolve(import.meta.dirname, '../..'),
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      const ready = JSON.parse(line);
      expect(ready).toEqual({
        ready: true,
        url: expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+$/),
        ca: e.ca,
        client_pfx: e.clientPfx,
        client_password: e.clientPassword,
        api_key: e.apiKey,
      });
      const res = await request(`${ready.url}/r1/v01/health/ping`, {
        dispatcher: noCert,
        headers: { 'api-key': e.apiKey },
      });
      expect(((await res.body.json()) as { StatusCode: number }).StatusCode).toBe(0);
    } finally {
      child.kill('SIGTERM');
    }
  }, 5000);
});

describe('credentials', () => {
  it('r2 and r3 need the client certificate: without it StatusCode -10000 (HTTP 200), with it OK', async () => {
    for (const scheme of ['r2', 'r3']) {
      expect(await call(`/${scheme}/v01/health/ping`, { agent: noCert })).toMatchObject({
        status: 200,
        json: { StatusCode: -10000, Message: 'no client certificate' },
      });
      expect((await call(`/${scheme}/v01/health/ping`)).json).toEqual({ StatusCode: 0, Message: 'OK' });
    }
    expect((await call('/r2/v01/partner/tradepoints')).json.Data).toEqual([
      { TradePointId: 1, TradePointName: 'Test point 1' },
      { TradePointId: 2, TradePointName: 'Test point 2' },
    ]);
  });

  it('r1 needs its Api-Key', async () => {
    expect((await call('/r1/v01/health/ping', { agent: noCert })).json).toMatchObject({
      StatusCode: -10000,
      Message: 'bad api key',
    });
    expect(
      (await call('/r1/v01/health/ping', { agent: noCert, headers: { 'api-key': 'test_wrong' } })).json.StatusCode,
    ).toBe(-10000);
    expect(
      (await call('/r1/v01/partner/tradepoints', { agent: noCert, headers: { 'api-key': e.apiKey } })).json.Data,
    ).toHaveLength(2);
  });

  it('a certificate of the CA that has expired is no certificate (socket.authorized is false)', async () => {
    const expired = makeClientPfx(e.caPem, readFileSync(e.caKeyFile, 'utf8'), 'pw', {
      notBefore: new Date(Date.now() - 3 * 86400_000),
      notAfter: new Date(Date.now() - 86400_000),
    });
    const agent = new Agent({ connect: { ca: e.caPem, pfx: expired, passphrase: 'pw' } });
    try {
      expect((await call('/r3/v01/health/ping', { agent })).json.StatusCode).toBe(-10000);
    } finally {
      await agent.close();
    }
  });

  it('records each request id and path; one without X-Request-ID is still answered', async () => {
    const id = crypto.randomUUID();
    await call('/r3/v01/health/ping', { headers: { 'x-request-id': id } });
    const res = await request(`${e.url}/r3/v01/health/ping`, { dispatcher: withCert });
    expect(((await res.body.json()) as { StatusCode: number }).StatusCode).toBe(0);
    const { requests } = (await control('state')).json;
    expect(requests).toContainEqual({ id, method: 'GET', path: '/r3/v01/health/ping' });
    expect(requests[requests.length - 1]).toEqual({ id: null, method: 'GET', path: '/r3/v01/health/ping' });
    expect(e.state().requests.length).toBeLessThanOrEqual(200);
  });

  it(
    'counts every call by method and path with its numbers as :n, past ' + 'the 200 kept requests, until a reset',
    async () => {
      await control('reset', {});
      for (let i = 0; i < 205; i++) await call('/r3/v01/health/ping');
      await call('/r3/v01/payment/status/123');
      await call('/r3/v01/payment/status/45678');
      await call('/r3/v02/payment/status/9');
      expect((await control('calls')).json).toEqual({
        calls: {
          'GET /r3/v01/health/ping': 205,
          'GET /r3/v01/payment/status/:n': 2,
          'GET /r3/v02/payment/status/:n': 1,
        },
      });
      // Distinct keys are bounded: past 500, the rest are counted under one key.
      for (let i = 0; i < 520; i++) e.state().record(null, 'GET', `/r3/v01/garbage-${i}`);
      const { calls } = (await control('calls')).json as { calls: Record<string, number> };
      expect(Object.keys(calls)).toHaveLength(500);
      expect(calls.other).toBe(24); // 3 keys before, 496 new ones, the rest under 'other'
      await control('reset', {});
      expect((await control('calls')).json).toEqual({ calls: {} });
    },
  );
});

describe('organizations and devices', () => {
  it('trade points of a valid BIN on r3; -14000002 for a bad one', async () => {
    expect((await call(`/r3/v01/partner/tradepoints/${BIN}`)).json).toMatchObject({
      StatusCode: 0,
      Data: [{ TradePointId: 1 }, { TradePointId: 2 }],
    });
    // The second set of weights: 00000000010 sums to 10 with 1..11, to 1 with 3..11,1,2.
    expect((await call('/r3/v01/partner/tradepoints/000000000101')).json.StatusCode).toBe(0);
    expect((await call('/r3/v01/partner/tradepoints/000000000100')).json.StatusCode).toBe(-14000002);
    expect((await call(`/r3/v01/partner/tradepoints/${BAD_BIN}`)).json.StatusCode).toBe(-14000002);
    expect(
      (await r3('device/register', { OrganizationBin: BAD_BIN, DeviceId: 'x', TradePointId: 1 })).json.StatusCode,
    ).toBe(-14000002);
  });

  it('register is idempotent, a device stays on its trade point (-1503); bad input -99000002', async () => {
    const id = newId();
    const a = await device(id, 1);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(await device(id, 1)).toBe(a);
    expect((await r3('device/register', { DeviceId: id, TradePointId: 2 })).json.StatusCode).toBe(-1503);
    expect((await r3('device/register', { DeviceId: 'bad id!', TradePointId: 1 })).json).toMatchObject({
      StatusCode: -99000002,
      Message: 'bad DeviceId',
    });
    expect((await r3('device/register', { DeviceId: newId(), TradePointId: 3 })).json.StatusCode).toBe(-99000002);
    expect(e.state().view().devices).toContainEqual({
      DeviceToken: a,
      DeviceId: id,
      TradePointId: 1,
      OrganizationBin: BIN,
    });
  });

  it('a deleted device makes no more money calls (-1502); an unknown one -1501', async () => {
    const token = await device();
    expect((await r3('device/delete', { DeviceToken: token })).json.StatusCode).toBe(0);
    expect((await r3('qr/create', { DeviceToken: token, Amount: 100 })).json.StatusCode).toBe(-1502);
    expect((await r3('qr/create', { DeviceToken: crypto.randomUUID(), Amount: 100 })).json.StatusCode).toBe(-1501);
    expect((await r3('device/delete', { DeviceToken: crypto.randomUUID() })).json.StatusCode).toBe(-1501);
  });
});

describe('payments', () => {
  it('qr/create and qr/create-link answer the documented shapes; a bad amount is 990000028', async () => {
    const token = await device();
    const before = Date.now();
    const p = await qr(token, 2500);
    expect(p).toMatchObject({
      PaymentMethods: ['Gold', 'Red', 'Loan'],
      QrPaymentBehaviorOptions: {
        StatusPollingInterval: 5,
        QrCodeScanWaitTimeout: 180,
        PaymentConfirmationTimeout: 65,
      },
    });
    // What the QR image encodes is a digit string (document p.10), not a link.
    expect(p.QrToken).toMatch(/^\d{40}$/);
    // The document's own form by default: seconds, the offset in hours.
    expect(p.ExpireDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+05:00$/);
    expect(Math.abs(new Date(p.ExpireDate).getTime() - (before + 180_000))).toBeLessThan(5000);
    expect((await qr(token)).QrPaymentId).toBeGreaterThan(p.QrPaymentId);
    const link = (await r3('qr/create-link', { DeviceToken: token, Amount: 700, ExternalId: 'order-7' })).json.Data;
    expect(link).toMatchObject({
      PaymentLink: `https://pay.provider.example/pay/${link.PaymentId}`,
      PaymentMethods: ['Gold', 'Red', 'Loan'],
      PaymentBehaviorOptions: {
        StatusPollingInterval: 5,
        LinkActivationWaitTimeout: 180,
        PaymentConfirmationTimeout: 65,
      },
    });
    expect(e.state().view().payments).toContainEqual(
      expect.objectContaining({
        QrPaymentId: link.PaymentId,
        ExternalId: 'order-7',
        Amount: 700,
        Status: 'QrTokenCreated',
      }),
    );
    for (const Amount of [0, -5, '100', null])
      expect((await r3('qr/create', { DeviceToken: token, Amount })).json.StatusCode, String(Amount)).toBe(990000028);
  });

  it('QrTokenCreated -> Wait -> Processed, in the v01 and v02 shapes; wrong states and unknown ids -1601', async () => {
    const token = await device();
    const p = await qr(token, 2500);
    expect(await statusOf(p.QrPaymentId)).toEqual({ StatusCode: 0, Message: 'OK', Data: { Status: 'QrTokenCreated' } });
    expect(await customer('confirm', p.QrPaymentId)).toEqual({
      StatusCode: -1601,
      Message: 'cannot confirm a purchase in status QrTokenCreated',
    });
    expect(await customer('scan', p.QrPaymentId)).toEqual({ StatusCode: 0, Message: 'OK' });
    expect((await statusOf(p.QrPaymentId)).Data.Status).toBe('Wait');
    const store = { StoreName: 'Test point 1', Address: 'Test street 1', City: 'Almaty' };
    const unpaid = { ProductType: null, LoanOfferName: null, LoanTerm: null, IsOffer: false };
    expect((await statusOf(p.QrPaymentId, 'v02')).Data).toEqual({
      Status: 'Wait',
      TransactionId: null,
      Amount: 2500,
      ...unpaid,
      ...store,
    });
    expect((await customer('confirm', p.QrPaymentId)).StatusCode).toBe(0);
    expect((await statusOf(p.QrPaymentId)).Data).toEqual({ Status: 'Processed' });
    expect((await statusOf(p.QrPaymentId, 'v02')).Data).toEqual({
      Status: 'Processed',
      TransactionId: expect.stringMatching(/^\d+$/),
      Amount: 2500,
      ...unpaid,
      ProductType: 'Gold',
      ...store,
    });
    expect((await customer('scan', p.QrPaymentId)).Message).toContain('Processed');
    expect((await statusOf(999_999_999)).StatusCode).toBe(-1601);
    expect((await customer('scan', 999_999_999)).StatusCode).toBe(-1601);
    const details = (await call(`/r3/v01/payment/details?QrPaymentId=${p.QrPaymentId}&DeviceToken=${token}`)).json.Data;
    expect(details).toMatchObject({ QrPaymentId: p.QrPaymentId, TotalAmount: 2500, AvailableReturnAmount: 2500 });
    expect(details.TransactionDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+05:00$/);
    // v02 is for the status only.
    expect((await call(`/r3/v02/payment/details?QrPaymentId=${p.QrPaymentId}`)).status).toBe(404);
  });

  it('scanerror and confirmerror end in Error', async () => {
    const token = await device();
    const a = await qr(token);
    expect((await customer('scanerror', a.QrPaymentId)).StatusCode).toBe(0);
    expect((await statusOf(a.QrPaymentId)).Data.Status).toBe('Error');
    const b = await qr(token);
    await customer('scan', b.QrPaymentId);
    expect((await customer('confirmerror', b.QrPaymentId)).StatusCode).toBe(0);
    expect((await statusOf(b.QrPaymentId)).Data.Status).toBe('Error');
  });

  it('timers on the virtual clock: an unscanned QR errs after 180 s, a Wait 65 s after its scan', async () => {
    const token = await device();
    const late = await qr(token);
    await control('clock/advance', { seconds: 179 });
    expect((await statusOf(late.QrPaymentId)).Data.Status).toBe('QrTokenCreated');
    await control('clock/advance', { seconds: 2 });
    expect((await statusOf(late.QrPaymentId)).Data.Status).toBe('Error');

    const waiting = await qr(token);
    await control('clock/advance', { seconds: 170 });
    await customer('scan', waiting.QrPaymentId);
    // The scan holds it past the QR's own 180 s.
    await control('clock/advance', { seconds: 60 });
    expect((await statusOf(waiting.QrPaymentId)).Data.Status).toBe('Wait');
    await control('clock/advance', { seconds: 6 });
    expect((await statusOf(waiting.QrPaymentId)).Data.Status).toBe('Error');
    expect((await customer('confirm', waiting.QrPaymentId)).StatusCode).toBe(-1601);
  });
});

describe('refunds', () => {
  it('not paid -99000011, too much -99000005, then parts up to the whole', async () => {
    const token = await device();
    const p = await qr(token, 1000);
    const ret = (amount: number) =>
      r3('payment/return', { DeviceToken: token, QrPaymentId: p.QrPaymentId, Amount: amount });
    expect((await ret(100)).json.StatusCode).toBe(-99000011);
    await customer('scan', p.QrPaymentId);
    await customer('confirm', p.QrPaymentId);
    expect((await ret(1001)).json.StatusCode).toBe(-99000005);
    const first = (await ret(400)).json;
    expect(first).toMatchObject({ StatusCode: 0, Data: { ReturnOperationId: expect.any(Number) } });
    expect(
      (await call(`/r3/v01/payment/details?QrPaymentId=${p.QrPaymentId}&DeviceToken=${token}`)).json.Data
        .AvailableReturnAmount,
    ).toBe(600);
    expect((await ret(601)).json.StatusCode).toBe(-99000005);
    expect((await ret(600)).json.Data.ReturnOperationId).toBeGreaterThan(first.Data.ReturnOperationId);
    expect((await ret(1)).json.StatusCode).toBe(-99000005);
    expect(
      e
        .state()
        .view()
        .payments.find((x) => x.QrPaymentId === p.QrPaymentId)?.ReturnedAmount,
    ).toBe(1000);
  });

  it(
    'another trade point -99000003, an unknown payment -99000001, unknown ' +
      'details -1601; r2 wants a return QR; r1 has none',
    async () => {
      const token = await device();
      const id = await paid(token, 500);
      const other = await device(newId(), 2);
      expect((await r3('payment/return', { DeviceToken: other, QrPaymentId: id, Amount: 1 })).json.StatusCode).toBe(
        -99000003,
      );
      expect(
        (await r3('payment/return', { DeviceToken: token, QrPaymentId: 999_999_999, Amount: 1 })).json.StatusCode,
      ).toBe(-99000001);
      expect((await call('/r3/v01/payment/details?QrPaymentId=999999999')).json.StatusCode).toBe(-1601);

      const r2Token = (await call('/r2/v01/device/register', { body: { DeviceId: newId(), TradePointId: 1 } })).json
        .Data.DeviceToken;
      const r2Paid = (await call('/r2/v01/qr/create', { body: { DeviceToken: r2Token, Amount: 300 } })).json.Data
        .QrPaymentId;
      await customer('scan', r2Paid);
      await customer('confirm', r2Paid);
      expect(
        (await call('/r2/v01/payment/return', { body: { DeviceToken: r2Token, QrPaymentId: r2Paid, Amount: 100 } }))
          .json.StatusCode,
      ).toBe(-99000011);
      // A return id the provider never made is no return QR (the whole flow is in returns.test.ts).
      expect(
        (
          await call('/r2/v01/payment/return', {
            body: { DeviceToken: r2Token, QrPaymentId: r2Paid, Amount: 100, QrReturnId: 999_999 },
          })
        ).json.StatusCode,
      ).toBe(-99000011);

      const r1 = { agent: noCert, headers: { 'api-key': e.apiKey } };
      for (const [method, name] of [
        ['POST', 'payment/return'],
        ['GET', 'payment/details?QrPaymentId=1'],
        ['POST', 'remote/create'],
        ['POST', 'remote/cancel'],
        ['GET', 'remote/client-info'],
        ['POST', 'return/create'],
        ['GET', 'return/status/1'],
        ['POST', 'return/operations'],
      ] as const) {
        const res = await call(`/r1/v01/${name}`, { ...r1, method, body: method === 'POST' ? {} : undefined });
        expect(res, name).toMatchObject({
          status: 404,
          json: { StatusCode: -1, Message: 'not available in this scheme' },
        });
      }
      expect((await call('/r2/v01/remote/create', { body: {} })).status).toBe(404);
    },
  );
});

describe('invoices and customers', () => {
  it(
    'remote/create is paid after a scan and confirm; cancel works until ' +
      'it is paid (then -1404); unknown -99000001',
    async () => {
      const token = await device();
      const create = (amount: number) =>
        r3('remote/create', { DeviceToken: token, Amount: amount, PhoneNumber: '+77011234567', Comment: 'order' });
      const a = (await create(1500)).json.Data.QrPaymentId;
      expect((await statusOf(a)).Data.Status).toBe('RemotePaymentCreated');
      await customer('scan', a);
      await customer('confirm', a);
      expect((await statusOf(a)).Data.Status).toBe('Processed');
      // The document lists no -99000011 for remote/cancel: an invoice it can no longer cancel is -1404.
      expect((await r3('remote/cancel', { DeviceToken: token, QrPaymentId: a })).json.StatusCode).toBe(-1404);

      const b = (await create(900)).json.Data.QrPaymentId;
      expect((await r3('remote/cancel', { DeviceToken: token, QrPaymentId: b })).json).toEqual({
        StatusCode: 0,
        Message: 'OK',
        Data: { Status: 'RemotePaymentCanceled' },
      });
      expect((await statusOf(b)).Data.Status).toBe('RemotePaymentCanceled');
      expect((await r3('remote/cancel', { DeviceToken: token, QrPaymentId: 999_999_999 })).json.StatusCode).toBe(
        -99000001,
      );

      const c = (await create(100)).json.Data.QrPaymentId;
      await control('clock/advance', { seconds: 24 * 3600 + 1 });
      expect((await statusOf(c)).Data.Status).toBe('Error');
    },
  );

  it(
    'client-info names a customer, -1401 for a phone ending 0000, and ' + 'at most 50 a minute per device (-999)',
    async () => {
      const token = await device();
      const info = (phone: string) =>
        call(`/r3/v01/remote/client-info?phoneNumber=${encodeURIComponent(phone)}&deviceToken=${token}`);
      expect((await info('+77011234567')).json.Data).toEqual({ ClientName: 'Test Customer 4567' });
      expect((await info('+77010000000')).json.StatusCode).toBe(-1401);
      const codes = await Promise.all(
        Array.from({ length: 50 }, () => info('+77011234567').then((r) => r.json.StatusCode)),
      );
      expect(codes.filter((c) => c === -999)).toHaveLength(2); // 52 calls in the minute
      // Another device has its own allowance; a minute later this one has again.
      const other = await device();
      expect(
        (await call(`/r3/v01/remote/client-info?phoneNumber=%2B77011234567&deviceToken=${other}`)).json.StatusCode,
      ).toBe(0);
      await control('clock/advance', { seconds: 61 });
      expect((await info('+77011234567')).json.StatusCode).toBe(0);
    },
  );
});

describe('faults', () => {
  it('latency delays the answer; hang never answers (the client gives up); reset closes the socket', async () => {
    await faults([{ path: 'health/ping', kind: 'latency', ms: 300, times: 1 }]);
    const t0 = Date.now();
    expect((await call('/r3/v01/health/ping')).json.StatusCode).toBe(0);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(280);

    await faults([{ path: 'health/ping', kind: 'hang', times: 1 }]);
    await expect(call('/r3/v01/health/ping', { timeoutMs: 300 })).rejects.toThrow();
    await faults([{ path: 'health/ping', kind: 'reset', times: 1 }]);
    await expect(call('/r3/v01/health/ping')).rejects.toThrow();
    expect((await call('/r3/v01/health/ping')).json.StatusCode).toBe(0);
  });

  it('http5xx, malformed, code (used up after `times`), tls_refuse and expired_cert', async () => {
    await faults([{ path: 'health/ping', kind: 'http5xx', status: 502, times: 1 }]);
    expect(await call('/r3/v01/health/ping')).toMatchObject({ status: 502, json: undefined });
    await faults([{ path: 'health/ping', kind: 'http5xx', times: 1 }]);
    expect((await call('/r3/v01/health/ping')).status).toBe(503);
    await faults([{ path: 'health/ping', kind: 'malformed', times: 1 }]);
    expect(await call('/r3/v01/health/ping')).toMatchObject({
      status: 200,
      text: '{"StatusCode": 0, "Data": ',
      json: undefined,
    });
    await faults([{ path: 'health/ping', kind: 'code', code: 99000006, times: 2 }]);
    expect((await call('/r3/v01/health/ping')).json.StatusCode).toBe(99000006);
    expect((await call('/r3/v01/health/ping')).json.StatusCode).toBe(99000006);
    expect((await call('/r3/v01/health/ping')).json.StatusCode).toBe(0);
    await faults([{ path: 'health/ping', kind: 'tls_refuse', times: 1 }]);
    await expect(call('/r3/v01/health/ping')).rejects.toThrow();
    await faults([{ path: 'health/ping', kind: 'expired_cert', times: 1 }]);
    expect((await call('/r3/v01/health/ping')).json).toMatchObject({ StatusCode: -10000 });
    expect((await call('/r3/v01/health/ping')).json.StatusCode).toBe(0);
    expect((await control('faults', { faults: [{ path: 'x', kind: 'nonsense' }] })).status).toBe(400);
  });

  it('a fault on payment/status matches the path with its id; without `times` it stays', async () => {
    const token = await device();
    const p = await qr(token);
    await faults([{ path: 'payment/status', kind: 'code', code: -999 }]);
    for (let i = 0; i < 3; i++) expect((await statusOf(p.QrPaymentId)).StatusCode).toBe(-999);
    expect((await qr(token)).QrPaymentId).toBeGreaterThan(p.QrPaymentId); // other paths untouched
    await faults([]);
    expect((await statusOf(p.QrPaymentId)).StatusCode).toBe(0);
  });

  it('lost on qr/create: the payment exists though the answer never came', async () => {
    const token = await device();
    const before = e.state().payments.size;
    await faults([{ path: 'qr/create', kind: 'lost', times: 1 }]);
    await expect(r3('qr/create', { DeviceToken: token, Amount: 5, ExternalId: 'lost-1' })).rejects.toThrow();
    const { payments } = (await control('state')).json;
    expect(e.state().payments.size).toBe(before + 1);
    expect(payments).toContainEqual(
      expect.objectContaining({
        ExternalId: 'lost-1',
        Amount: 5,
        Status: 'QrTokenCreated',
        DeviceToken: token,
        OrganizationBin: BIN,
      }),
    );
  });

  it('flap answers the real status and QrTokenCreated by turns', async () => {
    const token = await device();
    const p = await qr(token);
    await customer('scan', p.QrPaymentId);
    await faults([{ path: 'payment/status', kind: 'flap' }]);
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) seen.push((await statusOf(p.QrPaymentId)).Data.Status);
    expect(seen).toEqual(['Wait', 'QrTokenCreated', 'Wait', 'QrTokenCreated']);
    await faults([]);
  });
});

describe('control', () => {
  it(
    'state() in process is the state /__emulator/state shows; reset clears ' +
      'payments, devices, faults and the clock',
    async () => {
      const token = await device();
      await qr(token);
      await faults([{ path: 'health/ping', kind: 'code', code: -999 }]);
      await control('clock/advance', { seconds: 3600 });
      expect(e.state().offsetMs).toBeGreaterThanOrEqual(3600_000);
      expect((await control('state')).json.devices.length).toBe(e.state().devices.size);

      expect((await control('reset', {})).status).toBe(200);
      expect((await control('state')).json).toMatchObject({ payments: [], devices: [] });
      expect(e.state()).toMatchObject({ offsetMs: 0, faults: [] });
      expect((await call('/r3/v01/health/ping')).json.StatusCode).toBe(0);
      expect((await call('/r3/v01/test/payment/scan', { body: { qrPaymentId: '1000' } })).json.StatusCode).toBe(-1601);
    },
  );
});
