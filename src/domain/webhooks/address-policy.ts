// Which addresses a webhook may reach (decisions 8). Range classification is ipaddr.js's (a maintained
// table of IANA special-purpose ranges), not hand-written masks. IPv4-mapped IPv6 forms are folded to
// IPv4 first, so ::ffff:127.0.0.1 is loopback like 127.0.0.1; forms that embed an IPv4 address otherwise
// (IPv4-compatible ::/96, NAT64, 6to4) are refused outright.
import ipaddr from 'ipaddr.js';
import { AppError } from '../../errors.ts';

/** Ranges a local/dev operator may open with WEBHOOKS_ALLOW_PRIVATE=true. */
const PRIVATE_RANGES = new Set(['loopback', 'private', 'linkLocal', 'carrierGradeNat', 'uniqueLocal']);

/** Cloud metadata endpoints stay refused even when private addresses are allowed. */
const METADATA = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);

export interface AddressVerdict {
  allowed: boolean;
  /** ipaddr.js range name ('unicast', 'loopback', 'private', ...) or 'metadata' / 'invalid' */
  range: string;
  address: string;
}

/**
 * The IPv4 address an IPv6 one carries: the deprecated IPv4-compatible ::a.b.c.d (::/96, which
 * ipaddr.js classes as unicast, so [::127.0.0.1] looked public), NAT64 64:ff9b::/96 and 6to4 2002::/16.
 */
function embeddedIPv4(v6: ipaddr.IPv6): { kind: 'ipv4Compatible' | 'rfc6052' | '6to4'; v4: ipaddr.IPv4 } | null {
  const b = v6.toByteArray();
  const range = v6.range();
  if (range === 'rfc6052') return { kind: range, v4: new ipaddr.IPv4(b.slice(12, 16)) };
  if (range === '6to4') return { kind: range, v4: new ipaddr.IPv4(b.slice(2, 6)) };
  // :: and ::1 are the unspecified and loopback addresses, not embeddings.
  if (b.slice(0, 12).every((x) => x === 0) && range !== 'unspecified' && range !== 'loopback') {
    return { kind: 'ipv4Compatible', v4: new ipaddr.IPv4(b.slice(12, 16)) };
  }
  return null;
}

/** An IPv6 address in the URL standard's serialization; as given when the URL parser refuses it (a zone id). */
function urlIPv6(ip: string): string {
  try {
    return new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  } catch {
    return ip;
  }
}

export function classifyAddress(ip: string, allowPrivate: boolean): AddressVerdict {
  if (!ipaddr.isValid(ip)) return { allowed: false, range: 'invalid', address: ip };
  // IPv6 text as the URL standard writes it: ipaddr.js reads the dotted ::127.0.0.1 as IPv4-mapped, while
  // it is IPv4-compatible (the URL parser writes it ::7f00:1).
  const raw = ipaddr.parse(ip.includes(':') ? urlIPv6(ip) : ip);
  // Looked at before process(), which folds IPv4-mapped forms to plain IPv4.
  const embedded =
    raw.kind() === 'ipv6' && !(raw as ipaddr.IPv6).isIPv4MappedAddress() ? embeddedIPv4(raw as ipaddr.IPv6) : null;
  if (embedded) {
    // Never reachable, private addresses allowed or not; an embedded metadata address is named as such.
    return {
      allowed: false,
      range: METADATA.has(embedded.v4.toString()) ? 'metadata' : embedded.kind,
      address: raw.toString(),
    };
  }
  const parsed = ipaddr.process(ip); // folds ::ffff:a.b.c.d to IPv4
  const address = parsed.toString();
  if (METADATA.has(address)) return { allowed: false, range: 'metadata', address };
  const range = parsed.range();
  // Only plain global unicast is public. Everything else (reserved, multicast, broadcast, unspecified,
  // NAT64/6to4/Teredo tunnels that can embed a private IPv4, documentation ranges...) is refused.
  if (range === 'unicast') return { allowed: true, range, address };
  return { allowed: allowPrivate && PRIVATE_RANGES.has(range), range, address };
}

export const MAX_URL_LENGTH = 2083;

/**
 * Shape checks at create/update time: https (http only when private addresses are allowed), at most
 * 2083 characters, a host, and no literal IP or localhost name that would be refused at send time
 * anyway. Names are resolved only at send time, by the connector (no rebinding window).
 */
export function validateWebhookUrl(raw: string, allowPrivate: boolean): string {
  const bad = (msg: string) => new AppError('invalid_parameter', msg, { param: 'url' });
  // What a developer trying a receiver on their own machine needs to read next (issue #40).
  const local =
    '; for a receiver on your own machine, forward test events with `tolem listen --forward-to <url>`, ' +
    'or run the server with WEBHOOKS_ALLOW_PRIVATE=true (development only)';
  if (typeof raw !== 'string' || raw.length === 0) throw bad('url is required');
  if (raw.length > MAX_URL_LENGTH) throw bad(`url must be at most ${MAX_URL_LENGTH} characters`);
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw bad('url must be an absolute URL');
  }
  if (u.protocol !== 'https:' && !(allowPrivate && u.protocol === 'http:'))
    throw bad(`url must use https${allowPrivate ? '' : local}`);
  if (!u.hostname) throw bad('url must have a host');
  if (u.hash) throw bad('url must not have a #fragment');
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) {
    const v = classifyAddress(host, allowPrivate);
    if (!v.allowed)
      throw bad(`url points to a ${v.range} address, which webhooks may not reach${allowPrivate ? '' : local}`);
  } else if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) {
    throw bad(`url points to localhost, which webhooks may not reach${local}`);
  }
  return raw;
}
