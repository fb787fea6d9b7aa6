// The provider's StatusCodes, call by call, as its integration document (v3.9) lists them, and what each
// means to Tolem (decisions 26, which amends 24). docs/provider-qrapi.md carries the same table.
//
// Outages and refusals are different things. Only an outage counts toward an account's circuit breaker
// and is retried: -999 ("service temporarily unavailable") and -99000006 ("refund error: retry, then call
// the bank") here, and no answer, a reset, TLS, HTTP 5xx or a body that is not the envelope in client.ts.
// Every other code is the provider refusing this one request: never retried, never counted, and named,
// so that a customer nobody can find never stops another payment of the same merchant.
import { ProviderRejected, ProviderSessionExpired, ProviderUnavailable, type RejectionReason } from '../types.ts';

/** What a code means for the call it answered. */
export type Meaning =
  /** the provider is not doing it now: retried where safe, counted by the breaker */
  | 'outage'
  /** the account cannot work until someone reconnects it: 503 session_expired and a notification */
  | 'session'
  | RejectionReason;

/** The calls the driver makes, by the document's path (without ids). */
export type Call =
  | 'health/ping'
  | 'partner/tradepoints'
  | 'device/register'
  | 'device/delete'
  | 'qr/create'
  | 'qr/create-link'
  | 'payment/status'
  | 'payment/details'
  | 'payment/return'
  | 'return/create'
  | 'return/status'
  | 'return/operations'
  | 'remote/client-info'
  | 'remote/create'
  | 'remote/cancel';

/** Appendix 3's meaning of each code, used where a call's own row says nothing more precise. */
const APPENDIX: Record<number, Meaning> = {
  [-999]: 'outage',
  [-99000006]: 'outage',
  [-10000]: 'session', // no client certificate (or the API key is wrong)
  [-1501]: 'session', // the account's device is not found
  [-1502]: 'session', // the account's device is inactive
  [-1503]: 'device_conflict', // the device is already on another trade point
  [-1601]: 'not_found', // purchase not found
  [-14000002]: 'session', // the organization has no trade points
  [-99000001]: 'not_found', // purchase with this id not found
  [-99000002]: 'session', // the account's trade point is not found
  [-99000003]: 'payment_not_refundable', // the purchase's trade point is not this device's
  [-99000005]: 'refund_amount_exceeds',
  [-99000011]: 'payment_not_refundable', // the purchase's status does not allow a return
  [-99000020]: 'payment_not_refundable', // a partial return is impossible
  [990000018]: 'session', // the trade point is disabled
  [990000026]: 'trade_point_refused', // the trade point does not accept QR payments
  [990000028]: 'invalid_amount',
  [990000033]: 'trade_point_refused', // no payment methods available
};

/** The customer-lookup codes the document lists without defining them (-1401, -1404, 9900000xx). */
const CUSTOMER: Record<number, Meaning> = {
  [-1401]: 'client_not_found',
  [-1404]: 'client_not_found',
  [990000029]: 'client_not_found',
  [990000031]: 'client_not_found',
  [990000032]: 'client_not_found',
};

/** Codes each call may answer (document, per call); a code in a row overrides the appendix for that call. */
export const CODES: Record<Call, Record<number, Meaning>> = {
  'health/ping': { [-999]: 'outage' },
  'partner/tradepoints': { [-999]: 'outage', [-10000]: 'session', [-14000002]: 'session' },
  'device/register': {
    [-999]: 'outage',
    [-10000]: 'session',
    [-1503]: 'device_conflict',
    // At registration the trade point is the one being chosen, not the account's: a wrong choice.
    [-99000002]: 'trade_point_not_found',
    [990000026]: 'trade_point_refused',
  },
  // Not found: the device is already gone, which is what deletion wants (the driver treats it as done).
  'device/delete': { [-999]: 'outage', [-10000]: 'session', [-1501]: 'not_found' },
  'qr/create': {
    [-999]: 'outage',
    [-10000]: 'session',
    [-1501]: 'session',
    [-1502]: 'session',
    [-99000002]: 'session',
    [990000018]: 'session',
    [990000026]: 'trade_point_refused',
    [990000028]: 'invalid_amount',
    [990000033]: 'trade_point_refused',
  },
  'qr/create-link': {
    [-999]: 'outage',
    [-10000]: 'session',
    [-1501]: 'session',
    [-1502]: 'session',
    [-99000002]: 'session',
    [990000018]: 'session',
    [990000026]: 'trade_point_refused',
    [990000028]: 'invalid_amount',
    [990000033]: 'trade_point_refused',
  },
  'payment/status': { [-999]: 'outage', [-10000]: 'session', [-1601]: 'not_found' },
  'payment/details': {
    [-999]: 'outage',
    [-10000]: 'session',
    [-1501]: 'session',
    [-1502]: 'session',
    [-1601]: 'not_found',
    [-99000001]: 'not_found',
  },
  'payment/return': {
    [-999]: 'outage',
    [-10000]: 'session',
    [-1501]: 'session',
    [-1502]: 'session',
    [-1601]: 'not_found',
    [-99000001]: 'not_found',
    [-99000002]: 'session',
    [-99000003]: 'payment_not_refundable',
    [-99000005]: 'refund_amount_exceeds',
    [-99000006]: 'outage',
    [-99000011]: 'payment_not_refundable',
    [-99000020]: 'payment_not_refundable',
    [990000018]: 'session',
  },
  'return/create': { [-999]: 'outage', [-10000]: 'session', [-1501]: 'session', [-1502]: 'session' },
  'return/status': { [-999]: 'outage', [-10000]: 'session', [-1601]: 'not_found' },
  'return/operations': {
    [-999]: 'outage',
    [-10000]: 'session',
    [-1501]: 'session',
    [-1502]: 'session',
    [-1601]: 'not_found',
  },
  'remote/client-info': {
    [-999]: 'outage',
    [-1501]: 'session',
    [-99000002]: 'session',
    [990000018]: 'session',
    ...CUSTOMER,
  },
  'remote/create': {
    [-999]: 'outage',
    [-1501]: 'session',
    [-99000002]: 'session',
    [990000018]: 'session',
    [990000028]: 'invalid_amount',
    ...CUSTOMER,
    [99000010]: 'refused',
  },
  // Any refusal of a cancel is followed by a status read (decisions 26), so these only need to be refusals.
  'remote/cancel': {
    [-999]: 'outage',
    [-1501]: 'session',
    [-99000002]: 'session',
    [990000018]: 'session',
    [-1401]: 'refused',
    [-1404]: 'refused',
    [-99000001]: 'not_found',
  },
};

/**
 * One code whichever sign and width it comes in: the document writes -99000005 and 990000028, public
 * clients write 99000005, -990000028, and -99000018 for 990000018 (a digit short). Returns the
 * document's spelling.
 */
export function normalizeCode(code: number): number {
  const abs = Math.abs(code);
  if (abs === 0) return 0;
  if (abs >= 990_000_000 && abs < 1_000_000_000) return abs; // 9900000xx: positive in appendix 3
  if (abs >= 99_000_000 && abs < 100_000_000) {
    // 99000018/26/28/29/31/32/33 are the 9900000xx codes written a digit short (public clients do).
    const long = 990_000_000 + (abs - 99_000_000);
    if (abs !== 99_000_010 && (APPENDIX[long] !== undefined || CUSTOMER[long] !== undefined)) return long;
    if (abs === 99_000_010) return 99_000_010; // remote/create's own code, positive in the document
    return -abs; // -990000xx family: negative in appendix 3
  }
  return code;
}

/** What `raw` means for `call`: its row, else the appendix, else a code nobody documents (null). */
export function meaningOf(call: Call, raw: number): Meaning | null {
  const code = normalizeCode(raw);
  return CODES[call][code] ?? APPENDIX[code] ?? CUSTOMER[code] ?? null;
}

/** The error a non-zero StatusCode of `call` becomes. */
export function errorForCode(call: Call, raw: number, message: string | undefined): Error {
  const text = `provider StatusCode ${raw} on ${call}${message ? `: ${message}` : ''}`;
  const meaning = meaningOf(call, raw);
  if (meaning === 'outage') return new ProviderUnavailable(text);
  if (meaning === 'session') return new ProviderSessionExpired(text);
  // A code nobody documents is still an answer: the provider is up and refused this request.
  return new ProviderRejected(meaning ?? 'undocumented', text, raw);
}
