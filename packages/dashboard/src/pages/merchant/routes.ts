// The merchant's pages, in navigation order.
import { lazy } from 'react';
import type { PageRoute } from '../types.ts';

export const merchantRoutes: PageRoute[] = [
  { path: '', nav: 'nav.overview', Component: lazy(() => import('./Overview.tsx')) },
  { path: 'payments', nav: 'nav.payments', Component: lazy(() => import('./Payments.tsx')) },
  { path: 'payments/:opId', Component: lazy(() => import('./PaymentDetail.tsx')) },
  { path: 'links', nav: 'nav.links', Component: lazy(() => import('./Links.tsx')) },
  { path: 'webhooks', nav: 'nav.webhooks', Component: lazy(() => import('./Webhooks.tsx')) },
  { path: 'webhooks/:id', Component: lazy(() => import('./WebhookDetail.tsx')) },
  { path: 'api-keys', nav: 'nav.apiKeys', Component: lazy(() => import('./ApiKeys.tsx')) },
];
