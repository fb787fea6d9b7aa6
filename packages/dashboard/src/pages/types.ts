// What a page group declares: its pages (lazy, each its own chunk) and which of them the navigation lists.
import type { ComponentType } from 'react';
import type { Permission } from '../api/me.ts';

/** What the admin menu counts beside a page (GET /admin/overview). */
export type AdminCount = 'partners_pending' | 'withdrawals_processing' | 'tickets_open';

export interface PageRoute {
  /** under the group's base: '' is its first page */
  path: string;
  /** i18n key of its navigation label; absent: not in the navigation (detail pages) */
  nav?: string;
  /**
   * The action (the server's permission table) a user needs for the page to be listed: the one its main
   * calls declare. Absent: every signed-in user. The API refuses the calls anyway; this keeps the menu
   * to what the role may use.
   */
  action?: Permission;
  /** the admin menu's badge: how many wait on this page */
  count?: AdminCount;
  /** loading/lazy-page.ts's lazyPage: a chunk that retries, and can be asked again after it failed */
  Component: ComponentType;
}
