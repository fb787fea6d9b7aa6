// The QR image of a payment, as inline SVG: shown by the hosted page and in the JSON of links and checkouts.
import QRCode from 'qrcode';

/**
 * Rendered images of recent QR tokens. A token's image never changes and every reload or poll of a
 * checkout shows the same QR for minutes, while encoding one costs more CPU than the rest of the request.
 * Bounded: the oldest entry goes first (a Map keeps insertion order).
 */
const SVG_CACHE_MAX = 2000;
const svgCache = new Map<string, string>();

/** The QR image of an operation's qr_token, as inline SVG (no script, no external references). */
export async function qrSvg(content: string): Promise<string> {
  const hit = svgCache.get(content);
  if (hit !== undefined) return hit;
  const raw = await QRCode.toString(content, {
    type: 'svg',
    margin: 2,
    errorCorrectionLevel: 'M',
    color: { dark: '#111111', light: '#ffffff' },
  });
  const svg = raw.trim().replace('<svg ', '<svg role="img" aria-label="QR" class="qr-svg" ');
  if (svgCache.size >= SVG_CACHE_MAX) svgCache.delete(svgCache.keys().next().value!);
  svgCache.set(content, svg);
  return svg;
}
