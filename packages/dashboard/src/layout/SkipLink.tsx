// "Skip to content" (WCAG 2.4.1): the first thing Tab reaches on every signed-in page, out of sight until
// it has the focus; it moves the focus to the page, past the header and the menu.
import { useTranslation } from 'react-i18next';
import '../loading/i18n.ts';
import classes from './SkipLink.module.css';

/** The id of the page's main region, which the link moves the focus to. */
export const MAIN_ID = 'main';

export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a
      href={`#${MAIN_ID}`}
      className={classes.link}
      data-testid="skip-link"
      onClick={(e) => {
        // Focus, not a change of the address: the router would take #main for a navigation.
        e.preventDefault();
        document.getElementById(MAIN_ID)?.focus();
      }}
    >
      {t('skip.toContent')}
    </a>
  );
}
