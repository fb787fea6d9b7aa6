// The provider's StatusCodes (integration document v3.9, appendix 3) and what each means to Tolem
// (decisions 24). The 99... codes are accepted with either sign: public clients write both.
import { ProviderRejected, ProviderSessionExpired, ProviderUnavailable } from '../types.ts';

/** -999: "service temporarily unavailable", the one code the document calls transient. */
export const TRANSIENT = -999;

const SESSION = new Set([-10000, -1501, -1502, -14000002, -99000002, 990000018]);
const NOT_REFUNDABLE = new Set([-99000011, -99000020, -99000003]);
const NOT_FOUND = new Set([-1601, -99000001]);

/** 99000005 and -99000005 are one code (the document and public clients disagree on the sign). */
export function normalizeCode(code: number): number {
  const abs = Math.abs(code);
  if (abs >= 99_000_000 && abs < 100_000_000) return -abs; // -99000005 family: negative in appendix 3
  if (abs >= 990_000_000 && abs < 1_000_000_000) return abs; // 990000018 family: positive in appendix 3
  return code;
}

/** The error a non-zero StatusCode becomes. */
export function errorForCode(raw: number, message: string | undefined): Error {
  const code = normalizeCode(raw);
  const text = `provider StatusCode ${raw}${message ? `: ${message}` : ''}`;
  if (SESSION.has(code)) return new ProviderSessionExpired(text);
  if (code === 990000028) return new ProviderRejected('invalid_amount', text);
  if (code === -99000005) return new ProviderRejected('refund_amount_exceeds', text);
  if (NOT_REFUNDABLE.has(code)) return new ProviderRejected('payment_not_refundable', text);
  if (NOT_FOUND.has(code)) return new ProviderRejected('not_found', text);
  // -999, -99000006 and codes the document never defines: the provider is not doing it now.
  return new ProviderUnavailable(text);
}
