// The admin API's overview (issue 41): what waits for the operator, for the admin menu's badges.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { adminOverview } from '../../domain/admin/overview.ts';
import { route, type App } from '../route.ts';
import { auth, tags } from './shared.ts';

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export function adminOverviewRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'GET',
    url: '/admin/overview',
    auth,
    permission: 'admin.overview',
    schema: {
      tags,
      summary: 'What waits for the operator: partners to approve, withdrawals to pay, tickets to answer',
      description: 'Each count stops at `capped_at`: a count equal to it means that many or more.',
      response: {
        200: Type.Object(
          {
            partners_pending: Count('partner applications waiting for approval'),
            withdrawals_processing: Count('confirmed withdrawals waiting to be paid out'),
            tickets_open: Count("tickets waiting for support's answer"),
            capped_at: Type.Integer(),
          },
          { title: 'AdminOverview' },
        ),
      },
    },
    handler: async () => adminOverview(deps),
  });
}
