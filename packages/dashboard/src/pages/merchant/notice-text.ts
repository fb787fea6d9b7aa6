// A notification's title and body in the reader's language: worded from its type and params
// (i18n/notices.ts), each param worded first (a plan's name, a date in words, a month, «30 дней»). One
// written before params were kept, or of a type these words do not know, shows its stored text.
import type { TFunction } from 'i18next';
import { dateWords, monthYear } from '../../format.ts';

export interface Notice {
  type: string;
  title: string;
  body: string;
  params?: Record<string, unknown> | null;
}

/** Each param as the sentence shows it. */
export function wordedParams(params: Record<string, unknown>, t: TFunction, lang: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    if (v === null || v === undefined) out[k] = '';
    else if (k.endsWith('_at') || k.endsWith('_since')) out[k] = dateWords(String(v), lang);
    else if (k === 'plan' || k === 'previous_plan') out[k] = t(`enum.plan.${v}`, { defaultValue: String(v) });
    else if (k === 'mode') out[k] = t(`enum.mode.${v}`, { defaultValue: String(v) });
    else if (k === 'month') out[k] = monthYear(String(v), lang);
    else if (k === 'days') out[k] = t('count.days', { count: Number(v) });
    else out[k] = String(v);
  }
  return out;
}

export function noticeText(n: Notice, t: TFunction, lang: string, exists: (key: string) => boolean) {
  const base = `notice.${n.type}`;
  const variant = typeof n.params?.variant === 'string' ? n.params.variant : undefined;
  const has = (part: 'title' | 'body') =>
    exists(`${base}.${part}`) || (variant && exists(`${base}.${part}_${variant}`));
  if (!n.params || !has('title')) return { title: n.title, body: n.body };
  const values = { ...wordedParams(n.params, t, lang), context: variant };
  return {
    title: t(`${base}.title`, values),
    body: has('body') ? t(`${base}.body`, values) : n.body,
  };
}
