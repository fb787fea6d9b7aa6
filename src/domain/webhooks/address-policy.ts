// Which addresses a webhook may reach (decisions 8). Range classification is ipaddr.js's (a maintained
// table of IANA special-purpose ranges), not hand-written masks. IPv4-mapped and IPv4-compatible IPv6
// forms are folded to IPv4 first, so ::ffff:127.0.0.1 is loopback like 127.0.0.1.
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

export function classifyAddress(ip: string, allowPrivate: boolean): AddressVerdict {
  if (!ipaddr.isValid(ip)) return { allowed: false, range: 'invalid', address: ip };
  const parsed = ipaddr.process(ip); // folds ::ffff:a.b.c.d (and ::a.b.c.d) to IPv4
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
  if (typeof raw !== 'string' || raw.length === 0) throw bad('url is required');
  if (raw.length > MAX_URL_LENGTH) throw bad(`url must be at most ${MAX_URL_LENGTH} characters`);
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw bad('url must be an absolute URL');
  }
  if (u.protocol !== 'https:' && !(allowPrivate && u.protocol === 'http:')) throw bad('url must use https');
  if (!u.hostname) throw bad('url must have a host');
  if (u.hash) throw bad('url must not have a #fragment');
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) {
    const v = classifyAddress(host, allowPrivate);
    if (!v.allowed) throw bad(`url points to a ${v.range} address, which webhooks may not reach`);
  } else if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) {
    throw bad('url points to localhost, which webhooks may not reach');
  }
  return raw;
}
