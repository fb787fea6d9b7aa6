// The words of the API's values and of counts, for a page: word('plan', 'starter') -> «Стартовый»,
// count('payments', 2) -> «2 платежа», in the user's language. Loading this module adds the enum and count
// bundles (i18n/enums.ts, i18n/counts.ts), so a page that shows a value has its words.
import { useTranslation } from 'react-i18next';
import { addBundle } from '../i18n/index.ts';
import { enumBundle, type EnumKind } from '../i18n/enums.ts';
import { countBundle } from '../i18n/counts.ts';

addBundle(enumBundle);
addBundle(countBundle);

export type CountNoun = 'payments' | 'days';

export function useWords() {
  const { t } = useTranslation();
  return {
    /** A value the API sent; one the dashboard has no words for (none, by test) is shown as it came. */
    word: (kind: EnumKind, value: string | null | undefined): string =>
      value === null || value === undefined ? '—' : t(`enum.${kind}.${value}`, { defaultValue: value }),
    count: (noun: CountNoun, n: number): string => t(`count.${noun}`, { count: n }),
  };
}
