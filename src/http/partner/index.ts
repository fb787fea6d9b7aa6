// The partner surface: the partner cabinet (a partner's own user, by JWT: decisions 21) and the partner
// integration API /partner/v1 (a partner's key: decisions 22, api/).
import { surface } from '../surface.ts';
import { partnerProfileRoutes } from './profile.ts';
import { partnerClientRoutes } from './clients.ts';
import { partnerLinkRoutes, referralRedirectRoutes } from './links.ts';
import { partnerKeyRoutes } from './keys.ts';
import { partnerBalanceRoutes } from './balance.ts';
import { partnerAnalyticsRoutes } from './analytics.ts';
import { partnerPayoutRoutes } from './payouts.ts';
import { partnerApiClientRoutes } from './api/clients.ts';
import { partnerApiOnboardingRoutes } from './api/onboarding.ts';
import { partnerApiWebhookRoutes } from './api/webhooks.ts';
import { partnerApiAccessRoutes } from './api/access.ts';
import { partnerApiPaymentRoutes } from './api/payments.ts';
import { partnerApiReceiptRoutes } from './api/receipts.ts';

export const partnerSurface = surface('partner', (app, { deps }) => {
  partnerProfileRoutes(app, deps);
  partnerClientRoutes(app, deps);
  partnerLinkRoutes(app, deps);
  referralRedirectRoutes(app, deps);
  partnerKeyRoutes(app, deps);
  partnerBalanceRoutes(app, deps);
  partnerAnalyticsRoutes(app, deps);
  partnerPayoutRoutes(app, deps);
  partnerApiClientRoutes(app, deps);
  partnerApiOnboardingRoutes(app, deps);
  partnerApiWebhookRoutes(app, deps);
  partnerApiAccessRoutes(app, deps);
  partnerApiPaymentRoutes(app, deps);
  partnerApiReceiptRoutes(app, deps);
});
