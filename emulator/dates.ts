// The dates the emulator writes (ExpireDate, TransactionDate). The provider's document and the samples
// public clients logged disagree on the form, so a driver has to read all of them; the emulator writes
// whichever one it is told, in the provider's local time (UTC+5 unless told otherwise).
//   doc        2020-01-16T10:30:00+05          the document's own example (seconds, offset hours only)
//   offset     2025-10-22T17:10:50.717+05:00   production samples
//   local      2021-12-08T11:35:48.1566667     no offset at all, 7 fractional digits (payment/details sample)
//   plus-hhmm  2021-11-03T11:55:14+0500        offset without a colon
//   one-digit  2021-11-3T11:55:14.166+05:00    leading zeros of month, day and hour dropped (a document sample)

/** A concrete form of one date. */
export const DATE_FORMS = ['doc', 'offset', 'local', 'plus-hhmm', 'one-digit'] as const;
export type DateForm = (typeof DATE_FORMS)[number];

/** What the emulator is set to: one form, or `vary`, which takes the forms by turns, one per answer. */
export const DATE_STYLES = ['doc', 'offset', 'local', 'vary'] as const;
export type DateStyle = (typeof DATE_STYLES)[number];

export const DEFAULT_UTC_OFFSET_HOURS = 5;

/** An offset the provider could have: whole minutes, within the zones that exist. */
export function validUtcOffset(hours: unknown): hours is number {
  return (
    typeof hours === 'number' && Number.isFinite(hours) && hours >= -12 && hours <= 14 && Number.isInteger(hours * 60)
  );
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** "+05", "+0500" or "+05:00" (and "-03:30" for a zone west of UTC with minutes). */
function offsetText(hours: number, form: 'hours' | 'hhmm' | 'hh:mm'): string {
  const sign = hours < 0 ? '-' : '+';
  const total = Math.round(Math.abs(hours) * 60);
  const h = pad(Math.floor(total / 60));
  const m = pad(total % 60);
  // An offset with minutes cannot be written in hours only; the document's form then keeps its minutes.
  if (form === 'hours') return m === '00' ? `${sign}${h}` : `${sign}${h}:${m}`;
  return form === 'hhmm' ? `${sign}${h}${m}` : `${sign}${h}:${m}`;
}

/** The instant `ms` written in `form` as the provider's local time at `utcOffsetHours`. Pure. */
export function formatProviderDate(
  ms: number,
  form: DateForm,
  utcOffsetHours: number = DEFAULT_UTC_OFFSET_HOURS,
): string {
  // The local wall clock read off a Date shifted by the offset, through its UTC fields.
  const t = new Date(ms + Math.round(utcOffsetHours * 60) * 60_000);
  const [y, mo, d, h, mi, s, milli] = [
    t.getUTCFullYear(),
    t.getUTCMonth() + 1,
    t.getUTCDate(),
    t.getUTCHours(),
    t.getUTCMinutes(),
    t.getUTCSeconds(),
    t.getUTCMilliseconds(),
  ];
  const date = `${pad(y, 4)}-${pad(mo)}-${pad(d)}`;
  const time = `${pad(h)}:${pad(mi)}:${pad(s)}`;
  switch (form) {
    case 'doc':
      return `${date}T${time}${offsetText(utcOffsetHours, 'hours')}`;
    case 'offset':
      return `${date}T${time}.${pad(milli, 3)}${offsetText(utcOffsetHours, 'hh:mm')}`;
    case 'local':
      // .NET writes a DateTime without a zone with 7 digits (ticks); the clock here has milliseconds.
      return `${date}T${time}.${pad(milli, 3)}0000`;
    case 'plus-hhmm':
      return `${date}T${time}${offsetText(utcOffsetHours, 'hhmm')}`;
    case 'one-digit':
      return `${pad(y, 4)}-${mo}-${d}T${h}:${pad(mi)}:${pad(s)}.${pad(milli, 3)}${offsetText(utcOffsetHours, 'hh:mm')}`;
  }
}
