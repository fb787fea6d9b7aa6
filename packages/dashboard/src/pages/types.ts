// What a page group declares: its pages (lazy, each its own chunk) and which of them the navigation lists.
import type { ComponentType, LazyExoticComponent } from 'react';

export interface PageRoute {
  /** under the group's base: '' is its first page */
  path: string;
  /** i18n key of its navigation label; absent: not in the navigation (detail pages) */
  nav?: string;
  Component: LazyExoticComponent<ComponentType>;
}
