// The cabinet surface (/me/...): what a signed-in team member (or a partner acting in the account) manages.
import { surface } from '../surface.ts';
import { meRoutes } from './me.ts';
import { passwordRoutes } from './password.ts';
import { webhookRoutes } from './webhooks.ts';
import { notificationRoutes } from './notifications.ts';
import { notificationSettingsRoutes } from './notification-settings.ts';
import { cabinetPaymentRoutes } from './payments.ts';
import { brandingRoutes } from './branding.ts';
import { organizationRoutes } from './organization.ts';
import { teamRoutes } from './team.ts';
import { ticketRoutes } from './tickets.ts';
import { integrationRoutes } from './integrations.ts';
import { providerAccountRoutes } from './provider-accounts.ts';
import { fiscalRegisterRoutes } from './fiscal-registers.ts';
import { reportExportRoutes } from './report-exports.ts';
import { counterRoutes } from './counters.ts';

export const cabinetSurface = surface('cabinet', (app, { deps, requestLog }) => {
  meRoutes(app, deps, requestLog);
  passwordRoutes(app, deps);
  webhookRoutes(app, deps);
  notificationRoutes(app, deps);
  notificationSettingsRoutes(app, deps);
  cabinetPaymentRoutes(app, deps);
  brandingRoutes(app, deps);
  organizationRoutes(app, deps);
  teamRoutes(app, deps);
  ticketRoutes(app, deps);
  integrationRoutes(app, deps);
  providerAccountRoutes(app, deps);
  fiscalRegisterRoutes(app, deps);
  reportExportRoutes(app, deps);
  counterRoutes(app, deps);
});
