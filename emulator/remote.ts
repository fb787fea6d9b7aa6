// r3's remote calls (document p.36-38): customer lookup by phone, invoices, and their cancellation. Each
// answers only the codes the document lists for it. The customer codes have no meaning given anywhere in
// the document, so the emulator makes each reachable by the phone's last four digits:
//   0000 -> -1401   0001 -> -1404   0002 -> 990000029   0003 -> 990000031   0004 -> 990000032
// remote/client-info answers all five. remote/create lists -1401, -1404 and 990000032 but not 990000029
// or 990000031, so endings 0002 and 0003 make an invoice there; a phone ending 0010 answers 99000010,
// which only remote/create lists (positive, as the document writes it).
import { fail, isFailure, ok, type Envelope } from './envelope.ts';
import { device, idOf, isAmount, refusedAt, type Ctx, type Route } from './context.ts';

const LOOKUP_CODES: Record<string, number> = {
  '0000': -1401,
  '0001': -1404,
  '0002': 990000029,
  '0003': 990000031,
  '0004': 990000032,
};
const CREATE_CODES: Record<string, number> = { '0000': -1401, '0001': -1404, '0004': 990000032, '0010': 99000010 };

const ending = (phone: unknown) =>
  String(phone ?? '')
    .replace(/\D/g, '')
    .slice(-4);

function phoneRefusal(codes: Record<string, number>, phone: unknown): Envelope | undefined {
  const code = codes[ending(phone)];
  return code === undefined
    ? undefined
    : fail(code, `the customer of this phone cannot be served (code ${code}; its meaning is not in the document)`);
}

function clientInfo(c: Ctx): Envelope {
  const d = device(c, c.r.query.get('deviceToken'));
  if (isFailure(d)) return d;
  const refused = refusedAt(c, d, 'money');
  if (refused) return refused;
  // Refused lookups count toward the limit too: the provider counts calls, not customers found.
  if (!c.s.clientInfoAllowed(d.DeviceToken)) return fail(-999, 'too many requests');
  const phone = c.r.query.get('phoneNumber') ?? '';
  return phoneRefusal(LOOKUP_CODES, phone) ?? ok({ ClientName: `Test Customer ${ending(phone)}` });
}

function remoteCreate(c: Ctx): Envelope {
  const d = device(c, c.b.DeviceToken);
  if (isFailure(d)) return d;
  const refused =
    refusedAt(c, d, 'money') ??
    (isAmount(c.b.Amount) ? undefined : fail(990000028, 'wrong amount')) ??
    phoneRefusal(CREATE_CODES, c.b.PhoneNumber);
  if (refused) return refused;
  const p = c.s.createPayment({
    Amount: c.b.Amount as number,
    OrganizationBin: d.OrganizationBin,
    DeviceToken: d.DeviceToken,
    TradePointId: d.TradePointId,
    ExternalId: null,
    kind: 'remote',
    PhoneNumber: String(c.b.PhoneNumber ?? ''),
  });
  return ok({ QrPaymentId: p.QrPaymentId });
}

/**
 * The document lists 0, -999, -1401, -1404, -1501, -99000001, -99000002 and 990000018 for remote/cancel:
 * an invoice that cannot be cancelled any more (paid, cancelled already, expired) is -1404, an id that is
 * no invoice -99000001. One the customer has opened but not paid (Wait) can still be cancelled.
 */
function remoteCancel(c: Ctx): Envelope {
  const d = device(c, c.b.DeviceToken);
  if (isFailure(d)) return d;
  const refused = refusedAt(c, d, 'money');
  if (refused) return refused;
  const p = c.s.current(idOf(c.b.QrPaymentId));
  if (!p || p.kind !== 'remote') return fail(-99000001, 'purchase not found');
  if (p.Status !== 'RemotePaymentCreated' && p.Status !== 'Wait')
    return fail(-1404, `the invoice cannot be cancelled in status ${p.Status}`);
  p.Status = 'RemotePaymentCanceled';
  return ok({ Status: 'RemotePaymentCanceled' });
}

export const REMOTE_ROUTES: Route[] = [
  { method: 'GET', path: /^remote\/client-info$/, schemes: ['r3'], run: clientInfo },
  { method: 'POST', path: /^remote\/create$/, schemes: ['r3'], run: remoteCreate },
  { method: 'POST', path: /^remote\/cancel$/, schemes: ['r3'], run: remoteCancel },
];
