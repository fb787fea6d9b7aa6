// The official paths of r1, r2 and r3 (integration document v3.9) over the emulator's state, plus its
// test calls. Each handler answers the envelope {StatusCode, Message?, Data?}; the server has checked
// the credentials, applied the transport faults and read the request leniently before. Refunds and the
// return QR are in returns.ts, the remote calls in remote.ts.
import { formatProviderDate, type DateForm } from './dates.ts';
import { fail, isFailure, ok, type Envelope } from './envelope.ts';
import { DEFAULT_BIN, storeOf, TRADE_POINTS, validBin } from './organizations.ts';
import {
  DEFAULT_CUSTOMER,
  device,
  idOf,
  isAmount,
  refusedAt,
  textOf,
  type ApiRequest,
  type Ctx,
  type Route,
} from './context.ts';
import { REMOTE_ROUTES } from './remote.ts';
import { RETURN_ROUTES } from './returns.ts';
import type { EmulatorState } from './state.ts';

export type { ApiRequest, Scheme } from './context.ts';
export type { Envelope } from './envelope.ts';

/** An operation the scheme does not have: HTTP 404 with StatusCode -1. */
export const NOT_IN_SCHEME = Symbol('not in scheme');

const PAYMENT_METHODS = ['Gold', 'Red', 'Loan'];

function createQr(c: Ctx, kind: 'qr' | 'link'): Envelope {
  const d = device(c, c.b.DeviceToken);
  if (isFailure(d)) return d;
  const refused = refusedAt(c, d, 'qr');
  if (refused) return refused;
  if (!isAmount(c.b.Amount)) return fail(990000028, 'wrong amount');
  const p = c.s.createPayment({
    Amount: c.b.Amount,
    OrganizationBin: d.OrganizationBin,
    DeviceToken: d.DeviceToken,
    TradePointId: d.TradePointId,
    ExternalId: textOf(c.b.ExternalId),
    kind,
    PhoneNumber: null,
  });
  const t = c.s.timing;
  if (kind === 'qr') {
    return ok({
      QrToken: p.QrToken,
      ExpireDate: c.date(p.createdAt + t.QrCodeScanWaitTimeout * 1000),
      QrPaymentId: p.QrPaymentId,
      PaymentMethods: PAYMENT_METHODS,
      QrPaymentBehaviorOptions: {
        StatusPollingInterval: t.StatusPollingInterval,
        QrCodeScanWaitTimeout: t.QrCodeScanWaitTimeout,
        PaymentConfirmationTimeout: t.PaymentConfirmationTimeout,
      },
    });
  }
  // A pay link is a provider payment of its own, opened in the provider's app from a web page.
  return ok({
    PaymentLink: `https://pay.provider.example/pay/${p.QrPaymentId}`,
    ExpireDate: c.date(p.createdAt + t.LinkActivationWaitTimeout * 1000),
    PaymentId: p.QrPaymentId,
    PaymentMethods: PAYMENT_METHODS,
    PaymentBehaviorOptions: {
      StatusPollingInterval: t.StatusPollingInterval,
      LinkActivationWaitTimeout: t.LinkActivationWaitTimeout,
      PaymentConfirmationTimeout: t.PaymentConfirmationTimeout,
    },
  });
}

/**
 * v01 is `{Status}`; v02 (not in the document, read by public clients) adds the payment's transaction,
 * amount, product and store. Product and transaction are null until it is paid.
 */
function status(c: Ctx): Envelope {
  const p = c.s.current(Number(c.m[1]));
  if (!p) return fail(-1601, 'purchase not found');
  // A replica behind: every second read under a flap fault still says the QR is fresh.
  const stale = c.r.fault?.kind === 'flap' && c.s.flapHits++ % 2 === 1;
  const Status = stale ? 'QrTokenCreated' : p.Status;
  if (c.r.version === 'v01') return ok({ Status });
  const product = stale ? null : p.productType;
  return ok({
    Status,
    TransactionId: stale ? null : p.TransactionId,
    Amount: p.Amount,
    ProductType: product,
    LoanOfferName: product === 'Loan' ? 'Installment 0-0-12' : null,
    LoanTerm: product === 'Loan' ? 12 : null,
    IsOffer: false,
    ...storeOf(p.TradePointId),
  });
}

/**
 * What the customer does in the provider's app. `confirm` takes who pays (`customer`, default
 * "customer-1"; a return QR they scan later finds this purchase) and how (`productType` "Gold" or "Loan").
 */
function testCall(c: Ctx): Envelope {
  const { s } = c;
  const p = s.current(idOf(c.b.qrPaymentId));
  if (!p) return fail(-1601, 'purchase not found');
  const action = c.m[1];
  if (action === 'scan' || action === 'scanerror') {
    if (p.Status !== 'QrTokenCreated' && p.Status !== 'RemotePaymentCreated')
      return fail(-1601, `cannot scan a purchase in status ${p.Status}`);
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
  p.paidAt = s.now();
  p.customer = textOf(c.b.customer) ?? DEFAULT_CUSTOMER;
  p.productType = c.b.productType === 'Loan' ? 'Loan' : 'Gold';
  return ok();
}

function register(c: Ctx): Envelope {
  if (!validBin(c.bin)) return fail(-14000002, 'organization not found');
  if (!/^[A-Za-z0-9_-]+$/.test(String(c.b.DeviceId ?? ''))) return fail(-99000002, 'bad DeviceId');
  // The document's Int64; public clients send it as a digit string too.
  const tp = idOf(c.b.TradePointId);
  if (!TRADE_POINTS.some((t) => t.TradePointId === tp)) return fail(-99000002, 'trade point not found');
  // No device yet: the trade point it names is the one whose state counts.
  const refused = refusedAt(c, { OrganizationBin: c.bin, TradePointId: tp }, 'register');
  if (refused) return refused;
  const d = c.s.registerDevice(String(c.b.DeviceId), tp, c.bin);
  return typeof d === 'number'
    ? fail(d, 'device already registered on another trade point')
    : ok({ DeviceToken: d.DeviceToken });
}

const ROUTES: Route[] = [
  { method: 'GET', path: /^health\/ping$/, run: () => ok() },
  {
    // r3 names the organization; r1 and r2 have one. An r3 call without a BIN finds no organization.
    method: 'GET',
    path: /^partner\/tradepoints(?:\/(\d+))?$/,
    run: (c) =>
      validBin(c.r.scheme === 'r3' ? (c.m[1] ?? '') : DEFAULT_BIN)
        ? ok(TRADE_POINTS)
        : fail(-14000002, 'organization not found'),
  },
  { method: 'POST', path: /^device\/register$/, run: register },
  {
    method: 'POST',
    path: /^device\/delete$/,
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
  { method: 'POST', path: /^test\/payment\/(scan|confirm|scanerror|confirmerror)$/, run: testCall },
  ...RETURN_ROUTES,
  ...REMOTE_ROUTES,
];

/** The answer to an authenticated API call; undefined when there is no such path. */
export function handle(s: EmulatorState, r: ApiRequest): Envelope | typeof NOT_IN_SCHEME | undefined {
  for (const route of ROUTES) {
    const m = r.path.match(route.path);
    if (!m || route.method !== r.method || (r.version === 'v02' && !route.v02)) continue;
    if (route.schemes && !route.schemes.includes(r.scheme)) return NOT_IN_SCHEME;
    // One form for all the dates of an answer, taken when the first is written: under `vary` the forms
    // then go round per answer that has a date, whatever else the driver asks in between.
    let form: DateForm | undefined;
    const date = (ms: number) =>
      formatProviderDate(
        ms,
        (form ??= s.dateForm(r.fault?.kind === 'date_vary' ? 'vary' : undefined)),
        s.utcOffsetHours,
      );
    return route.run({
      s,
      r,
      b: r.body,
      bin: r.scheme === 'r3' ? String(r.body.OrganizationBin ?? '') : DEFAULT_BIN,
      m,
      date,
    });
  }
  return undefined;
}
