// A number with its noun, agreeing as each language wants (i18next's plural keys, by Intl.PluralRules):
// Russian has one, few, many (and other for fractions): «1 платёж», «2 платежа», «5 платежей»,
// «21 платёж»; Kazakh keeps the noun as it is after a number («5 төлем»); English has one and other.
// Used as t('count.<noun>', { count }).
import type { Bundle } from './index.ts';

export const countBundle: Bundle = {
  ru: {
    'count.payments_one': '{{count}} платёж',
    'count.payments_few': '{{count}} платежа',
    'count.payments_many': '{{count}} платежей',
    'count.payments_other': '{{count}} платежа',
    'count.days_one': '{{count}} день',
    'count.days_few': '{{count}} дня',
    'count.days_many': '{{count}} дней',
    'count.days_other': '{{count}} дня',
  },
  kk: {
    'count.payments_one': '{{count}} төлем',
    'count.payments_other': '{{count}} төлем',
    'count.days_one': '{{count}} күн',
    'count.days_other': '{{count}} күн',
  },
  en: {
    'count.payments_one': '{{count}} payment',
    'count.payments_other': '{{count}} payments',
    'count.days_one': '{{count}} day',
    'count.days_other': '{{count}} days',
  },
};
