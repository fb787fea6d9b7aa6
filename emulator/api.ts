// The official paths of r1, r2 and r3 (integration document v3.9) over the emulator's state. Each
// handler answers the envelope {StatusCode, Message?, Data?}; the server applies auth and faults first.
import { DEFAULT_BIN, EmulatorState, TRADE_POINTS, validBin, type Payment } from './state.ts';

export type Scheme = 'r1' | 'r2' | 'r3';
export interface Envelope {
  StatusCode: number;
  Message?: string;
  Data?: unknown;
}
export interface ApiRequest {
  scheme: Scheme;
  version: 'v01' | 'v02';
  method: string;
  /** after /rN/vNN/ */
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown>;
}

const ok = (Data?: unknown): Envelope => ({ StatusCode: 0, Message: 'OK', ...(Data === undefined ? {} : { Data }) });
const fail = (StatusCode: number, Message: string): Envelope => ({ StatusCode, Message });
/** An operation the scheme does not have. */
export const NOT_IN_SCHEME = Symbol('not in scheme');

const iso = (ms: number) => new Date(ms + 5 * 3600_000).toISOString().replace('Z', '+05:00');

export function handle(s: EmulatorState, r: ApiRequest): Envelope | typeof NOT_IN_SCHEME | undefined {
  const b = r.body;
  const bin = r.scheme === 'r3' ? String(b.OrganizationBin ?? '') : DEFAULT_BIN;
  const device = (token: unknown) => {
    const d = s.devices.get(String(token ?? ''));
    // GET calls name no organization (client-info): the token alone identifies the device.
    if (!d || (r.scheme === 'r3' && r.method === 'POST' && d.OrganizationBin !== bin)) return fail(-1501, 'device not found');
    if (!d.active) return fail(-1502, 'device inactive');
    return d;
  };
  const r3only = () => r.scheme !== 'r3';
  const refundsOnly = () => r.scheme === 'r1';

  if (r.method === 'GET' && r.path === 'health/ping') return ok();

  let m: RegExpMatchArray | null;
  if (r.method === 'GET' && (m = r.path.match(/^partner\/tradepoints(?:\/(\d+))?$/))) {
    const org = r.scheme === 'r3' ? m[1] ?? '' : DEFAULT_BIN;
    if (!validBin(org)) return fail(-14000002, 'no trade points');
    return ok(TRADE_POINTS);
  }
  if (r.method === 'POST' && r.path === 'device/register') {
    if (r.scheme === 'r3' && !validBin(bin)) return fail(-14000002, 'no trade points');
    if (!/^[A-Za-z0-9_-]+$/.test(String(b.DeviceId ?? ''))) return fail(-99000002, 'bad DeviceId');
    const tp = Number(b.TradePointId);
    if (!TRADE_POINTS.some((t) => t.TradePointId === tp)) return fail(-99000002, 'trade point not found');
    const d = s.registerDevice(String(b.DeviceId), tp, bin);
    return typeof d === 'number' ? fail(d, 'device already on another trade point') : ok({ DeviceToken: d.DeviceToken });
  }
  if (r.method === 'POST' && r.path === 'device/delete') {
    const d = s.devices.get(String(b.DeviceToken ?? ''));
    if (!d) return fail(-1501, 'device not found');
    d.active = false;
    return ok();
  }
  if (r.method === 'POST' && (r.path === 'qr/create' || r.path === 'qr/create-link')) {
    const d = device(b.DeviceToken);
    if ('StatusCode' in d) return d;
    const amount = Number(b.Amount);
    if (typeof b.Amount !== 'number' || !(amount > 0)) return fail(990000028, 'wrong amount');
    const p = s.createPayment({
      Amount: amount, OrganizationBin: d.OrganizationBin, DeviceToken: d.DeviceToken, TradePointId: d.TradePointId,
      ExternalId: b.ExternalId === undefined ? null : String(b.ExternalId), kind: r.path === 'qr/create' ? 'qr' : 'link', PhoneNumber: null,
    });
    const TIMING = s.timing;
    const expire = iso(p.createdAt + TIMING.QrCodeScanWaitTimeout * 1000);
    const methods = ['Gold', 'Red', 'Loan'];
    return r.path === 'qr/create'
      ? ok({ QrToken: `https://qr.provider.example/pay/${p.QrPaymentId}`, ExpireDate: expire, QrPaymentId: p.QrPaymentId, PaymentMethods: methods,
        QrPaymentBehaviorOptions: { StatusPollingInterval: TIMING.StatusPollingInterval, QrCodeScanWaitTimeout: TIMING.QrCodeScanWaitTimeout, PaymentConfirmationTimeout: TIMING.PaymentConfirmationTimeout } })
      : ok({ PaymentLink: `https://pay.provider.example/pay/${p.QrPaymentId}`, ExpireDate: expire, PaymentId: p.QrPaymentId, PaymentMethods: methods,
        PaymentBehaviorOptions: { StatusPollingInterval: TIMING.StatusPollingInterval, LinkActivationWaitTimeout: TIMING.LinkActivationWaitTimeout, PaymentConfirmationTimeout: TIMING.PaymentConfirmationTimeout } });
  }
  if (r.method === 'GET' && (m = r.path.match(/^payment\/status\/(\d+)$/))) {
    const p = s.current(Number(m[1]));
    if (!p) return fail(-1601, 'purchase not found');
    const status = s.faults.some((f) => f.kind === 'flap' && 'payment/status'.endsWith(f.path)) && (s.flapFlip = !s.flapFlip) ? 'QrTokenCreated' : p.Status;
    if (r.version === 'v01') return ok({ Status: status });
    return ok({ Status: status, TransactionId: p.TransactionId, Amount: p.Amount, StoreName: `Test point ${p.TradePointId}` });
  }
  if (r.method === 'GET' && r.path === 'payment/details') {
    if (refundsOnly()) return NOT_IN_SCHEME;
    const p = s.current(Number(r.query.get('QrPaymentId')));
    if (!p) return fail(-1601, 'purchase not found');
    return ok({
      QrPaymentId: p.QrPaymentId, TotalAmount: p.Amount, TransactionDate: p.TransactionDate,
      AvailableReturnAmount: p.Status === 'Processed' ? p.Amount - p.ReturnedAmount : 0,
    });
  }
  if (r.method === 'POST' && r.path === 'payment/return') {
    if (refundsOnly()) return NOT_IN_SCHEME;
    if (r.scheme === 'r2' && b.QrReturnId === undefined) return fail(-99000011, 'a return QR of the customer is required');
    const d = device(b.DeviceToken);
    if ('StatusCode' in d) return d;
    const p = s.current(Number(b.QrPaymentId));
    if (!p) return fail(-99000001, 'purchase not found');
    if (p.TradePointId !== d.TradePointId) return fail(-99000003, 'purchase of another trade point');
    if (p.Status !== 'Processed') return fail(-99000011, `cannot return a purchase in status ${p.Status}`);
    const amount = Number(b.Amount);
    if (!(amount > 0)) return fail(990000028, 'wrong amount');
    if (amount > p.Amount - p.ReturnedAmount) return fail(-99000005, 'return exceeds the purchase');
    p.ReturnedAmount += amount;
    return ok({ ReturnOperationId: s.returnId() });
  }
  if (r.path.startsWith('remote/')) {
    if (r3only()) return NOT_IN_SCHEME;
    const d = device(r.method === 'GET' ? r.query.get('deviceToken') : b.DeviceToken);
    if ('StatusCode' in d) return d;
    if (r.method === 'GET' && r.path === 'remote/client-info') {
      if (!s.clientInfoAllowed(d.DeviceToken)) return fail(-999, 'too many requests');
      const phone = r.query.get('phoneNumber') ?? '';
      if (phone.endsWith('0000')) return fail(-1601, 'client not found');
      return ok({ ClientName: `Test Customer ${phone.slice(-4)}` });
    }
    if (r.method === 'POST' && r.path === 'remote/create') {
      const amount = Number(b.Amount);
      if (typeof b.Amount !== 'number' || !(amount > 0)) return fail(990000028, 'wrong amount');
      const p = s.createPayment({
        Amount: amount, OrganizationBin: bin, DeviceToken: d.DeviceToken, TradePointId: d.TradePointId, ExternalId: null, kind: 'remote',
        PhoneNumber: String(b.PhoneNumber ?? ''),
      });
      return ok({ QrPaymentId: p.QrPaymentId });
    }
    if (r.method === 'POST' && r.path === 'remote/cancel') {
      const p = s.current(Number(b.QrPaymentId));
      if (!p || p.kind !== 'remote') return fail(-99000001, 'purchase not found');
      if (p.Status === 'Processed') return fail(-99000011, 'already paid');
      p.Status = 'RemotePaymentCanceled';
      return ok({ Status: 'RemotePaymentCanceled' });
    }
  }
  if (r.method === 'POST' && (m = r.path.match(/^test\/payment\/(scan|confirm|scanerror|confirmerror)$/))) {
    const p = s.current(Number(b.qrPaymentId));
    if (!p) return fail(-1601, 'purchase not found');
    return testCall(s, p, m[1]);
  }
  return undefined;
}

function testCall(s: EmulatorState, p: Payment, action: string): Envelope {
  const waiting = p.Status === 'QrTokenCreated' || p.Status === 'RemotePaymentCreated';
  switch (action) {
    case 'scan':
    case 'scanerror':
      if (!waiting) return fail(-1601, `cannot scan a purchase in status ${p.Status}`);
      p.Status = action === 'scan' ? 'Wait' : 'Error';
      p.scannedAt = s.now();
      return ok();
    default:
      if (p.Status !== 'Wait') return fail(-1601, `cannot confirm a purchase in status ${p.Status}`);
      if (action === 'confirmerror') {
        p.Status = 'Error';
        return ok();
      }
      p.Status = 'Processed';
      p.TransactionId = String(900000 + p.QrPaymentId);
      p.TransactionDate = new Date(s.now()).toISOString();
      return ok();
  }
}
