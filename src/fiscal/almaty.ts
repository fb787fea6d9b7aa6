// Kazakhstan's receipts are stamped in local time, UTC+5 all year since 2024-03-01 (no daylight saving):
// the services write and read times without an offset, or with +05:00, and Tolem keeps instants.

const OFFSET_MS = 5 * 3_600_000;

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The instant's wall-clock parts at UTC+5. */
export function almatyParts(at: Date): LocalParts {
  const d = new Date(at.getTime() + OFFSET_MS);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

/** The instant of wall-clock parts at UTC+5. */
export function fromAlmatyParts(p: LocalParts): Date {
  return new Date(Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - OFFSET_MS);
}

const two = (n: number) => String(n).padStart(2, '0');

/** "dd.MM.yyyy HH:mm:ss" at UTC+5 (Webkassa's DateTime, ReturnBasisDetails.DateTime). */
export function formatDotted(at: Date): string {
  const p = almatyParts(at);
  return `${two(p.day)}.${two(p.month)}.${p.year} ${two(p.hour)}:${two(p.minute)}:${two(p.second)}`;
}

/** "yyyyMMddTHHmmss" at UTC+5 (the `t` of a fiscal data operator's check page). */
export function formatCompact(at: Date): string {
  const p = almatyParts(at);
  return `${p.year}${two(p.month)}${two(p.day)}T${two(p.hour)}${two(p.minute)}${two(p.second)}`;
}

const DOTTED = /^(\d{2})\.(\d{2})\.(\d{4})[ T](\d{2}):(\d{2})(?::(\d{2}))?/;
const ISO_LOCAL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?$/;

/**
 * A service's time: "dd.MM.yyyy HH:mm:ss" (with or without a trailing "+05:00"), an ISO time with an
 * offset or Z, or an ISO local time (read as UTC+5). Null when it is none of them.
 */
export function parseServiceTime(v: unknown): Date | null {
  if (typeof v !== 'string' || v.trim() === '') return null;
  const s = v.trim();
  const dotted = DOTTED.exec(s);
  if (dotted) {
    const [, dd, mm, yyyy, hh, mi, ss] = dotted;
    return fromAlmatyParts({
      year: Number(yyyy),
      month: Number(mm),
      day: Number(dd),
      hour: Number(hh),
      minute: Number(mi),
      second: Number(ss ?? 0),
    });
  }
  const local = ISO_LOCAL.exec(s);
  if (local) {
    const [, yyyy, mm, dd, hh, mi, ss] = local;
    return fromAlmatyParts({
      year: Number(yyyy),
      month: Number(mm),
      day: Number(dd),
      hour: Number(hh),
      minute: Number(mi),
      second: Number(ss ?? 0),
    });
  }
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : new Date(t);
}
