// Dates as the services write them: Almaty local time (UTC+05:00, no daylight saving). Webkassa writes
// "dd.MM.yyyy HH:mm:ss" (and "... +05:00" in *UTC fields); the OFD check link carries yyyyMMddTHHmmss.

export const ALMATY_OFFSET_MS = 5 * 3600_000;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function parts(ms: number) {
  const d = new Date(ms + ALMATY_OFFSET_MS);
  return {
    y: d.getUTCFullYear(),
    mo: pad(d.getUTCMonth() + 1),
    d: pad(d.getUTCDate()),
    h: pad(d.getUTCHours()),
    mi: pad(d.getUTCMinutes()),
    s: pad(d.getUTCSeconds()),
  };
}

/** "14.09.2025 16:55:37" */
export function webkassaDate(ms: number): string {
  const p = parts(ms);
  return `${p.d}.${p.mo}.${p.y} ${p.h}:${p.mi}:${p.s}`;
}

/** "14.09.2025 16:55:37 +05:00" */
export const webkassaDateUtc = (ms: number) => `${webkassaDate(ms)} +05:00`;

/** "20250914T165537" */
export function ofdDate(ms: number): string {
  const p = parts(ms);
  return `${p.y}${p.mo}${p.d}T${p.h}${p.mi}${p.s}`;
}

/** "2025-09-14T16:55:37+05:00" (reKassa's messageTime and shift times) */
export function isoAlmaty(ms: number): string {
  const p = parts(ms);
  return `${p.y}-${p.mo}-${p.d}T${p.h}:${p.mi}:${p.s}+05:00`;
}

/** The instant of "dd.MM.yyyy HH:mm:ss" (Almaty) or of an ISO 8601 date; NaN when it is neither. */
export function readDate(v: unknown): number {
  if (typeof v !== 'string') return NaN;
  const m = /^(\d{2})\.(\d{2})\.(\d{4}) (\d{2}):(\d{2}):(\d{2})$/.exec(v);
  if (m) return Date.UTC(+m[3], +m[2] - 1, +m[1], +m[4], +m[5], +m[6]) - ALMATY_OFFSET_MS;
  if (!/^\d{4}-\d{2}-\d{2}T/.test(v)) return NaN;
  // An ISO date without an offset is Almaty time, as the services' own local dates are.
  return Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(v) ? v : `${v}+05:00`);
}
