// The operator's admin pages, under /admin (shown to users with is_admin; the API refuses anyone else), with
// the menu's count of what waits on each.
import { lazyPage as lazy } from '../../loading/lazy-page.ts';
import type { PageRoute } from '../types.ts';

export const adminRoutes: PageRoute[] = [
  { path: '', nav: 'anav.partners', count: 'partners_pending', Component: lazy(() => import('./Partners.tsx')) },
  {
    path: 'withdrawals',
    nav: 'anav.withdrawals',
    count: 'withdrawals_processing',
    Component: lazy(() => import('./Withdrawals.tsx')),
  },
  { path: 'tickets', nav: 'anav.tickets', count: 'tickets_open', Component: lazy(() => import('./Tickets.tsx')) },
  { path: 'tickets/:id', Component: lazy(() => import('./Tickets.tsx')) },
  { path: 'clients', nav: 'anav.clients', Component: lazy(() => import('./Clients.tsx')) },
];
