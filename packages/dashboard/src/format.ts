// Amounts as `15 000 ₸` (integer tenge, a no-break space between groups and before the sign) and times
// in Asia/Almaty, whatever the browser's own zone. Kazakh dates are written here, not by Intl: Chromium's
// ICU has no Kazakh month names and falls back to `2026 M11 27` (checked in Chromium 156), so the kk
// forms (`27 қараша 2026`, `27 қар.`, `27.11.2026, 15:00`) are put together from Almaty's numeric parts.

export function tenge(amount: number | null | undefined): string {
  if (amount === null || amount === undefined) return '—';
  const digits = Math.abs(Math.trunc(amount))
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
  return `${amount < 0 ? '−' : ''}${digits}\u00a0₸`;
}

const ZONE = 'Asia/Almaty';
const locale = (l: string) => (l === 'en' ? 'en-GB' : 'ru-RU');

const KK_MONTHS = [
  'қаңтар',
  'ақпан',
  'наурыз',
  'сәуір',
  'мамыр',
  'маусым',
  'шілде',
  'тамыз',
  'қыркүйек',
  'қазан',
  'қараша',
  'желтоқсан',
];
const KK_SHORT = ['қаң.', 'ақп.', 'нау.', 'сәу.', 'мам.', 'мау.', 'шіл.', 'там.', 'қыр.', 'қаз.', 'қар.', 'жел.'];

const PARTS = new Intl.DateTimeFormat('en-US', {
  timeZone: ZONE,
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  hourCycle: 'h23',
});

/** The wall clock in Almaty: every ICU build has the numeric en-US parts. */
function almaty(d: Date): { year: number; month: number; day: number; hour: number; minute: number } {
  const parts = PARTS.formatToParts(d);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: n('year'), month: n('month'), day: n('day'), hour: n('hour'), minute: n('minute') };
}

const two = (n: number) => String(n).padStart(2, '0');
const toDate = (value: string | Date) => (value instanceof Date ? value : new Date(value));

/** Date and time, numeric: `27.11.2026, 15:00` (en: `27/11/2026, 15:00`). */
export function dateTime(value: string | Date | null | undefined, lang: string): string {
  if (!value) return '—';
  if (lang === 'kk') {
    const a = almaty(toDate(value));
    return `${two(a.day)}.${two(a.month)}.${a.year}, ${two(a.hour)}:${two(a.minute)}`;
  }
  return new Intl.DateTimeFormat(locale(lang), {
    timeZone: ZONE,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(toDate(value));
}

/** A date in words: `27 ноября 2026 г.`, `27 қараша 2026`, `27 November 2026`. */
export function dateWords(value: string | Date | null | undefined, lang: string): string {
  if (!value) return '—';
  if (lang === 'kk') {
    const a = almaty(toDate(value));
    return `${a.day} ${KK_MONTHS[a.month - 1]} ${a.year}`;
  }
  return new Intl.DateTimeFormat(locale(lang), {
    timeZone: ZONE,
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(toDate(value));
}

/** A chart's day: `27 нояб.`, `27 қар.`, `27 Nov`. */
export function day(value: string | Date | null | undefined, lang: string): string {
  if (!value) return '—';
  if (lang === 'kk') {
    const a = almaty(toDate(value));
    return `${two(a.day)} ${KK_SHORT[a.month - 1]}`;
  }
  return new Intl.DateTimeFormat(locale(lang), { timeZone: ZONE, day: '2-digit', month: 'short' }).format(
    toDate(value),
  );
}

/** A calendar month given as `YYYY-MM`: `ноябрь 2026 г.`, `қараша 2026`, `November 2026`. */
export function monthYear(month: string, lang: string): string {
  const [y, m] = month.split('-').map(Number);
  if (!y || !m || m > 12) return month;
  if (lang === 'kk') return `${KK_MONTHS[m - 1]} ${y}`;
  // Noon UTC of the 15th is in that month in every zone.
  return new Intl.DateTimeFormat(locale(lang), { timeZone: 'UTC', month: 'long', year: 'numeric' }).format(
    new Date(Date.UTC(y, m - 1, 15, 12)),
  );
}
