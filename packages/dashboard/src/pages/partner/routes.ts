// The partner cabinet's pages, under /partner (the first is the programme: apply, or the profile).
import { lazyPage as lazy } from '../../loading/lazy-page.ts';
import type { PageRoute } from '../types.ts';

export const partnerRoutes: PageRoute[] = [
  { path: '', nav: 'pnav.home', action: 'partner.read', Component: lazy(() => import('./Home.tsx')) },
  { path: 'clients', nav: 'pnav.clients', action: 'partner.read', Component: lazy(() => import('./Clients.tsx')) },
  { path: 'clients/:id', Component: lazy(() => import('./Clients.tsx')) },
  { path: 'links', nav: 'pnav.links', action: 'partner.read', Component: lazy(() => import('./Links.tsx')) },
  { path: 'money', nav: 'pnav.money', action: 'partner.read', Component: lazy(() => import('./Money.tsx')) },
  {
    path: 'withdrawals',
    nav: 'pnav.withdrawals',
    action: 'partner.owner',
    Component: lazy(() => import('./Withdrawals.tsx')),
  },
  {
    path: 'analytics',
    nav: 'pnav.analytics',
    action: 'partner.read',
    Component: lazy(() => import('./Analytics.tsx')),
  },
  { path: 'keys', nav: 'pnav.keys', action: 'partner.owner', Component: lazy(() => import('./Keys.tsx')) },
];
