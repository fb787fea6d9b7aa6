// The checkout visitor: one browser, known by an httpOnly cookie holding a random id (no personal data).
// The cookie is what lets a reload show the same QR instead of creating a new payment every time.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBase62 } from '../../crypto.ts';

export const VISITOR_COOKIE = 'tolem_cv';
const ID_RE = /^[0-9A-Za-z]{22}$/;
const MAX_AGE_S = 30 * 24 * 3600;

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The visitor id of this request; a new one (and its Set-Cookie) when the browser has none. Path=/ so
 * that both the page (/checkout/...) and its API (/v2/checkout/...) see it; Secure when the service is
 * served over https; SameSite=Lax so that a payer arriving from the merchant's site keeps it.
 */
export function visitorOf(req: FastifyRequest, reply: FastifyReply, publicBaseUrl: string): string {
  const existing = readCookie(req.headers.cookie, VISITOR_COOKIE);
  if (existing && ID_RE.test(existing)) return existing;
  const id = randomBase62(22);
  const secure = publicBaseUrl.startsWith('https:') ? '; Secure' : '';
  reply.header('Set-Cookie', `${VISITOR_COOKIE}=${id}; Path=/; Max-Age=${MAX_AGE_S}; HttpOnly; SameSite=Lax${secure}`);
  return id;
}
