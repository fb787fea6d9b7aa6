// The admin API's partner withdrawals (decisions 21, 23): the list, paying one, refusing one.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { listAllWithdrawals, markPaid, rejectWithdrawal } from '../../domain/partners/money.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { IdParams, numericId, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Page } from '../schemas.ts';
import { AdminWithdrawal as Withdrawal, AdminWithdrawalListItem as ListedWithdrawal } from '../shapes/withdrawal.ts';
import { auth, tags } from './shared.ts';

export function adminWithdrawalRoutes(app: App, deps: Deps): void {
  const withdrawalId = (raw: string) => numericId(raw, 'withdrawal_not_found', 'withdrawal');
  route(app, {
    method: 'GET',
    url: '/admin/withdrawals',
    auth,
    permission: 'admin.partners',
    schema: {
      tags,
      summary: 'Partner withdrawals, newest first',
      querystring: Type.Object({
        ...PageQuery,
        status: Type.Optional(
          Type.String({ enum: ['confirmation_required', 'processing', 'paid', 'rejected', 'cancelled'] }),
        ),
      }),
      response: { 200: Page(ListedWithdrawal) },
    },
    handler: async (req) =>
      listAllWithdrawals(
        deps,
        { endpoint: '/admin/withdrawals' },
        { status: req.query.status },
        { cursor: req.query.cursor, limit: parseLimit(req.query.limit) },
      ),
  });
  route(app, {
    method: 'POST',
    url: '/admin/withdrawals/:id/mark-paid',
    auth,
    permission: 'admin.partners',
    errors: [404, 409],
    schema: {
      tags,
      summary: 'The money was sent: paid, with the bank reference',
      params: IdParams,
      body: Body({ reference: Type.String({ minLength: 1, maxLength: 200 }) }, 'MarkPaidRequest'),
      response: { 200: Withdrawal },
    },
    handler: async (req) => markPaid(deps, withdrawalId(req.params.id), req.body.reference),
  });
  route(app, {
    method: 'POST',
    url: '/admin/withdrawals/:id/reject',
    auth,
    permission: 'admin.partners',
    errors: [404, 409],
    schema: {
      tags,
      summary: 'Refuse it: the amount goes back to the balance',
      params: IdParams,
      body: Body({ reason: Type.String({ minLength: 1, maxLength: 500 }) }, 'RejectRequest'),
      response: { 200: Withdrawal },
    },
    handler: async (req) => rejectWithdrawal(deps, withdrawalId(req.params.id), req.body.reason),
  });
}
