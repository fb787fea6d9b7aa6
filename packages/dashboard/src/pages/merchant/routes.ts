// The merchant's pages, in navigation order; each listed for the users whose role may do its action (the
// write a page exists for, or the read it shows), the profile for everyone.
import { lazyPage as lazy } from '../../loading/lazy-page.ts';
import type { PageRoute } from '../types.ts';

export const merchantRoutes: PageRoute[] = [
  { path: '', nav: 'nav.overview', action: 'account.read', Component: lazy(() => import('./Overview.tsx')) },
  { path: 'payments', nav: 'nav.payments', action: 'payments.read', Component: lazy(() => import('./Payments.tsx')) },
  { path: 'payments/:opId', Component: lazy(() => import('./PaymentDetail.tsx')) },
  { path: 'links', nav: 'nav.links', action: 'links.read', Component: lazy(() => import('./Links.tsx')) },
  { path: 'webhooks', nav: 'nav.webhooks', action: 'webhooks.read', Component: lazy(() => import('./Webhooks.tsx')) },
  { path: 'webhooks/:id', Component: lazy(() => import('./WebhookDetail.tsx')) },
  { path: 'api-keys', nav: 'nav.apiKeys', action: 'api_keys.manage', Component: lazy(() => import('./ApiKeys.tsx')) },
  { path: 'branding', nav: 'nav.branding', action: 'branding.write', Component: lazy(() => import('./Branding.tsx')) },
  {
    path: 'organization',
    nav: 'nav.organization',
    action: 'account.read',
    Component: lazy(() => import('./Organization.tsx')),
  },
  { path: 'team', nav: 'nav.team', action: 'team.manage', Component: lazy(() => import('./Team.tsx')) },
  { path: 'tickets', nav: 'nav.tickets', action: 'tickets.read', Component: lazy(() => import('./Tickets.tsx')) },
  { path: 'tickets/:id', Component: lazy(() => import('./Tickets.tsx')) },
  {
    path: 'notifications',
    nav: 'nav.notifications',
    action: 'account.read',
    Component: lazy(() => import('./Notifications.tsx')),
  },
  {
    path: 'provider',
    nav: 'nav.provider',
    action: 'onboarding.write',
    Component: lazy(() => import('./Provider.tsx')),
  },
  {
    path: 'subscription',
    nav: 'nav.subscription',
    action: 'subscription.pay',
    Component: lazy(() => import('./Subscription.tsx')),
  },
  { path: 'fiscal', nav: 'nav.fiscal', action: 'fiscal.read', Component: lazy(() => import('./FiscalRegisters.tsx')) },
  { path: 'fiscal/registers/:id/shifts', Component: lazy(() => import('./FiscalShifts.tsx')) },
  { path: 'fiscal/receipts', Component: lazy(() => import('./Receipts.tsx')) },
  { path: 'logs', nav: 'nav.logs', action: 'logs.read', Component: lazy(() => import('./Logs.tsx')) },
  { path: 'profile', nav: 'nav.profile', Component: lazy(() => import('./Profile.tsx')) },
];
