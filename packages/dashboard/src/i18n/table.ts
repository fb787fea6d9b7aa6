// Words kept as a table of values, each with its three languages side by side (so a missing one shows in
// review and in the tests), turned into an i18n bundle of `<prefix>.<value>` keys.
import type { Bundle, Language } from './index.ts';

export type Words = Record<Language, string>;

export function toBundle(prefix: string, table: Record<string, Words>): Bundle {
  const bundle: Bundle = { ru: {}, kk: {}, en: {} };
  for (const [value, words] of Object.entries(table)) {
    for (const l of ['ru', 'kk', 'en'] as const) bundle[l][`${prefix}.${value}`] = words[l];
  }
  return bundle;
}

/** Tables of tables: `<prefix>.<group>.<value>` keys (the enum kinds, the notification types). */
export function toGroupedBundle(prefix: string, groups: Record<string, Record<string, Words>>): Bundle {
  const bundle: Bundle = { ru: {}, kk: {}, en: {} };
  for (const [group, table] of Object.entries(groups)) {
    const b = toBundle(`${prefix}.${group}`, table);
    for (const l of ['ru', 'kk', 'en'] as const) Object.assign(bundle[l], b[l]);
  }
  return bundle;
}
