// Russian (default), Kazakh and English. Each page group adds its own bundle of keys when its chunk loads
// (addBundle), so the first load carries only the shell's words. The choice is kept in localStorage.
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { common } from './common.ts';

export const LANGUAGES = ['ru', 'kk', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
const KEY = 'tolem.lang';

export type Bundle = Record<Language, Record<string, string>>;

const saved = localStorage.getItem(KEY);
const initial: Language = (LANGUAGES as readonly string[]).includes(saved ?? '') ? (saved as Language) : 'ru';

void i18n.use(initReactI18next).init({
  lng: initial,
  fallbackLng: 'ru',
  resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: common[l] }])),
  interpolation: { escapeValue: false },
});
document.documentElement.lang = initial;

export function addBundle(bundle: Bundle): void {
  for (const l of LANGUAGES) i18n.addResources(l, 'translation', bundle[l]);
}

export function setLanguage(l: Language): void {
  localStorage.setItem(KEY, l);
  document.documentElement.lang = l;
  void i18n.changeLanguage(l);
}

export default i18n;
