// What every client of an outside service (the provider's gateway and official API, the cash registers) needs
// to tell of a failed call, and which CAs it trusts. One list, so that the line between "nothing was sent"
// (safe to send again) and "it may have been acted on" is drawn the same way everywhere.
import { rootCertificates } from 'node:tls';

/** Failures of the connection itself (undici's and the resolver's codes): nothing reached the service. */
export const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** A TLS handshake or certificate failure: the request never left. */
export const TLS_FAILURE = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL)/;
/** undici's words for a TLS session the other side closed before it was established. */
export const TLS_NOT_ESTABLISHED = /before secure TLS connection was established/i;

/**
 * A service's own CA beside the well-known ones, never instead of them: a proxy or a production host with
 * a public certificate keeps working when the configured CA is a test one. Undefined: Node's default.
 */
export function trustedCas(ca: string | undefined): string[] | undefined {
  return ca ? [...rootCertificates, ca] : undefined;
}
