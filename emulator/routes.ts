// The official paths of r1, r2 and r3 (integration document v3.9) over the emulator's state, plus its
// test calls. Each handler answers the envelope {StatusCode, Message?, Data?}; the server has checked
// the credentials and applied the transport faults before.
import { almaty, DEFAULT_BIN, TRADE_POINTS, validBin, type Device, type EmulatorState } from './state.ts';
import type { Fault } from './faults.ts';

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
  /** the fault taken for this request, for those the answer itself carries (flap) */
  fault?: Fault;
}
/** An operation the scheme does not have: HTTP 404 with StatusCode -1. */
export const NOT_IN_SCHEME = Symbol('not in scheme');

const ok = (Data?: unknown): Envelope => ({ StatusCode: 0, Message: 'OK', ...(Data === undefined ? {} : { Data }) });
const fail = (StatusCode: number, Message: string): Envelope => ({ StatusCode, Message });
const isFailure = (x: object): x is Envelope => 'StatusCode' in x;

interface Ctx {
  s: EmulatorState;
  r: ApiRequest;
  b: Record<string, unknown>;
  /** the organization the call acts for: r3 names it, r1 and r2 have one */
  bin: string;
  m: RegExpMatchArray;
}
interface Route {
  method: 'GET' | 'POST';
  path: RegExp;
  /** absent: every scheme */
  schemes?: Scheme[];
  /** v02 exists for payment/status only */
  v02?: boolean;
  run(c: Ctx): Envelope;
}

const PAYMENT_METHODS = ['Gold', 'Red', 'Loan'];

/** The device of a token, or the failure to answer. */
function device(c: Ctx, token: unknown): Device | Envelope {
  const d = c.s.devices.get(String(token ?? ''));
  // GET calls name no organization (client-info): there the token alone identifies the device.
  if (!d || (c.r.scheme === 'r3' && c.r.method === 'POST' && d.OrganizationBin !== c.bin)) return fail(-1501, 'device not found');
  if (!d.active) return fail(-1502, 'device inactive');
  return d;
}

const isAmount = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x > 0;

function createQr(c: Ctx, kind: 'qr' | 'link'): Envelope {
  const d = device(c, c.b.DeviceToken);
  if (isFailure(d)) return d;
  if (!isAmount(c.b.Amount)) return fail(990000028, 'wrong amount');
  const p = c.s.createPayment({
    Amount: c.b.Amount, OrganizationBin: d.OrganizationBin, DeviceToken: d.DeviceToken, TradePointId: d.TradePointId,
    ExternalId: c.b.ExternalId === undefined || c.b.ExternalId === null ? null : String(c.b.ExternalId), kind, PhoneNumber: null,
  });
  const t = c.s.timing;
  if (kind === 'qr') {
    return ok({
      QrToken: `https://qr.provider.example/pay/${p.QrPaymentId}`, ExpireDate: almaty(p.createdAt + t.QrCodeScanWaitTimeout * 1000),
      QrPaymentId: p.QrPaymentId, PaymentMethods: PAYMENT_METHODS,
      QrPaymentBehaviorOptions: { StatusPollingInterval: t.StatusPollingInterval, QrCodeScanWaitTimeout: t.QrCodeScanWaitTimeout, PaymentConfirmationTimeout: t.PaymentConfirmationTimeout },
    });
  }
  return ok({
    PaymentLink: `https://pay.provider.example/pay/${p.QrPaymentId}`, ExpireDate: almaty(p.createdAt + t.LinkActivationWaitTimeout * 1000),
    PaymentId: p.QrPaymentId, PaymentMethods: PAYMENT_METHODS,
    PaymentBehaviorOptions: { StatusPollingInterval: t.StatusPollingInterval, LinkActivationWaitTimeout: t.LinkActivationWaitTimeout, PaymentConfirmationTimeout: t.PaymentConfirmationTimeout },
  });
}

function status(c: Ctx): Envelope {
  const p = c.s.current(Number(c.m[1]));
  if (!p) return fail(-1601, 'purchase not found');
  // A replica behind: every second read under a flap fault still says the QR is fresh.
  const stale = c.r.fault?.kind === 'flap' && c.s.flapHits++ % 2 === 1;
  const Status = stale ? 'QrTokenCreated' : p.Status;
  if (c.r.version === 'v01') return ok({ Status });
  return ok({ Status, TransactionId: p.TransactionId, Amount: p.Amount, StoreName: `Test point ${p.TradePointId}` });
}

function paymentReturn(c: Ctx): Envelope {
  const { s, b } = c;
  if (c.r.scheme === 'r2' && (b.QrReturnId === undefined || b.QrReturnId === null)) return fail(-99000011, 'a return QR of the customer (QrReturnId) is required');
  const d = device(c, b.DeviceToken);
  if (isFailure(d)) return d;
  const p = s.current(Number(b.QrPaymentId));
  if (!p) return fail(-99000001, 'purchase not found');
  if (p.TradePointId !== d.TradePointId || p.OrganizationBin !== d.OrganizationBin) return fail(-99000003, 'purchase of another trade point');
  if (p.Status !== 'Processed') return fail(-99000011, `cannot return a purchase in status ${p.Status}`);
  if (!isAmount(b.Amount)) return fail(990000028, 'wrong amount');
  if (b.Amount > p.Amount - p.ReturnedAmount) return fail(-99000005, 'return exceeds the available amount');
  p.ReturnedAmount += b.Amount;
  return ok({ ReturnOperationId: s.returnId() });
}

function clientInfo(c: Ctx): Envelope {
  const d = device(c, c.r.query.get('deviceToken'));
  if (isFailure(d)) return d;
  if (!c.s.clientInfoAllowed(d.DeviceToken)) return fail(-999, 'too many requests');
  const phone = c.r.query.get('phoneNumber') ?? '';
  if (phone.endsWith('0000')) return fail(-1601, 'client not found');
  return ok({ ClientName: `Test Customer ${phone.slice(-4)}` });
}

function remoteCreate(c: Ctx): Envelope {
  const d = device(c, c.b.DeviceToken);
  if (isFailure(d)) return d;
  if (!isAmount(c.b.Amount)) return fail(990000028, 'wrong amount');
  const p = c.s.createPayment({
    Amount: c.b.Amount, OrganizationBin: d.OrganizationBin, DeviceToken: d.DeviceToken, TradePointId: d.TradePointId, ExternalId: null,
    kind: 'remote', PhoneNumber: String(c.b.PhoneNumber ?? ''),
  });
  return ok({ QrPaymentId: p.QrPaymentId });
}

function remoteCancel(c: Ctx): Envelope {
  const d = device(c, c.b.DeviceToken);
  if (isFailure(d)) return d;
  const p = c.s.current(Number(c.b.QrPaymentId));
  if (!p || p.kind !== 'remote') return fail(-99000001, 'purchase not found');
  if (p.Status === 'Processed') return fail(-99000011, 'already paid');
  p.Status = 'RemotePaymentCanceled';
  return ok({ Status: 'RemotePaymentCanceled' });
}

/** What the customer does in the provider's app. */
function testCall(c: Ctx): Envelope {
  const { s } = c;
  const p = s.current(Number(c.b.qrPaymentId));
  if (!p) return fail(-1601, 'purchase not found');
  const action = c.m[1];
  if (action === 'scan' || action === 'scanerror') {
    if (p.Status !== 'QrTokenCreated' && p.Status !== 'RemotePaymentCreated') return fail(-1601, `cannot scan a purchase in status ${p.Status}`);
    p.Status = action === 'scan' ? 'Wait' : 'Error';
    p.scannedAt = s.now();
    return ok();
  }
  if (p.Status !== 'Wait') return fail(-1601, `cannot confirm a purchase in status ${p.Status}`);
  if (action === 'confirmerror') {
    p.Status = 'Error';
    return ok();
  }
  p.Status = 'Processed';
  p.TransactionId = String(900000 + p.QrPaymentId);
  p.TransactionDate = almaty(s.now());
  return ok();
}

const ROUTES: Route[] = [
  { method: 'GET', path: /^health\/ping$/, run: () => ok() },
  {
    // r3 names the organization; r1 and r2 have one. An r3 call without a BIN finds no organization.
    method: 'GET', path: /^partner\/tradepoints(?:\/(\d+))?$/,
    run: (c) => (validBin(c.r.scheme === 'r3' ? c.m[1] ?? '' : DEFAULT_BIN) ? ok(TRADE_POINTS) : fail(-14000002, 'organization not found')),
  },
  {
    method: 'POST', path: /^device\/register$/,
    run: (c) => {
      if (!validBin(c.bin)) return fail(-14000002, 'organization not found');
      if (!/^[A-Za-z0-9_-]+$/.test(String(c.b.DeviceId ?? ''))) return fail(-99000002, 'bad DeviceId');
      const tp = Number(c.b.TradePointId);
      if (!TRADE_POINTS.some((t) => t.TradePointId === tp)) return fail(-99000002, 'trade point not found');
      const d = c.s.registerDevice(String(c.b.DeviceId), tp, c.bin);
      return typeof d === 'number' ? fail(d, 'device already registered on another trade point') : ok({ DeviceToken: d.DeviceToken });
    },
  },
  {
    method: 'POST', path: /^device\/delete$/,
    run: (c) => {
      const d = c.s.devices.get(String(c.b.DeviceToken ?? ''));
      if (!d || d.OrganizationBin !== c.bin) return fail(-1501, 'device not found');
      d.active = false;
      return ok();
    },
  },
  { method: 'POST', path: /^qr\/create$/, run: (c) => createQr(c, 'qr') },
  { method: 'POST', path: /^qr\/create-link$/, run: (c) => createQr(c, 'link') },
  { method: 'GET', path: /^payment\/status\/(\d+)$/, v02: true, run: status },
  {
    method: 'GET', path: /^payment\/details$/, schemes: ['r2', 'r3'],
    run: (c) => {
      const p = c.s.current(Number(c.r.query.get('QrPaymentId')));
      if (!p) return fail(-1601, 'purchase not found');
      const available = p.Status === 'Processed' ? p.Amount - p.ReturnedAmount : 0;
      return ok({ QrPaymentId: p.QrPaymentId, TotalAmount: p.Amount, AvailableReturnAmount: available, TransactionDate: p.TransactionDate });
    },
  },
  { method: 'POST', path: /^payment\/return$/, schemes: ['r2', 'r3'], run: paymentReturn },
  { method: 'GET', path: /^remote\/client-info$/, schemes: ['r3'], run: clientInfo },
  { method: 'POST', path: /^remote\/create$/, schemes: ['r3'], run: remoteCreate },
  { method: 'POST', path: /^remote\/cancel$/, schemes: ['r3'], run: remoteCancel },
  { method: 'POST', path: /^test\/payment\/(scan|confirm|scanerror|confirmerror)$/, run: testCall },
];

/** The answer to an authenticated API call; undefined when there is no such path. */
export function handle(s: EmulatorState, r: ApiRequest): Envelope | typeof NOT_IN_SCHEME | undefined {
  for (const route of ROUTES) {
    const m = r.path.match(route.path);
    if (!m || route.method !== r.method || (r.version === 'v02' && !route.v02)) continue;
    if (route.schemes && !route.schemes.includes(r.scheme)) return NOT_IN_SCHEME;
    return route.run({ s, r, b: r.body, bin: r.scheme === 'r3' ? String(r.body.OrganizationBin ?? '') : DEFAULT_BIN, m });
  }
  return undefined;
}
