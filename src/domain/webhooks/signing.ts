// Webhook secrets and the two signatures of a delivery (spec Events; decisions 8):
//  - X-Webhook-Signature: sha256=<hex HMAC-SHA256 over "<timestamp>.<body>">, key = the whole secret
//    string as UTF-8; always the current secret only.
//  - Standard Webhooks: webhook-signature "v1,<base64>" over "<msg id>.<timestamp>.<body>", key = the
//    base64-decoded part after "whsec_"; during a rotation grace period the previous secret's signature
//    follows, space-separated. Signed with node:crypto: the standardwebhooks library computes SHA-256 in
//    JavaScript, a measurable share of the delivery worker's CPU; the tests verify what we send with
//    that library, so the two cannot drift apart.
import { createHmac, randomBytes } from 'node:crypto';
import { AppError } from '../../errors.ts';
import { hmacHex } from '../../crypto.ts';

export const SECRET_PREFIX = 'whsec_';
export const USER_AGENT = 'Tolem/1.0';

/**
 * `whsec_` + 32 CSPRNG bytes in base64. The bytes are redrawn until the encoding is letters and digits
 * only, so the text is at once base64url and standard base64 (~254 bits of entropy remain), and it keeps its
 * '=' padding: every Standard Webhooks library (JS, Python's b64decode, Go's StdEncoding) then reads
 * `new Webhook(secret)` as is.
 */
export function generateSecret(): string {
  for (;;) {
    const b64 = randomBytes(32).toString('base64');
    if (!/[+/]/.test(b64)) return SECRET_PREFIX + b64;
  }
}

/** Key bytes of the Standard Webhooks signature; accepts either base64 alphabet, padded or not. */
export function standardKey(secret: string): Buffer {
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

/**
 * A secret chosen by the merchant must have the standard form, so both signatures can use it, and every
 * receiver's library reads the same key: Node would also decode base64url or unpadded text, the
 * Python and Go libraries would not.
 */
export function validateSecret(secret: string): string {
  const bad = () =>
    new AppError('invalid_parameter', 'secret must be "whsec_" followed by 24 to 64 bytes in standard, padded base64', {
      param: 'secret',
    });
  if (!secret.startsWith(SECRET_PREFIX)) throw bad();
  const b64 = secret.slice(SECRET_PREFIX.length);
  // Standard, padded base64 is the text that decoding and encoding again gives back unchanged: what the
  // strict decoders (Python's b64decode, Go's StdEncoding) take.
  if (Buffer.from(b64, 'base64').toString('base64') !== b64) throw bad();
  const n = standardKey(secret).length;
  if (n < 24 || n > 64) throw bad();
  return secret;
}

export function specSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${hmacHex(secret, `${timestamp}.${body}`)}`;
}

export function standardSignature(secret: string, msgId: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', standardKey(secret)).update(`${msgId}.${timestamp}.${body}`).digest('base64')}`;
}

export interface SignInput {
  secret: string;
  /** the previous secret while its grace period lasts */
  previousSecret?: string | null;
  messageId: string;
  eventType: string;
  /** Unix seconds */
  timestamp: number;
  body: string;
}

/** Every header of one delivery attempt. */
export function deliveryHeaders(i: SignInput): Record<string, string> {
  const standard = [standardSignature(i.secret, i.messageId, i.timestamp, i.body)];
  if (i.previousSecret) standard.push(standardSignature(i.previousSecret, i.messageId, i.timestamp, i.body));
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-webhook-id': i.messageId,
    'x-webhook-event': i.eventType,
    'x-webhook-timestamp': String(i.timestamp),
    'x-webhook-signature': specSignature(i.secret, i.timestamp, i.body),
    'webhook-id': i.messageId,
    'webhook-timestamp': String(i.timestamp),
    'webhook-signature': standard.join(' '),
  };
}
