// Refunds (document p.22-25 and 35-36). r2 returns money only with the customer present: the cashier
// shows a return QR (return/create), the customer scans it in the provider's app, which tells the
// provider who they are (return/status CustomerIdentityObtained), the cashier lists that customer's
// purchases here (return/operations) and returns one of them (payment/return with QrReturnId). r3 returns
// without the customer (no QrReturnId); it may use the return QR too. The customer's side is the
// emulator's own test calls test/return/scan|scanerror, like test/payment/*.
import { fail, isFailure, ok, type Envelope } from './envelope.ts';
import { DEFAULT_CUSTOMER, device, idOf, isAmount, refusedAt, textOf, type Ctx, type Route } from './context.ts';
import type { Device, QrReturn } from './state.ts';

const MAX_OPERATIONS = 10;

function returnCreate(c: Ctx): Envelope {
  const d = device(c, c.b.DeviceToken);
  if (isFailure(d)) return d;
  const r = c.s.createReturn(d, textOf(c.b.ExternalId));
  const t = c.s.timing;
  return ok({
    QrToken: r.QrToken,
    ExpireDate: c.date(r.createdAt + t.ReturnScanWaitTimeout * 1000),
    QrReturnId: r.QrReturnId,
    QrReturnBehaviorOptions: {
      QrCodeScanEventPollingInterval: t.QrCodeScanEventPollingInterval,
      QrCodeScanWaitTimeout: t.ReturnScanWaitTimeout,
    },
  });
}

function returnStatus(c: Ctx): Envelope {
  const r = c.s.currentReturn(Number(c.m[1]));
  // The document lists no codes for the return calls; an unknown id is answered as payment/status does.
  return r ? ok({ Status: r.Status }) : fail(-1601, 'return not found');
}

/** The return QR named by the body, if it was made at the device's trade point. */
function returnAt(c: Ctx, d: Device): QrReturn | undefined {
  const r = c.s.currentReturn(idOf(c.b.QrReturnId));
  return r && r.OrganizationBin === d.OrganizationBin && r.TradePointId === d.TradePointId ? r : undefined;
}

/** The customer's paid purchases at this trade point, newest first, at most MaxResult (<= 10). */
function returnOperations(c: Ctx): Envelope {
  const d = device(c, c.b.DeviceToken);
  if (isFailure(d)) return d;
  const r = returnAt(c, d);
  if (!r) return fail(-1601, 'return not found');
  // Before the customer has scanned, nobody's purchases can be found: the document's -1601.
  if (r.Status !== 'CustomerIdentityObtained')
    return fail(-1601, `no customer yet: the return is in status ${r.Status}`);
  // Taken as the provider's reader probably does: a missing, bad or too large MaxResult is read as 10.
  const asked = idOf(c.b.MaxResult);
  const max = asked >= 1 ? Math.min(asked, MAX_OPERATIONS) : MAX_OPERATIONS;
  const mine = [...c.s.payments.keys()]
    .map((id) => c.s.current(id)!)
    .filter(
      (p) =>
        p.Status === 'Processed' &&
        p.customer === r.customer &&
        p.OrganizationBin === d.OrganizationBin &&
        p.TradePointId === d.TradePointId,
    );
  mine.sort((a, b) => b.paidAt! - a.paidAt! || b.QrPaymentId - a.QrPaymentId);
  return ok(
    mine
      .slice(0, max)
      .map((p) => ({ QrPaymentId: p.QrPaymentId, Amount: p.Amount, TransactionDate: c.date(p.paidAt!) })),
  );
}

/**
 * A return of a paid purchase. On r2 (and on r3 when it names one) it needs a return QR of this trade
 * point whose customer is known and which served no return before; otherwise -99000011, the document's
 * "cannot return in this state", since it is the return, not the purchase, that is in the wrong state. A
 * purchase the QR's customer did not make is -99000001 ("no purchase with this id"): from that customer's
 * side there is none, as return/operations would not have listed it.
 */
function paymentReturn(c: Ctx): Envelope {
  const { s, b } = c;
  const named = b.QrReturnId !== undefined && b.QrReturnId !== null;
  if (c.r.scheme === 'r2' && !named) return fail(-99000011, 'a return QR of the customer (QrReturnId) is required');
  const d = device(c, b.DeviceToken);
  if (isFailure(d)) return d;
  const refused = refusedAt(c, d, 'money');
  if (refused) return refused;
  const r = named ? returnAt(c, d) : undefined;
  if (named && (!r || r.Status !== 'CustomerIdentityObtained' || r.used)) {
    return fail(
      -99000011,
      r
        ? r.used
          ? 'the return QR has served a return already'
          : `the return is in status ${r.Status}`
        : 'return not found',
    );
  }
  const p = s.current(idOf(b.QrPaymentId));
  if (!p) return fail(-99000001, 'purchase not found');
  if (p.TradePointId !== d.TradePointId || p.OrganizationBin !== d.OrganizationBin)
    return fail(-99000003, 'purchase of another trade point');
  if (r && p.customer !== r.customer) return fail(-99000001, "purchase not found among the customer's purchases");
  if (p.Status !== 'Processed') return fail(-99000011, `cannot return a purchase in status ${p.Status}`);
  if (!isAmount(b.Amount)) return fail(990000028, 'wrong amount');
  if (b.Amount > p.Amount - p.ReturnedAmount) return fail(-99000005, 'return exceeds the available amount');
  p.ReturnedAmount += b.Amount;
  if (r) r.used = true;
  return ok({ ReturnOperationId: s.returnOperationId() });
}

function paymentDetails(c: Ctx): Envelope {
  const p = c.s.current(idOf(c.r.query.get('QrPaymentId')));
  if (!p) return fail(-1601, 'purchase not found');
  const available = p.Status === 'Processed' ? p.Amount - p.ReturnedAmount : 0;
  return ok({
    QrPaymentId: p.QrPaymentId,
    TotalAmount: p.Amount,
    AvailableReturnAmount: available,
    TransactionDate: p.paidAt === null ? null : c.date(p.paidAt),
  });
}

/**
 * The customer scans the return QR (test/return/scan) or the scan fails (scanerror). The customer is
 * `customer` if given, else whoever paid `qrPaymentId` if given, else "customer-1".
 */
function testReturn(c: Ctx): Envelope {
  const r = c.s.currentReturn(idOf(c.b.qrReturnId));
  if (!r) return fail(-1601, 'return not found');
  if (r.Status !== 'QrTokenCreated') return fail(-1601, `cannot scan a return in status ${r.Status}`);
  if (c.m[1] === 'scanerror') {
    r.Status = 'Error';
    return ok();
  }
  let customer = textOf(c.b.customer);
  if (customer === null && c.b.qrPaymentId !== undefined && c.b.qrPaymentId !== null) {
    const p = c.s.current(idOf(c.b.qrPaymentId));
    if (!p) return fail(-1601, 'purchase not found');
    if (p.customer === null) return fail(-1601, `the purchase in status ${p.Status} has no customer`);
    customer = p.customer;
  }
  r.customer = customer ?? DEFAULT_CUSTOMER;
  r.Status = 'CustomerIdentityObtained';
  return ok();
}

export const RETURN_ROUTES: Route[] = [
  { method: 'GET', path: /^payment\/details$/, schemes: ['r2', 'r3'], run: paymentDetails },
  { method: 'POST', path: /^payment\/return$/, schemes: ['r2', 'r3'], run: paymentReturn },
  { method: 'POST', path: /^return\/create$/, schemes: ['r2', 'r3'], run: returnCreate },
  { method: 'GET', path: /^return\/status\/(\d+)$/, schemes: ['r2', 'r3'], run: returnStatus },
  { method: 'POST', path: /^return\/operations$/, schemes: ['r2', 'r3'], run: returnOperations },
  { method: 'POST', path: /^test\/return\/(scan|scanerror)$/, run: testReturn },
];
