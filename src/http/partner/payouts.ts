// The partner cabinet's money, part two (decisions 21): paying a client's plan from the balance, the bank
// details, and withdrawals (the owner's, confirmed by a code sent by messenger) with their acts.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { actOf } from '../../domain/partners/act.ts';
import {
  confirmWithdrawal,
  getBank,
  listWithdrawals,
  patchBank,
  payClientPlan,
  requestWithdrawal,
  WITHDRAWAL_MIN,
} from '../../domain/partners/money.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { renderAct } from '../../web/act-pdf.ts';
import { cabinetUser } from '../context.ts';
import { IdParams, IgnoredModeQuery, numericId, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Nullable, Page, Timestamp } from '../schemas.ts';
import { PartnerBank as BankShape, Withdrawal as WithdrawalShape } from '../shapes/withdrawal.ts';
import { clientId, partnerOf, querystring, tags } from './shared.ts';

export function partnerPayoutRoutes(app: App, deps: Deps): void {
  const partner = partnerOf(deps);
  const withdrawalId = (raw: string) => numericId(raw, 'withdrawal_not_found', 'withdrawal');
  route(app, {
    method: 'POST',
    url: '/partner/clients/:id/pay-subscription',
    auth: ['jwt'],
    permission: 'partner.manage',
    idempotent: 'required',
    errors: [404, 409],
    schema: {
      tags,
      summary: "Pay a client's plan from the available balance (no commission on it)",
      params: IdParams,
      querystring,
      body: Body({ plan: Type.String({ minLength: 1, maxLength: 32 }) }, 'PartnerPayPlanRequest'),
      response: {
        200: Type.Object({
          client_id: Type.Integer(),
          plan: Type.String(),
          amount: Type.Integer(),
          plan_expires_at: Timestamp,
        }),
      },
    },
    handler: async (req) =>
      payClientPlan(deps, (await partner(req)).id, clientId(req.params.id), req.body.plan, (tx, a) =>
        req.idempotency!.saveInTx(tx, 200, a),
      ),
  });
  route(app, {
    method: 'GET',
    url: '/partner/settings/bank',
    auth: ['jwt'],
    permission: 'partner.owner',
    schema: { tags, summary: 'Bank details (IBAN masked)', querystring, response: { 200: BankShape } },
    handler: async (req) => getBank(deps, (await partner(req)).id),
  });
  route(app, {
    method: 'PATCH',
    url: '/partner/settings/bank',
    auth: ['jwt'],
    permission: 'partner.owner',
    errors: [409],
    schema: {
      tags,
      summary: 'Change bank details (frozen while a withdrawal is open)',
      querystring,
      body: Body(
        {
          recipient_name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
          bin: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
          iban: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
          bik: Type.Optional(Nullable(Type.String({ maxLength: 11 }))),
          bank_name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
          kbe: Type.Optional(Nullable(Type.String({ maxLength: 2 }))),
        },
        'PartnerBankPatch',
      ),
      response: { 200: BankShape },
    },
    handler: async (req) => patchBank(deps, (await partner(req)).id, req.body),
  });
  route(app, {
    method: 'POST',
    url: '/partner/withdrawals',
    auth: ['jwt'],
    permission: 'partner.owner',
    idempotent: 'required',
    errors: [409],
    schema: {
      tags,
      summary: `Withdraw (at least ${WITHDRAWAL_MIN} tenge): 202, and a code by messenger to confirm it`,
      querystring,
      body: Body({ amount: Type.Integer({ minimum: 1, description: 'tenge' }) }, 'WithdrawalRequest'),
      response: { 202: WithdrawalShape },
    },
    handler: async (req, reply) => {
      const u = cabinetUser(req);
      const w = await requestWithdrawal(deps, (await partner(req)).id, u.userId, req.body.amount, (tx, x) =>
        req.idempotency!.saveInTx(tx, 202, x),
      );
      return reply.status(202).send(w);
    },
  });
  route(app, {
    method: 'POST',
    url: '/partner/withdrawals/:id/confirm',
    auth: ['jwt'],
    permission: 'partner.owner',
    errors: [404, 409],
    schema: {
      tags,
      summary: 'Confirm with the messenger code (5 tries, 10 minutes; then cancelled and released)',
      params: IdParams,
      querystring,
      body: Body({ code: Type.String({ minLength: 1, maxLength: 12 }) }, 'WithdrawalConfirmRequest'),
      response: { 200: WithdrawalShape },
    },
    handler: async (req) =>
      confirmWithdrawal(deps, (await partner(req)).id, withdrawalId(req.params.id), req.body.code),
  });
  route(app, {
    method: 'GET',
    url: '/partner/withdrawals/:id/act',
    auth: ['jwt'],
    permission: 'partner.read',
    errors: [404, 409],
    schema: {
      tags,
      summary: 'The act of a paid withdrawal: an A4 PDF in Russian, the same bytes on every download',
      params: IdParams,
      querystring,
      response: {
        200: {
          description: 'the act',
          content: { 'application/pdf': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } },
        },
      },
    },
    handler: async (req, reply) => {
      const act = await actOf(deps, (await partner(req)).id, withdrawalId(req.params.id));
      reply.type('application/pdf').header('Content-Disposition', `attachment; filename="act-${act.number}.pdf"`);
      return reply.send(await renderAct(act));
    },
  });
  route(app, {
    method: 'GET',
    url: '/partner/withdrawals',
    auth: ['jwt'],
    permission: 'partner.read',
    schema: {
      tags,
      summary: 'Withdrawals, newest first',
      querystring: Type.Object({ ...IgnoredModeQuery, ...PageQuery }),
      response: { 200: Page(WithdrawalShape) },
    },
    handler: async (req) =>
      listWithdrawals(
        deps,
        { partnerId: (await partner(req)).id, endpoint: '/partner/withdrawals' },
        {},
        { cursor: req.query.cursor, limit: parseLimit(req.query.limit) },
      ),
  });
}
