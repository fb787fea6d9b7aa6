// The emulator's contract (decisions 24), so anyone can drive it: files made once and reused, the
// credentials of each scheme, the documented answers, and each kind of fault.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { startEmulator, type RunningEmulator } from '../../emulator/server.ts';
import type { Fault } from '../../emulator/state.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'emu-contract-'));
let e: RunningEmulator;
let withCert: Agent;
let noCert: Agent;
beforeAll(async () => {
  e = await startEmulator({ port: 0, dir });
  withCert = new Agent({ connect: { ca: e.caPem, pfx: readFileSync(e.clientPfx), passphrase: e.clientPassword, minVersion: 'TLSv1.2' } });
  noCert = new Agent({ connect: { ca: e.caPem } });
}, 20_000);
afterAll(async () => {
  await withCert?.close();
  await noCert?.close();
  await e?.close();
});

async function call(pathName: string, o: { method?: string; body?: object; agent?: Agent; headers?: Record<string, string>; timeoutMs?: number } = {}) {
  const res = await request(`${e.url}${pathName}`, {
    method: (o.method ?? (o.body ? 'POST' : 'GET')) as 'GET', dispatcher: o.agent ?? withCert,
    headers: { 'x-request-id': crypto.randomUUID(), ...(o.body ? { 'content-type': 'application/json' } : {}), ...o.headers },
    body: o.body ? JSON.stringify(o.body) : undefined, headersTimeout: o.timeoutMs ?? 5000, bodyTimeout: o.timeoutMs ?? 5000,
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
const faults = (f: Fault[]) => {
  e.state.faults = f;
};
const device = async (id = `dev-${Math.random().toString(36).slice(2)}`, tp = 1) =>
  (await call('/r3/v01/device/register', { body: { DeviceId: id, TradePointId: tp, OrganizationBin: '990140001233' } })).json.Data.DeviceToken as string;
const qr = async (token: string, amount = 100) =>
  (await call('/r3/v01/qr/create', { body: { DeviceToken: token, Amount: amount, OrganizationBin: '990140001233' } })).json.Data;

describe('start', () => {
  it('writes its CA, client bundle, password and r1 key once, with private files 0600, and reuses them', async () => {
    for (const f of ['ca.pem', 'client.p12', 'client.password', 'api-key.txt']) expect(statSync(path.join(dir, f)).isFile()).toBe(true);
    expect(statSync(path.join(dir, 'client.p12')).mode & 0o777).toBe(0o600);
    expect(e.apiKey).toMatch(/^test_[0-9a-f-]{36}$/);
    const again = await startEmulator({ port: 0, dir });
    expect([again.apiKey, again.caPem]).toEqual([e.apiKey, e.caPem]);
    await again.close();
  });
});

describe('credentials and answers', () => {
  it('r2/r3 need the client certificate and r1 its key; otherwise StatusCode -10000', async () => {
    expect((await call('/r3/v01/health/ping', { agent: noCert })).json.StatusCode).toBe(-10000);
    expect((await call('/r3/v01/health/ping')).json).toEqual({ StatusCode: 0, Message: 'OK' });
    expect((await call('/r1/v01/health/ping', { agent: noCert })).json.StatusCode).toBe(-10000);
    expect((await call('/r1/v01/health/ping', { agent: noCert, headers: { 'api-key': e.apiKey } })).json.StatusCode).toBe(0);
  });

  it('trade points of a valid BIN; -14000002 for a bad one; devices are idempotent and stay on their trade point', async () => {
    expect((await call('/r3/v01/partner/tradepoints/990140001233')).json.Data).toHaveLength(2);
    expect((await call('/r3/v01/partner/tradepoints/990140001234')).json.StatusCode).toBe(-14000002);
    const a = await device('same-device', 1);
    expect(await device('same-device', 1)).toBe(a);
    expect((await call('/r3/v01/device/register', { body: { DeviceId: 'same-device', TradePointId: 2, OrganizationBin: '990140001233' } })).json.StatusCode).toBe(-1503);
  });

  it('a QR goes QrTokenCreated -> Wait -> Processed; v02 adds the transaction; timers run out on the virtual clock', async () => {
    const token = await device();
    const p = await qr(token, 2500);
    expect(p.QrPaymentBehaviorOptions).toEqual({ StatusPollingInterval: 5, QrCodeScanWaitTimeout: 180, PaymentConfirmationTimeout: 65 });
    const status = async (v = 'v01') => (await call(`/r3/${v}/payment/status/${p.QrPaymentId}`)).json.Data;
    expect((await status()).Status).toBe('QrTokenCreated');
    await call('/r3/v01/test/payment/scan', { body: { qrPaymentId: String(p.QrPaymentId) } });
    expect((await status()).Status).toBe('Wait');
    await call('/r3/v01/test/payment/confirm', { body: { qrPaymentId: String(p.QrPaymentId) } });
    expect(await status('v02')).toMatchObject({ Status: 'Processed', Amount: 2500, StoreName: 'Test point 1' });
    expect(typeof (await status('v02')).TransactionId).toBe('string');

    const late = await qr(token);
    await call('/__emulator/clock/advance', { body: { seconds: 181 } });
    expect((await call(`/r3/v01/payment/status/${late.QrPaymentId}`)).json.Data.Status).toBe('Error');
    const waiting = await qr(token);
    await call('/r3/v01/test/payment/scan', { body: { qrPaymentId: String(waiting.QrPaymentId) } });
    await call('/__emulator/clock/advance', { body: { seconds: 66 } });
    expect((await call(`/r3/v01/payment/status/${waiting.QrPaymentId}`)).json.Data.Status).toBe('Error');
  });

  it('refund rules: not paid -99000011, too much -99000005, then parts up to the whole', async () => {
    const token = await device();
    const p = await qr(token, 1000);
    const ret = (amount: number) => call('/r3/v01/payment/return', { body: { DeviceToken: token, QrPaymentId: p.QrPaymentId, Amount: amount, OrganizationBin: '990140001233' } });
    expect((await ret(100)).json.StatusCode).toBe(-99000011);
    await call('/r3/v01/test/payment/scan', { body: { qrPaymentId: String(p.QrPaymentId) } });
    await call('/r3/v01/test/payment/confirm', { body: { qrPaymentId: String(p.QrPaymentId) } });
    expect((await ret(1001)).json.StatusCode).toBe(-99000005);
    expect((await ret(400)).json.StatusCode).toBe(0);
    expect((await call(`/r3/v01/payment/details?QrPaymentId=${p.QrPaymentId}&DeviceToken=${token}`)).json.Data.AvailableReturnAmount).toBe(600);
    expect((await ret(600)).json.StatusCode).toBe(0);
    expect((await ret(1)).json.StatusCode).toBe(-99000005);
  });

  it('r1 has no refunds or invoices', async () => {
    const r = await call('/r1/v01/remote/create', { agent: noCert, headers: { 'api-key': e.apiKey }, body: { Amount: 1 } });
    expect(r.status).toBe(404);
  });
});

describe('faults', () => {
  it('latency, hang, reset, 5xx, malformed, a code, lost, flap, TLS refusal, expired certificate', async () => {
    faults([{ path: 'health/ping', kind: 'latency', ms: 300, times: 1 }]);
    const t0 = Date.now();
    expect((await call('/r3/v01/health/ping')).json.StatusCode).toBe(0);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(280);

    faults([{ path: 'health/ping', kind: 'hang', times: 1 }]);
    await expect(call('/r3/v01/health/ping', { timeoutMs: 300 })).rejects.toThrow();
    faults([{ path: 'health/ping', kind: 'reset', times: 1 }]);
    await expect(call('/r3/v01/health/ping')).rejects.toThrow();
    faults([{ path: 'health/ping', kind: 'http5xx', status: 502, times: 1 }]);
    expect(await call('/r3/v01/health/ping')).toMatchObject({ status: 502, json: undefined });
    faults([{ path: 'health/ping', kind: 'malformed', times: 1 }]);
    expect((await call('/r3/v01/health/ping')).json).toBeUndefined();
    faults([{ path: 'health/ping', kind: 'code', code: 99000006, times: 1 }]);
    expect((await call('/r3/v01/health/ping')).json.StatusCode).toBe(99000006);
    faults([{ path: 'health/ping', kind: 'tls_refuse', times: 1 }]);
    await expect(call('/r3/v01/health/ping')).rejects.toThrow();
    faults([{ path: 'health/ping', kind: 'expired_cert', times: 1 }]);
    expect((await call('/r3/v01/health/ping')).json.StatusCode).toBe(-10000);
    expect((await call('/r3/v01/health/ping')).json.StatusCode).toBe(0); // used up

    const token = await device();
    const before = e.state.payments.size;
    faults([{ path: 'qr/create', kind: 'lost', times: 1 }]);
    await expect(call('/r3/v01/qr/create', { body: { DeviceToken: token, Amount: 5, OrganizationBin: '990140001233' } })).rejects.toThrow();
    expect(e.state.payments.size).toBe(before + 1); // made, answer lost

    const p = await qr(token);
    faults([{ path: 'payment/status', kind: 'flap' }]);
    await call('/r3/v01/test/payment/scan', { body: { qrPaymentId: String(p.QrPaymentId) } });
    const seen = new Set<string>();
    for (let i = 0; i < 4; i++) seen.add((await call(`/r3/v01/payment/status/${p.QrPaymentId}`)).json.Data.Status);
    expect([...seen].sort()).toEqual(['QrTokenCreated', 'Wait']);
    faults([]);
  });

  it('reset clears everything', async () => {
    await call('/__emulator/reset', { body: {} });
    const s = (await call('/__emulator/state')).json;
    expect(s).toMatchObject({ payments: [], devices: [] });
  });
});
