// Verifying a webhook delivery, in Node 20+ and browsers (Web Crypto). Tolem signs each delivery twice:
//  - Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature "v1,<base64 HMAC-SHA256 of
//    '<id>.<timestamp>.<body>'>" (space-separated while a rotated secret's grace period lasts), the key the
//    base64 after "whsec_";
//  - its own: X-Webhook-Timestamp and X-Webhook-Signature "sha256=<hex HMAC-SHA256 of '<timestamp>.<body>'>",
//    the key the whole secret text.
// Either is enough; the timestamp must be within the tolerance (default 5 minutes) to refuse replays.
import type { webhooks } from './schema.js';

export type WebhookEventType = keyof webhooks;
type Payload<K extends WebhookEventType> = webhooks[K] extends {
  post: { requestBody?: { content: { 'application/json': infer B } } };
}
  ? B
  : never;
/** A delivered event, typed by its `type`. */
export type WebhookEvent = { [K in WebhookEventType]: Payload<K> }[WebhookEventType];

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export interface VerifyOptions {
  /** seconds either side of now (default 300) */
  tolerance?: number;
  /** milliseconds since the epoch (tests) */
  now?: number;
  /** only this scheme; by default Standard Webhooks when its headers are there, else Tolem's own */
  scheme?: 'standard' | 'tolem';
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function header(h: HeaderBag, name: string): string | undefined {
  if (typeof (h as Headers).get === 'function') return (h as Headers).get(name) ?? undefined;
  const bag = h as Record<string, string | string[] | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : bag[key];
  return Array.isArray(v) ? v[0] : v;
}

const encoder = new TextEncoder();

async function hmac(key: Uint8Array, text: string): Promise<Uint8Array> {
  const k = await globalThis.crypto.subtle.importKey(
    'raw',
    key as BufferSource,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  return new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', k, encoder.encode(text)));
}

function fromBase64(b64: string): Uint8Array {
  const bin = atob(b64.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** Compares without an early exit, so the time taken tells nothing about where a guess went wrong. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function checkTime(ts: string | undefined, o: VerifyOptions): void {
  if (!ts || !/^\d+$/.test(ts)) throw new WebhookVerificationError('the timestamp header is missing or malformed');
  const skew = Math.abs((o.now ?? Date.now()) / 1000 - Number(ts));
  if (skew > (o.tolerance ?? 300))
    throw new WebhookVerificationError('the timestamp is outside the tolerance: a replay, or a clock far off');
}

/**
 * The event of a delivery whose signature is good; else WebhookVerificationError. `rawBody` is the body
 * exactly as received (not re-serialized JSON).
 */
export async function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: HeaderBag,
  secret: string,
  o: VerifyOptions = {},
): Promise<WebhookEvent> {
  const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  if (!secret.startsWith('whsec_')) throw new WebhookVerificationError('the secret must start with whsec_');
  const standard = header(headers, 'webhook-signature');
  const scheme = o.scheme ?? (standard ? 'standard' : 'tolem');
  if (scheme === 'standard') {
    const id = header(headers, 'webhook-id');
    const ts = header(headers, 'webhook-timestamp');
    if (!id || !standard) throw new WebhookVerificationError('webhook-id and webhook-signature headers are required');
    checkTime(ts, o);
    const expected = toBase64(await hmac(fromBase64(secret.slice(6)), `${id}.${ts}.${body}`));
    const good = standard.split(' ').some((s) => s.startsWith('v1,') && sameText(s.slice(3), expected));
    if (!good) throw new WebhookVerificationError('no webhook-signature matches this secret');
  } else {
    const ts = header(headers, 'x-webhook-timestamp');
    const sig = header(headers, 'x-webhook-signature');
    if (!sig) throw new WebhookVerificationError('the X-Webhook-Signature header is required');
    checkTime(ts, o);
    const expected = `sha256=${toHex(await hmac(encoder.encode(secret), `${ts}.${body}`))}`;
    if (!sameText(sig, expected)) throw new WebhookVerificationError('X-Webhook-Signature does not match this secret');
  }
  try {
    return JSON.parse(body) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
}

/** Signs a body as Tolem does (both schemes): for forwarding events (the CLI's listen) and for tests. */
export async function signWebhook(
  body: string,
  secret: string,
  id: string,
  timestamp = Math.floor(Date.now() / 1000),
): Promise<Record<string, string>> {
  const ts = String(timestamp);
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': ts,
    'webhook-signature': `v1,${toBase64(await hmac(fromBase64(secret.slice(6)), `${id}.${ts}.${body}`))}`,
    'x-webhook-id': id,
    'x-webhook-timestamp': ts,
    'x-webhook-signature': `sha256=${toHex(await hmac(encoder.encode(secret), `${ts}.${body}`))}`,
  };
}
