// The merchant's logo as bytes, for documents Tolem renders itself (the printable poster). A browser loads the
// logo from the merchant's host; a server fetching a merchant-given URL is a request forgery risk, so the fetch
// goes through the webhooks' guarded connector (public addresses only, the address checked is the one
// connected to), follows no redirect (undici's request never does), takes at most LOGO_TIMEOUT_MS and
// LOGO_MAX_BYTES, and keeps only a PNG or JPEG (what pdfkit embeds). Any failure is "no logo": the document
// still carries the merchant's name.
import { Agent, request } from 'undici';
import { guardedConnector } from '../webhooks/outbound.ts';

export const LOGO_TIMEOUT_MS = 3_000;
export const LOGO_MAX_BYTES = 512 * 1024;

const agents = new Map<boolean, Agent>();
function agentFor(allowPrivate: boolean): Agent {
  let a = agents.get(allowPrivate);
  if (!a) {
    a = new Agent({
      connect: guardedConnector({ allowPrivate, timeoutMs: LOGO_TIMEOUT_MS }),
      headersTimeout: LOGO_TIMEOUT_MS,
      bodyTimeout: LOGO_TIMEOUT_MS,
    });
    agents.set(allowPrivate, a);
  }
  return a;
}

/** PNG or JPEG by their magic bytes: a Content-Type header proves nothing. */
export function isPrintableImage(b: Buffer): boolean {
  const png = b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const jpeg = b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
  return png || jpeg;
}

/** The logo's bytes, or null when it cannot be had safely and quickly. */
export async function fetchLogo(url: string | null, allowPrivate: boolean): Promise<Buffer | null> {
  if (!url?.startsWith('https://')) return null;
  const signal = AbortSignal.timeout(LOGO_TIMEOUT_MS);
  try {
    const res = await request(url, { dispatcher: agentFor(allowPrivate), signal });
    if (res.statusCode !== 200) {
      await res.body.dump();
      return null;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of res.body) {
      size += (c as Buffer).length;
      if (size > LOGO_MAX_BYTES) {
        res.body.destroy();
        return null;
      }
      chunks.push(c as Buffer);
    }
    const bytes = Buffer.concat(chunks);
    return isPrintableImage(bytes) ? bytes : null;
  } catch {
    return null;
  }
}
