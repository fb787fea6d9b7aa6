// The words of staff alerts. The users table keeps no language of its own (the dashboard's is chosen per
// browser), so each message says it in Russian first, then one line in Kazakh and one in English, short
// enough for a messenger preview: the amount in tenge, the payment's comment, a link to the payment.
import type { Mode } from '../tenant.ts';

/** 1234567 -> "1 234 567 ₸" (a no-break space between groups, as receipts and banks write tenge). */
export function tenge(amount: number): string {
  return `${String(Math.trunc(amount)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0')}\u00a0₸`;
}

export interface AlertText {
  subject: string;
  body: string;
}

const testMark = (mode: Mode) => (mode === 'test' ? ' [test]' : '');

/** What follows the three lines: the payment's comment, when it has one, and its page in the dashboard. */
function footer(comment: string | null, link: string): string {
  const lines: string[] = [];
  if (comment) lines.push(`Комментарий / Түсініктеме / Comment: ${comment.slice(0, 200)}`);
  lines.push(link);
  return lines.join('\n');
}

/** The payment's page, in its mode: the dashboard's mode is kept per browser, and ?mode= sets it. */
export const paymentLink = (dashboardUrl: string, operationId: string, mode: Mode) =>
  `${dashboardUrl}/payments/${encodeURIComponent(operationId)}?mode=${mode}`;

export function paidText(a: { mode: Mode; amount: number; comment: string | null; link: string }): AlertText {
  const sum = tenge(a.amount);
  return {
    subject: `Оплата ${sum}${testMark(a.mode)}`,
    body: [
      `Оплата получена: ${sum}${testMark(a.mode)}`,
      `Төлем қабылданды: ${sum}`,
      `Payment received: ${sum}`,
      footer(a.comment, a.link),
    ].join('\n'),
  };
}

export function refundText(a: { mode: Mode; amount: number; comment: string | null; link: string }): AlertText {
  const sum = tenge(a.amount);
  return {
    subject: `Возврат ${sum}${testMark(a.mode)}`,
    body: [
      `Возврат выполнен: ${sum}${testMark(a.mode)}`,
      `Қайтару орындалды: ${sum}`,
      `Refund completed: ${sum}`,
      footer(a.comment, a.link),
    ].join('\n'),
  };
}

export function receiptFailedText(a: {
  mode: Mode;
  kind: string;
  amount: number | null;
  error: string | null;
  comment: string | null;
  link: string;
}): AlertText {
  const sum = a.amount === null ? '' : ` ${tenge(a.amount)}`;
  const sale = a.kind === 'sale';
  const why = a.error ? ` (${a.error})` : '';
  return {
    subject: `Чек не выдан${sum}${testMark(a.mode)}`,
    body: [
      `Чек ${sale ? 'продажи' : 'возврата'} не выдан${sum}${why}${testMark(a.mode)}`,
      `${sale ? 'Сату' : 'Қайтару'} чегі берілмеді${sum}`,
      `The ${sale ? 'sale' : 'return'} receipt was not issued${sum}`,
      footer(a.comment, a.link),
    ].join('\n'),
  };
}

export interface DayTotals {
  paid: { count: number; sum: number };
  refunded: { count: number; sum: number };
  receiptsFailed: number;
}

/** The summary of one local day (YYYY-MM-DD) of one mode. */
export function summaryText(a: { mode: Mode; day: string; totals: DayTotals; link: string }): AlertText {
  const { paid, refunded, receiptsFailed } = a.totals;
  return {
    subject: `Итоги за ${a.day}: ${tenge(paid.sum)}${testMark(a.mode)}`,
    body: [
      `Итоги за ${a.day}${testMark(a.mode)}: оплат ${paid.count} на ${tenge(paid.sum)}, ` +
        `возвратов ${refunded.count} на ${tenge(refunded.sum)}, чеков не выдано ${receiptsFailed}`,
      `${a.day} қорытындысы: ${paid.count} төлем, ${tenge(paid.sum)}; ${refunded.count} қайтару, ` +
        `${tenge(refunded.sum)}; берілмеген чек ${receiptsFailed}`,
      `Summary of ${a.day}: ${paid.count} paid, ${tenge(paid.sum)}; ${refunded.count} refunded, ` +
        `${tenge(refunded.sum)}; receipts failed ${receiptsFailed}`,
      a.link,
    ].join('\n'),
  };
}
