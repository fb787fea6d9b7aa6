// The provider's dates as its document and its production answers write them (decisions 26). JavaScript's
// Date reads none of the unusual ones the same way everywhere: `2020-01-16T10:30:00+06` (the document's
// qr/create example, offset without minutes) is an Invalid Date, `2021-11-3T11:55:14.166+06:00` (a
// one-digit day, payment/details in the document) too, and `2021-12-08T11:35:48.1566667` (no offset,
// seven fractional digits) is read as the machine's local time. So they are read here, by one pattern.

/** Minutes east of UTC that the provider's times without an offset are in. */
export type UtcOffsetMinutes = number;

/** UTC+5: Kazakhstan's one time zone since 2024-03-01, where the provider's servers write local time. */
export const PROVIDER_LOCAL_OFFSET: UtcOffsetMinutes = 5 * 60;

const DATE =
  /^(\d{4})-(\d{1,2})-(\d{1,2})[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * The instant a provider date names, or null when the text is not one. A time without an offset is the
 * provider's local time (`localOffset`). Fractions beyond milliseconds are cut, not rounded.
 */
export function parseProviderDate(text: unknown, localOffset: UtcOffsetMinutes = PROVIDER_LOCAL_OFFSET): Date | null {
  if (typeof text !== 'string') return null;
  const m = DATE.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', frac = '', zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  if (day < 1 || day > daysIn(year, month)) return null;
  const ms = Number(frac.slice(0, 3).padEnd(3, '0'));
  const offset = zone === undefined ? localOffset : offsetMinutes(zone);
  if (offset === null) return null;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offset * 60_000);
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `Z`, `+06`, `+0600`, `+06:00` as minutes east of UTC; null past ±14 h. */
function offsetMinutes(zone: string): number | null {
  if (zone.toUpperCase() === 'Z') return 0;
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 14 || minutes > 59) return null;
  return sign * (hours * 60 + minutes);
}

/**
 * QRAPI_TIMEZONE as minutes east of UTC: an offset (`+05:00`, `+5`, `UTC+6`, `-03`) or a fixed-offset
 * name Intl knows (`Asia/Almaty`, read at start: the provider's zone does not change within a run).
 */
export function parseTimezone(value: string | undefined, now = new Date()): UtcOffsetMinutes {
  if (value === undefined || value.trim() === '') return PROVIDER_LOCAL_OFFSET;
  const v = value.trim();
  const m = /^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(v);
  if (m) {
    const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
    if (Number(m[2]) > 14 || Number(m[3] ?? 0) > 59)
      throw new Error(`QRAPI_TIMEZONE ${value}: an offset within ±14:00`);
    return (m[1] === '-' ? -1 : 1) * minutes;
  }
  let name: string | undefined;
  try {
    name = new Intl.DateTimeFormat('en-US', { timeZone: v, timeZoneName: 'longOffset' })
      .formatToParts(now)
      .find((p) => p.type === 'timeZoneName')?.value;
  } catch {
    throw new Error(`QRAPI_TIMEZONE must be an offset like +05:00 or a time zone name like Asia/Almaty, not ${value}`);
  }
  if (!name || name === 'GMT') return 0;
  const z = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  if (!z) throw new Error(`QRAPI_TIMEZONE ${value}: cannot read its offset (${name})`);
  return (z[1] === '-' ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3]));
}
