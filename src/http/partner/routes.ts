// The partner cabinet, part one (decisions 21): the profile, its clients, invites, referral links and
// impersonation. A JWT of a user of the partner's own client; roles as decisions 16 say for partners;
// nothing here is allowed under impersonation. Every call but the profile needs an active partner.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.ts';
import {
  activePartner,
  partnerOfClient,
  registerPartner,
  PARTNER_STATUSES,
  type Partner,
} from '../../domain/partners/profile.ts';
import {
  listPartnerClients,
  partnerClientDetail,
  CLIENT_STATUSES,
  type ClientStatus,
} from '../../domain/partners/clients.ts';
import {
  clickLink,
  createLink,
  deleteLink,
  getLink,
  invitePartnerClient,
  listLinks,
  patchLink,
} from '../../domain/partners/referrals.ts';
import { impersonate } from '../../domain/partners/impersonate.ts';
import { issuePartnerKey, listPartnerKeys } from '../../domain/partners/keys.ts';
import { listCommissions, COMMISSION_STATUSES, type CommissionStatus } from '../../domain/partners/commissions.ts';
import { balanceOf, listLedger } from '../../domain/partners/ledger.ts';
import { actOf } from '../../domain/partners/act.ts';
import { renderAct } from '../../web/act-pdf.ts';
import {
  bankDetailsSet,
  confirmWithdrawal,
  getBank,
  listWithdrawals,
  patchBank,
  payClientPlan,
  requestWithdrawal,
  WITHDRAWAL_MIN,
} from '../../domain/partners/money.ts';
import {
  funnel,
  incomeGraph,
  INTERVALS,
  PERIODS,
  summary,
  type Interval,
  type Period,
} from '../../domain/partners/analytics.ts';
import { parseLimit } from '../../domain/pagination.ts';
import { AppError } from '../../errors.ts';
import { cabinetUser } from '../context.ts';
import { IdParams, IgnoredModeQuery, numericId, PageQuery } from '../params.ts';
import { route, type App } from '../route.ts';
import { Body, Nullable, Page, Timestamp } from '../schemas.ts';
import { PaymentItem, toPaymentItem } from '../shapes/payment.ts';

const PartnerProfile = Type.Object(
  {
    id: Type.Integer(),
    company_name: Type.String(),
    website: Nullable(Type.String()),
    contact_phone: Nullable(Type.String()),
    status: Type.String({ enum: [...PARTNER_STATUSES] }),
    commission_rate_bps: Type.Integer(),
    messenger_linked: Type.Boolean({ description: "the calling user's messenger chat (withdrawal codes go there)" }),
    bank_details_set: Type.Boolean(),
    created_at: Timestamp,
  },
  { title: 'PartnerProfile' },
);

export const ClientItem = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    email: Type.String(),
    external_id: Nullable(Type.String()),
    origin: Type.String({ enum: ['referral', 'invite', 'api'] }),
    status: Type.String({ enum: [...CLIENT_STATUSES] }),
    status_reason: Nullable(Type.String({ enum: ['plan_inactive', 'session_expired'] })),
    plan: Type.String(),
    plan_active: Type.Boolean(),
    provider_connected: Type.Boolean(),
    onboarding_state: Type.String(),
    impersonation_allowed: Type.Boolean(),
    phone: Nullable(Type.String()),
    metadata: Nullable(Type.Record(Type.String(), Type.Unknown())),
    created_at: Timestamp,
  },
  { title: 'PartnerClient' },
);

const Commission = Type.Object(
  {
    id: Type.Integer(),
    client_id: Type.Integer(),
    client_name: Type.String(),
    operation_id: Type.String(),
    plan: Type.String(),
    base_amount: Type.Integer(),
    rate_bps: Type.Integer(),
    amount: Type.Integer(),
    status: Type.String({ enum: [...COMMISSION_STATUSES] }),
    available_at: Timestamp,
    created_at: Timestamp,
  },
  { title: 'Commission' },
);

const ClientDetail = Type.Object(
  {
    ...ClientItem.properties,
    payments: Type.Array(PaymentItem, { description: 'the last 20 live payments' }),
    commissions: Type.Array(Commission, { description: 'the last 20 commissions on its plan payments' }),
  },
  { title: 'PartnerClientDetail' },
);

const Link = Type.Object(
  {
    id: Type.Integer(),
    code: Type.String(),
    url: Type.String({ description: 'the public /r/{code}' }),
    name: Nullable(Type.String()),
    is_active: Type.Boolean(),
    clicks: Type.Integer(),
    registrations: Type.Integer(),
    created_at: Timestamp,
  },
  { title: 'ReferralLink' },
);

const tags = ['partner'];
const querystring = Type.Object(IgnoredModeQuery);
const clientId = (raw: string) => numericId(raw, 'client_not_found', 'client');
const linkId = (raw: string) => numericId(raw, 'referral_link_not_found', 'link');

async function profileView(deps: Deps, p: Partner, userId: number) {
  const linked = await deps.db.query('SELECT 1 FROM users WHERE id = $1 AND messenger_chat_id IS NOT NULL', [userId]);
  return { ...p, messenger_linked: linked.rows.length > 0, bank_details_set: await bankDetailsSet(deps, p.id) };
}

export function partnerRoutes(app: App, deps: Deps): void {
  const partner = (req: FastifyRequest) => activePartner(deps, cabinetUser(req).clientId);

  route(app, {
    method: 'POST',
    url: '/partner/auth/register',
    auth: ['jwt'],
    permission: 'partner.owner',
    errors: [409],
    schema: {
      tags,
      summary: 'Apply to be a partner (approved by an admin, or at once with PARTNER_AUTO_APPROVE)',
      querystring,
      body: Body(
        {
          company_name: Type.String({ minLength: 1, maxLength: 200 }),
          website: Type.Optional(
            Type.String({
              maxLength: 300,
              description: 'an http or https URL (else 400 invalid_parameter, param website)',
            }),
          ),
          contact_phone: Type.Optional(Type.String({ maxLength: 32 })),
        },
        'PartnerRegisterRequest',
      ),
      response: { 201: PartnerProfile },
    },
    handler: async (req, reply) => {
      const u = cabinetUser(req);
      return reply
        .status(201)
        .send(await profileView(deps, await registerPartner(deps, u.clientId, req.body), u.userId));
    },
  });
  route(app, {
    method: 'GET',
    url: '/partner/me',
    auth: ['jwt'],
    permission: 'partner.read',
    errors: [404],
    schema: {
      tags,
      summary: 'The partner profile, whatever its status',
      querystring,
      response: { 200: PartnerProfile },
    },
    handler: async (req) => {
      const u = cabinetUser(req);
      const p = await partnerOfClient(deps.db, u.clientId);
      if (!p) throw new AppError('partner_not_found', 'this account has no partner profile');
      return profileView(deps, p, u.userId);
    },
  });

  route(app, {
    method: 'GET',
    url: '/partner/clients',
    auth: ['jwt'],
    permission: 'partner.read',
    schema: {
      tags,
      summary: "The partner's clients, newest first",
      querystring: Type.Object({
        ...IgnoredModeQuery,
        ...PageQuery,
        status: Type.Optional(Type.String({ enum: [...CLIENT_STATUSES] })),
      }),
      response: { 200: Page(ClientItem) },
    },
    handler: async (req) =>
      listPartnerClients(deps, (await partner(req)).id, {
        status: req.query.status as ClientStatus | undefined,
        cursor: req.query.cursor,
        limit: parseLimit(req.query.limit),
        endpoint: '/partner/clients',
      }),
  });
  route(app, {
    method: 'GET',
    url: '/partner/clients/:id',
    auth: ['jwt'],
    permission: 'partner.read',
    errors: [404],
    schema: {
      tags,
      summary: 'One client with its recent live payments',
      params: IdParams,
      querystring,
      response: { 200: ClientDetail },
    },
    handler: async (req) => {
      const p = await partner(req);
      const d = await partnerClientDetail(deps, p.id, clientId(req.params.id));
      const commissions = await listCommissions(deps, p.id, { clientId: d.id, limit: 20 });
      return { ...d, payments: d.payments.map(toPaymentItem), commissions: commissions.data };
    },
  });
  route(app, {
    method: 'POST',
    url: '/partner/clients/invite',
    auth: ['jwt'],
    permission: 'partner.manage',
    errors: [409],
    schema: {
      tags,
      summary: 'Invite a new client by e-mail (the token and link shown once; 7 days)',
      querystring,
      body: Body(
        {
          email: Type.String({ format: 'email', maxLength: 254 }),
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        },
        'PartnerInviteRequest',
      ),
      response: {
        201: Type.Object({
          id: Type.Integer(),
          email: Type.String(),
          status: Type.Literal('invited'),
          invite_token: Type.String(),
          invite_url: Type.String(),
          expires_at: Timestamp,
        }),
      },
    },
    handler: async (req, reply) =>
      reply.status(201).send(await invitePartnerClient(deps, (await partner(req)).id, req.body)),
  });
  route(app, {
    method: 'POST',
    url: '/partner/clients/:id/impersonate',
    auth: ['jwt'],
    permission: 'partner.manage',
    errors: [404],
    schema: {
      tags,
      summary: "Enter the client's account for 15 minutes (when it allows it); no refresh token",
      params: IdParams,
      querystring,
      body: Type.Optional(Body({})),
      response: {
        201: Type.Object({
          access_token: Type.String(),
          token_type: Type.Literal('Bearer'),
          expires_in: Type.Integer(),
          session_id: Type.Integer(),
        }),
      },
    },
    handler: async (req, reply) => {
      const u = cabinetUser(req);
      return reply
        .status(201)
        .send(await impersonate(deps, await partner(req), { userId: u.userId, ip: req.ip }, clientId(req.params.id)));
    },
  });

  route(app, {
    method: 'GET',
    url: '/partner/links',
    auth: ['jwt'],
    permission: 'partner.read',
    schema: {
      tags,
      summary: 'Referral links, newest first',
      querystring: Type.Object({ ...IgnoredModeQuery, ...PageQuery }),
      response: { 200: Page(Link) },
    },
    handler: async (req) =>
      listLinks(deps, (await partner(req)).id, { cursor: req.query.cursor, limit: parseLimit(req.query.limit) }),
  });
  route(app, {
    method: 'POST',
    url: '/partner/links',
    auth: ['jwt'],
    permission: 'partner.manage',
    schema: {
      tags,
      summary: 'A new referral link',
      querystring,
      body: Type.Optional(
        Body({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) }, 'ReferralLinkRequest'),
      ),
      response: { 201: Link },
    },
    handler: async (req, reply) =>
      reply.status(201).send(await createLink(deps, (await partner(req)).id, req.body?.name)),
  });
  route(app, {
    method: 'GET',
    url: '/partner/links/:id',
    auth: ['jwt'],
    permission: 'partner.read',
    errors: [404],
    schema: { tags, summary: 'One referral link', params: IdParams, querystring, response: { 200: Link } },
    handler: async (req) => getLink(deps, (await partner(req)).id, linkId(req.params.id)),
  });
  route(app, {
    method: 'PATCH',
    url: '/partner/links/:id',
    auth: ['jwt'],
    permission: 'partner.manage',
    errors: [404],
    schema: {
      tags,
      summary: 'Rename, switch on or off',
      params: IdParams,
      querystring,
      body: Body(
        {
          name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
          is_active: Type.Optional(Type.Boolean()),
        },
        'ReferralLinkPatch',
      ),
      response: { 200: Link },
    },
    handler: async (req) => patchLink(deps, (await partner(req)).id, linkId(req.params.id), req.body),
  });
  route(app, {
    method: 'DELETE',
    url: '/partner/links/:id',
    auth: ['jwt'],
    permission: 'partner.manage',
    errors: [404],
    schema: {
      tags,
      summary: 'Delete a referral link (its code stops working)',
      params: IdParams,
      querystring,
      response: { 204: Type.Null({ description: 'deleted' }) },
    },
    handler: async (req, reply) => {
      await deleteLink(deps, (await partner(req)).id, linkId(req.params.id));
      return reply.status(204).send(null);
    },
  });
}

/** The money side, part one: commissions and the ledger-backed balance. */
export function partnerMoneyRoutes(app: App, deps: Deps): void {
  const partner = (req: FastifyRequest) => activePartner(deps, cabinetUser(req).clientId);
  route(app, {
    method: 'GET',
    url: '/partner/commissions',
    auth: ['jwt'],
    permission: 'partner.read',
    schema: {
      tags,
      summary: 'Commissions, newest first',
      querystring: Type.Object({
        ...IgnoredModeQuery,
        ...PageQuery,
        status: Type.Optional(Type.String({ enum: [...COMMISSION_STATUSES] })),
      }),
      response: { 200: Page(Commission) },
    },
    handler: async (req) =>
      listCommissions(deps, (await partner(req)).id, {
        status: req.query.status as CommissionStatus | undefined,
        cursor: req.query.cursor,
        limit: parseLimit(req.query.limit),
      }),
  });
  route(app, {
    method: 'GET',
    url: '/partner/balance',
    auth: ['jwt'],
    permission: 'partner.read',
    schema: {
      tags,
      summary: 'Available and pending tenge',
      querystring,
      response: {
        200: Type.Object(
          { available_kzt: Type.Integer(), pending_kzt: Type.Integer(), updated_at: Nullable(Timestamp) },
          { title: 'PartnerBalance' },
        ),
      },
    },
    handler: async (req) => balanceOf(deps, (await partner(req)).id),
  });
  route(app, {
    method: 'GET',
    url: '/partner/balance/transactions',
    auth: ['jwt'],
    permission: 'partner.read',
    schema: {
      tags,
      summary: 'The ledger behind the balance, newest first',
      querystring: Type.Object({ ...IgnoredModeQuery, ...PageQuery }),
      response: {
        200: Page(
          Type.Object(
            {
              id: Type.Integer(),
              type: Type.String(),
              amount: Type.Integer({ description: 'signed tenge' }),
              available_after: Type.Integer(),
              pending_after: Type.Integer(),
              ref: Nullable(Type.String()),
              created_at: Timestamp,
            },
            { title: 'BalanceTransaction' },
          ),
        ),
      },
    },
    handler: async (req) =>
      listLedger(deps, (await partner(req)).id, { cursor: req.query.cursor, limit: parseLimit(req.query.limit) }),
  });
}

export const WithdrawalShape = Type.Object(
  {
    id: Type.Integer(),
    amount: Type.Integer(),
    status: Type.String({ enum: ['confirmation_required', 'processing', 'paid', 'rejected', 'cancelled'] }),
    code_expires_at: Nullable(Timestamp),
    attempts_left: Type.Integer(),
    reference: Nullable(Type.String()),
    reason: Nullable(Type.String()),
    paid_at: Nullable(Timestamp),
    created_at: Timestamp,
  },
  { title: 'Withdrawal' },
);

const BankShape = Type.Object(
  {
    recipient_name: Nullable(Type.String()),
    bin: Nullable(Type.String()),
    iban: Nullable(Type.String({ description: 'masked' })),
    bik: Nullable(Type.String()),
    bank_name: Nullable(Type.String()),
    kbe: Nullable(Type.String()),
    updated_at: Nullable(Timestamp),
  },
  { title: 'PartnerBank' },
);

/** Paying plans from the balance, bank details, withdrawals (the owner's, confirmed by messenger). */
export function partnerPayoutRoutes(app: App, deps: Deps): void {
  const partner = (req: FastifyRequest) => activePartner(deps, cabinetUser(req).clientId);
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
      listWithdrawals(deps, {
        partnerId: (await partner(req)).id,
        cursor: req.query.cursor,
        limit: parseLimit(req.query.limit),
        endpoint: '/partner/withdrawals',
      }),
  });
}

/** Analytics (decisions 21): UTC days, periods 7d, 30d (default), 90d, 365d, all. */
export function partnerAnalyticsRoutes(app: App, deps: Deps): void {
  const partner = (req: FastifyRequest) => activePartner(deps, cabinetUser(req).clientId);
  const PeriodQuery = {
    ...IgnoredModeQuery,
    period: Type.Optional(Type.String({ enum: [...PERIODS], description: 'default 30d' })),
  };
  const period = (q: { period?: string }) => (q.period ?? '30d') as Period;
  route(app, {
    method: 'GET',
    url: '/partner/analytics/summary',
    auth: ['jwt'],
    permission: 'partner.read',
    schema: {
      tags,
      summary: 'Clients, revenue and commissions of a period',
      querystring: Type.Object(PeriodQuery),
      response: {
        200: Type.Object(
          {
            period: Type.String(),
            from: Timestamp,
            to: Timestamp,
            clients_total: Type.Integer(),
            clients_new: Type.Integer(),
            clients_active: Type.Integer(),
            clients_paying: Type.Integer(),
            revenue_kzt: Type.Integer(),
            commissions_kzt: Type.Integer(),
            balance: Type.Object({ available_kzt: Type.Integer(), pending_kzt: Type.Integer() }),
          },
          { title: 'PartnerSummary' },
        ),
      },
    },
    handler: async (req) => summary(deps, await partner(req), period(req.query)),
  });
  route(app, {
    method: 'GET',
    url: '/partner/analytics/funnel',
    auth: ['jwt'],
    permission: 'partner.read',
    schema: {
      tags,
      summary: 'Clicks, then the clients registered in the period step by step (never rising after the clicks)',
      querystring: Type.Object(PeriodQuery),
      response: {
        200: Type.Array(
          Type.Object({
            step: Type.String({
              enum: ['link_clicks', 'registered', 'provider_connected', 'first_live_payment', 'paid_subscription'],
            }),
            value: Type.Integer(),
          }),
        ),
      },
    },
    handler: async (req) => funnel(deps, await partner(req), period(req.query)),
  });
  route(app, {
    method: 'GET',
    url: '/partner/analytics/income-graph',
    auth: ['jwt'],
    permission: 'partner.read',
    schema: {
      tags,
      summary: 'Commissions and plan revenue per day, week or month, zero-filled',
      querystring: Type.Object({
        ...PeriodQuery,
        interval: Type.Optional(Type.String({ enum: [...INTERVALS], description: 'default day' })),
      }),
      response: {
        200: Type.Object({
          data: Type.Array(
            Type.Object({
              date: Type.String({ description: "YYYY-MM-DD, the bucket's first UTC day" }),
              commissions_kzt: Type.Integer(),
              revenue_kzt: Type.Integer(),
            }),
          ),
        }),
      },
    },
    handler: async (req) =>
      incomeGraph(deps, await partner(req), period(req.query), (req.query.interval ?? 'day') as Interval),
  });
}

/** Integration keys for the partner API: the owner's, shown once. */
export function partnerKeyRoutes(app: App, deps: Deps): void {
  const PartnerKeyInfo = {
    mode: Type.String({ enum: ['live', 'test'] }),
    prefix: Type.String({ description: 'the first 12 characters, to recognise the key' }),
    created_at: Timestamp,
  };
  route(app, {
    method: 'GET',
    url: '/partner/integration/api-keys',
    auth: ['jwt'],
    permission: 'partner.owner',
    schema: {
      tags,
      summary: 'The partner API keys in force, one per mode at most: mode, prefix and date, never the key',
      querystring,
      response: { 200: Type.Object({ data: Type.Array(Type.Object(PartnerKeyInfo, { title: 'PartnerKeyInfo' })) }) },
    },
    handler: async (req) => {
      const p = await activePartner(deps, cabinetUser(req).clientId);
      return { data: await listPartnerKeys(deps, p.id) };
    },
  });
  route(app, {
    method: 'POST',
    url: '/partner/integration/api-keys',
    auth: ['jwt'],
    permission: 'partner.owner',
    schema: {
      tags,
      summary:
        'A partner API key of a mode (pk_live_/pk_test_), shown once; the previous one of that mode stops at once',
      querystring,
      body: Type.Optional(
        Body(
          { mode: Type.Optional(Type.String({ enum: ['live', 'test'], description: 'default live' })) },
          'PartnerKeyRequest',
        ),
      ),
      response: {
        201: Type.Object(
          {
            api_key: Type.String(),
            mode: Type.String({ enum: ['live', 'test'] }),
            prefix: Type.String(),
            created_at: Timestamp,
          },
          { title: 'PartnerKey' },
        ),
      },
    },
    handler: async (req, reply) => {
      const p = await activePartner(deps, cabinetUser(req).clientId);
      return reply.status(201).send(await issuePartnerKey(deps, p.id, (req.body?.mode ?? 'live') as 'live' | 'test'));
    },
  });
}

/** GET /r/{code}: a referral link's public face. Counts the click, then registration with the code. */
export function referralRedirectRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'GET',
    url: '/r/:code',
    auth: [],
    errors: [404],
    schema: {
      tags,
      summary: "A partner's referral link: counts a click and redirects (302) to registration with the code",
      params: Type.Object({ code: Type.String({ maxLength: 64 }) }),
      response: { 302: Type.Null({ description: 'to DASHBOARD_URL/register?referral_code=<code>' }) },
    },
    handler: async (req, reply) => {
      const code = await clickLink(deps, req.params.code);
      if (!code) throw new AppError('referral_link_not_found', 'this referral link does not exist or is switched off');
      return reply.redirect(`${deps.config.dashboardUrl}/register?referral_code=${encodeURIComponent(code)}`, 302);
    },
  });
}
