// Small helpers of the server-rendered page: escaping (every merchant-supplied text goes through esc),
// money, safe link targets, and the brand colour's readable text colour.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** HTML-escapes text for element content and quoted attribute values alike. */
export const esc = (s: unknown): string => String(s ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** 5000 -> "5 000 ₸": spaces between thousands as written in Kazakhstan and Russia. */
export function formatTenge(amount: number): string {
  return `${String(amount).replace(/\B(?=(\d{3})+(?!\d))/g, ' ')} ₸`;
}

/** A URL fit for href: script-capable schemes are dropped (the URLs were validated, this is defence). */
export function safeHref(url: string | null | undefined): string | null {
  if (!url) return null;
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url.trim());
  if (!m || ['javascript', 'data', 'vbscript', 'file'].includes(m[1].toLowerCase())) return null;
  return url;
}

/** success_url with ?operation_id= (kept query and fragment), where the payer goes after paying. */
export function successTarget(successUrl: string | null, operationId: string): string | null {
  if (!successUrl) return null;
  try {
    const u = new URL(successUrl);
    u.searchParams.set('operation_id', operationId);
    return u.toString();
  } catch {
    return null;
  }
}

export const DEFAULT_BRAND = '#1F5EFF';

function luminance(hex: string): number {
  const ch = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
}

/** White or near-black text, whichever contrasts more with the brand colour (WCAG contrast ratio). */
export function inkFor(hex: string): string {
  const l = luminance(hex);
  const withWhite = 1.05 / (l + 0.05);
  const withBlack = (l + 0.05) / (luminance('#111827') + 0.05);
  return withWhite >= withBlack ? '#FFFFFF' : '#111827';
}

/** Minutes left until `at`, rounded up, never below 0. */
export function minutesLeft(at: Date, now: Date): number {
  return Math.max(0, Math.ceil((at.getTime() - now.getTime()) / 60_000));
}
