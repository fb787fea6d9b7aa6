// Amounts as `15 000 ₸` (integer tenge, a no-break space between groups and before the sign) and times
// in Asia/Almaty, whatever the browser's own zone.
import { locale } from './i18n/index.ts';

export function tenge(amount: number | null | undefined): string {
  if (amount === null || amount === undefined) return '—';
  const digits = Math.abs(Math.trunc(amount))
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
  return `${amount < 0 ? '−' : ''}${digits}\u00a0₸`;
}

const ZONE = 'Asia/Almaty';

export function dateTime(value: string | Date | null | undefined, lang: string): string {
  if (!value) return '—';
  return new Intl.DateTimeFormat(locale(lang), {
    timeZone: ZONE,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(value));
}

export function day(value: string | Date | null | undefined, lang: string): string {
  if (!value) return '—';
  return new Intl.DateTimeFormat(locale(lang), { timeZone: ZONE, day: '2-digit', month: 'short' }).format(
    new Date(value),
  );
}
