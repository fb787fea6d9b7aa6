// The admin surface: the operator's admin API (decisions 23), a user with is_admin (ADMIN_EMAILS) on its
// own access token; anyone else is 403 forbidden_role. Every call is audited (plugins/admin-audit.ts).
import { surface } from '../surface.ts';
import { adminTicketRoutes } from './tickets.ts';
import { adminClientRoutes } from './clients.ts';
import { adminOperationRoutes } from './operations.ts';
import { adminOverviewRoutes } from './overview.ts';
import { adminPartnerRoutes } from './partners.ts';
import { adminWithdrawalRoutes } from './withdrawals.ts';

export const adminSurface = surface('admin', (app, { deps }) => {
  adminTicketRoutes(app, deps);
  adminClientRoutes(app, deps);
  adminOperationRoutes(app, deps);
  adminPartnerRoutes(app, deps);
  adminWithdrawalRoutes(app, deps);
  adminOverviewRoutes(app, deps);
});
