// The partner cabinet's pages, under /partner (the first is the programme: apply, or the profile).
import { lazyPage as lazy } from '../../loading/lazy-page.ts';
import type { PageRoute } from '../types.ts';

export const partnerRoutes: PageRoute[] = [
  { path: '', nav: 'pnav.home', Component: lazy(() => import('./Home.tsx')) },
  { path: 'clients', nav: 'pnav.clients', Component: lazy(() => import('./Clients.tsx')) },
  { path: 'clients/:id', Component: lazy(() => import('./Clients.tsx')) },
  { path: 'links', nav: 'pnav.links', Component: lazy(() => import('./Links.tsx')) },
  { path: 'money', nav: 'pnav.money', Component: lazy(() => import('./Money.tsx')) },
  { path: 'withdrawals', nav: 'pnav.withdrawals', Component: lazy(() => import('./Withdrawals.tsx')) },
  { path: 'analytics', nav: 'pnav.analytics', Component: lazy(() => import('./Analytics.tsx')) },
  { path: 'keys', nav: 'pnav.keys', Component: lazy(() => import('./Keys.tsx')) },
];
