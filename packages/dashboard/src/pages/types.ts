// What a page group declares: its pages (lazy, each its own chunk) and which of them the navigation lists.
import type { ComponentType } from 'react';

export interface PageRoute {
  /** under the group's base: '' is its first page */
  path: string;
  /** i18n key of its navigation label; absent: not in the navigation (detail pages) */
  nav?: string;
  /** loading/lazy-page.ts's lazyPage: a chunk that retries, and can be asked again after it failed */
  Component: ComponentType;
}
