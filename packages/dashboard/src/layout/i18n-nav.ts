// The shell's words for what waits on an admin page (the menu's count), beside the shell's own bundle.
import { addBundle } from '../i18n/index.ts';

addBundle({
  ru: { 'nav.waiting': 'ожидают' },
  kk: { 'nav.waiting': 'күтуде' },
  en: { 'nav.waiting': 'waiting' },
});
