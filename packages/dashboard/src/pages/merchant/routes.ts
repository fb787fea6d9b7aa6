// The merchant's pages, in navigation order.
import { lazyPage as lazy } from '../../loading/lazy-page.ts';
import type { PageRoute } from '../types.ts';

export const merchantRoutes: PageRoute[] = [
  { path: '', nav: 'nav.overview', Component: lazy(() => import('./Overview.tsx')) },
  { path: 'payments', nav: 'nav.payments', Component: lazy(() => import('./Payments.tsx')) },
  { path: 'payments/:opId', Component: lazy(() => import('./PaymentDetail.tsx')) },
  { path: 'links', nav: 'nav.links', Component: lazy(() => import('./Links.tsx')) },
  { path: 'webhooks', nav: 'nav.webhooks', Component: lazy(() => import('./Webhooks.tsx')) },
  { path: 'webhooks/:id', Component: lazy(() => import('./WebhookDetail.tsx')) },
  { path: 'api-keys', nav: 'nav.apiKeys', Component: lazy(() => import('./ApiKeys.tsx')) },
  { path: 'branding', nav: 'nav.branding', Component: lazy(() => import('./Branding.tsx')) },
  { path: 'organization', nav: 'nav.organization', Component: lazy(() => import('./Organization.tsx')) },
  { path: 'team', nav: 'nav.team', Component: lazy(() => import('./Team.tsx')) },
  { path: 'tickets', nav: 'nav.tickets', Component: lazy(() => import('./Tickets.tsx')) },
  { path: 'tickets/:id', Component: lazy(() => import('./Tickets.tsx')) },
  { path: 'notifications', nav: 'nav.notifications', Component: lazy(() => import('./Notifications.tsx')) },
  { path: 'provider', nav: 'nav.provider', Component: lazy(() => import('./Provider.tsx')) },
  { path: 'subscription', nav: 'nav.subscription', Component: lazy(() => import('./Subscription.tsx')) },
  { path: 'logs', nav: 'nav.logs', Component: lazy(() => import('./Logs.tsx')) },
  { path: 'profile', nav: 'nav.profile', Component: lazy(() => import('./Profile.tsx')) },
];
