// One sweep over every route, generated from the app's route table (every route() declaration). For each
// route: no credential, the wrong kind of credential, an expired token, each of the five team roles and a
// partner acting in the account (allowed, or 403 with the policy's code), and another tenant's ids (404).
// EXPECTED below names each route's permission: a route declared without an entry here fails the sweep,
// and so does an entry whose route is gone, so a new route is covered the moment it is declared.
//
// Allowed cases must not change anything: bodies carry an unknown field (strict bodies refuse it with 400
// after the permission check) and path ids name nothing of the caller's own (404).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, idem, idsOf, impersonationToken, key, newMerchant, type Merchant } from '../helpers/factories.ts';
import { createQr } from '../helpers/payments.ts';
import { createLink } from '../links/helpers.ts';
import { signAccessToken } from '../../src/domain/accounts/tokens.ts';
import { blockedUnderImpersonation, denial, rolesFor, type Action } from '../../src/domain/access/policy.ts';
import { ROLES, type Principal, type Role } from '../../src/domain/access/principal.ts';
import type { DeclaredRoute } from '../../src/http/route.ts';

type Permission = Action | 'public';

const EXPECTED: Record<string, Permission> = {
  'GET /healthz': 'public',
  'GET /llms.txt': 'public',
  'GET /llms-full.txt': 'public',
  'GET /readyz': 'public',
  'GET /metrics': 'public',
  'GET /.well-known/jwks.json': 'public',
  'POST /auth/register': 'public',
  'POST /auth/login': 'public',
  'POST /auth/refresh': 'public',
  'POST /auth/magic-exchange': 'public',
  'POST /auth/password/forgot': 'public',
  'POST /auth/password/reset': 'public',
  'GET /me': 'account.read',
  'POST /me/accept-terms': 'account.accept_terms',
  'POST /me/api-key/regenerate': 'api_keys.manage',
  'POST /me/password': 'account.password',
  'GET /me/logs': 'logs.read',
  'GET /me/usage': 'account.read',
  'GET /me/notifications': 'account.read',
  'GET /me/notifications/unread-count': 'account.read',
  'POST /me/notifications/read-all': 'notifications.read_all',
  'GET /me/branding': 'account.read',
  'PATCH /me/branding': 'branding.write',
  'POST /me/branding/logo': 'branding.write',
  'POST /me/webhooks': 'webhooks.write',
  'GET /me/webhooks': 'webhooks.read',
  'GET /me/webhooks/:id': 'webhooks.read',
  'PATCH /me/webhooks/:id': 'webhooks.write',
  'DELETE /me/webhooks/:id': 'webhooks.write',
  'POST /me/webhooks/:id/rotate-secret': 'webhooks.rotate_secret',
  'POST /me/webhooks/:id/enable': 'webhooks.write',
  'POST /me/webhooks/:id/disable': 'webhooks.write',
  'POST /me/webhooks/:id/test': 'webhooks.write',
  'GET /me/webhooks/:id/deliveries': 'webhooks.read',
  'POST /me/webhooks/:id/deliveries/:delivery_id/retry': 'webhooks.write',
  'GET /me/payments': 'payments.read',
  'POST /me/payments/create-qr': 'payments.create',
  'POST /me/payments/create-invoice': 'payments.create',
  'GET /me/payments/status/:op_id': 'payments.read',
  'POST /me/payments/:op_id/refund': 'payments.refund',
  'GET /me/payments/stats': 'payments.read',
  'GET /me/payments/export': 'payments.export',
  'POST /v2/qr': 'payments.create',
  'GET /v2/qr/:op_id': 'payments.read',
  'POST /v2/invoices': 'payments.create',
  'GET /v2/invoices/:op_id': 'payments.read',
  'POST /v2/invoices/:op_id/cancel': 'payments.create',
  'POST /v2/refunds': 'payments.refund',
  'GET /v2/payments': 'payments.read',
  'GET /v2/client': 'payments.read',
  'GET /v2/events': 'events.read',
  'POST /v2/test/payments/:op_id/pay': 'payments.create',
  'POST /v2/test/payments/:op_id/expire': 'payments.create',
  'POST /v2/test/payments/:op_id/decline': 'payments.create',
  'POST /v2/payment-links': 'links.write',
  'GET /v2/payment-links': 'links.read',
  'GET /v2/payment-links/:token': 'links.read',
  'PATCH /v2/payment-links/:token': 'links.write',
  'POST /v2/payment-links/:token/refresh-qr': 'links.write',
  'POST /v2/payment-links/:token/cancel': 'links.write',
  'GET /v2/checkout/:token': 'public',
  'GET /v2/checkout/:token/status': 'public',
  'POST /v2/checkout/:token/refresh-qr': 'public',
  'POST /v2/checkout/:token/email': 'public',
  'POST /v2/checkout/:token/simulate-payment': 'public',
  'GET /checkout/:token': 'public',
  'POST /checkout/:token/email': 'public',
  'POST /checkout/:token/refresh': 'public',
  'POST /checkout/:token/simulate': 'public',
  'GET /checkout/assets/checkout.css': 'public',
  'GET /checkout/assets/checkout.js': 'public',
  'GET /checkout/assets/theme.css': 'public',
  'GET /sandbox/qr/:ref': 'public',
  'POST /sandbox/qr/:ref/pay': 'public',
  'POST /sandbox/qr/:ref/decline': 'public',
  'POST /sandbox/qr/:ref/expire': 'public',
  'GET /pay/:op_id': 'public',
  'GET /pay/:op_id/status': 'public',
  'GET /pay/:op_id/refunds/:refund_id': 'public',
  'GET /pay/:op_id/refunds/:refund_id/status': 'public',
  'GET /pay/assets/payer.js': 'public',
  'GET /pay/assets/payer.css': 'public',
  'POST /v1/qr/create': 'payments.create',
  'GET /v1/qr/status/:operationId': 'payments.read',
  'POST /v1/invoice/create': 'payments.create',
  'POST /v1/invoice/cancel': 'payments.create',
  'POST /v1/refund': 'payments.refund',
  'POST /v1/history': 'payments.read',
  'GET /v1/client/:phone': 'payments.read',
  'GET /v1/status': 'account.read',
  'GET /me/organization': 'account.read',
  'PUT /me/organization': 'organization.write',
  'GET /me/team': 'account.read',
  'POST /me/team/invite': 'team.manage',
  'PATCH /me/team/:member_id': 'team.manage',
  'DELETE /me/team/:member_id': 'team.manage',
  'GET /me/tickets': 'tickets.read',
  'POST /me/tickets': 'tickets.write',
  'GET /me/tickets/:id': 'tickets.read',
  'POST /me/tickets/:id/messages': 'tickets.write',
  'GET /me/integrations': 'account.read',
  'PATCH /me/allow-partner-impersonation': 'impersonation.manage',
  'GET /me/partner-impersonation/sessions': 'account.read',
  'POST /me/messenger-link': 'messenger.link',
  'POST /messenger/webhook': 'public',
  'GET /admin/tickets': 'admin.tickets',
  'GET /admin/tickets/:id': 'admin.tickets',
  'POST /admin/tickets/:id/messages': 'admin.tickets',
  'PATCH /admin/tickets/:id': 'admin.tickets',
  'GET /admin/clients': 'admin.clients',
  'PATCH /admin/clients/:id': 'admin.clients',
  'GET /admin/outbox': 'admin.outbox',
  'GET /admin/audit': 'admin.audit',
  'POST /onboarding/provider/start': 'onboarding.write',
  'POST /onboarding/provider/verify': 'onboarding.write',
  'POST /onboarding/provider/resend': 'onboarding.write',
  'GET /onboarding/provider/status': 'account.read',
  'GET /me/provider/accounts': 'account.read',
  'GET /me/provider/accounts/:id': 'account.read',
  'PATCH /me/provider/accounts/:id': 'provider_accounts.write',
  'POST /me/provider/accounts/:id/health-check': 'provider_accounts.write',
  'POST /me/provider/accounts/:id/set-default': 'provider_accounts.write',
  'DELETE /me/provider/accounts/:id': 'provider_accounts.delete',
  'GET /v1/subscription/plans': 'public',
  'POST /v1/subscription/pay': 'subscription.pay',
  'GET /v1/subscription/check/:op_id': 'payments.read',
  'POST /admin/sandbox/payments/:op_id/pay': 'admin.sandbox_pay',
  'POST /partner/auth/register': 'partner.owner',
  'GET /partner/me': 'partner.read',
  'GET /partner/clients': 'partner.read',
  'GET /partner/clients/:id': 'partner.read',
  'POST /partner/clients/invite': 'partner.manage',
  'POST /partner/clients/:id/impersonate': 'partner.manage',
  'GET /partner/links': 'partner.read',
  'POST /partner/links': 'partner.manage',
  'GET /partner/links/:id': 'partner.read',
  'PATCH /partner/links/:id': 'partner.manage',
  'DELETE /partner/links/:id': 'partner.manage',
  'GET /r/:code': 'public',
  'POST /partner/integration/api-keys': 'partner.owner',
  'GET /partner/integration/api-keys': 'partner.owner',
  'GET /partner/commissions': 'partner.read',
  'GET /partner/balance': 'partner.read',
  'GET /partner/balance/transactions': 'partner.read',
  'GET /partner/analytics/summary': 'partner.read',
  'GET /partner/analytics/funnel': 'partner.read',
  'GET /partner/analytics/income-graph': 'partner.read',
  'POST /partner/clients/:id/pay-subscription': 'partner.manage',
  'GET /partner/settings/bank': 'partner.owner',
  'PATCH /partner/settings/bank': 'partner.owner',
  'POST /partner/withdrawals': 'partner.owner',
  'POST /partner/withdrawals/:id/confirm': 'partner.owner',
  'GET /partner/withdrawals': 'partner.read',
  'GET /partner/withdrawals/:id/act': 'partner.read',
  'GET /admin/withdrawals': 'admin.partners',
  'POST /admin/withdrawals/:id/mark-paid': 'admin.partners',
  'POST /admin/withdrawals/:id/reject': 'admin.partners',
  'GET /admin/partners': 'admin.partners',
  'POST /admin/partners/:id/approve': 'admin.partners',
  'POST /admin/partners/:id/reject': 'admin.partners',
  'POST /admin/partners/:id/suspend': 'admin.partners',
  'PATCH /admin/partners/:id': 'admin.partners',
  'GET /dashboard': 'public',
  'GET /dashboard/*': 'public',
  'GET /partner/v1/ping': 'partner_api.read',
  'POST /partner/v1/clients': 'partner_api.write',
  'GET /partner/v1/clients': 'partner_api.read',
  'GET /partner/v1/clients/:client_ref': 'partner_api.read',
  'POST /partner/v1/clients/:client_ref/provider/start': 'partner_api.write',
  'POST /partner/v1/clients/:client_ref/provider/verify': 'partner_api.write',
  'POST /partner/v1/clients/:client_ref/provider/resend': 'partner_api.write',
  'GET /partner/v1/clients/:client_ref/provider/status': 'partner_api.read',
  'GET /partner/v1/clients/:client_ref/webhooks': 'partner_api.read',
  'POST /partner/v1/clients/:client_ref/webhooks': 'partner_api.write',
  'POST /partner/v1/clients/:client_ref/api-key/rotate': 'partner_api.write',
  'POST /partner/v1/clients/:client_ref/login-link': 'partner_api.write',
  'POST /partner/v1/checkout': 'partner_api.write',
  'GET /partner/v1/payments': 'partner_api.read',
  'GET /partner/v1/payments/:operation_id': 'partner_api.read',
};

// decisions 12 and 21: what a partner acting in a client's account may not do (403
// impersonation_blocked_action), route by route, besides the whole partner cabinet and admin API; decisions 30
// adds the password change.
const BLOCKED_UNDER_IMPERSONATION = new Set([
  'POST /me/api-key/regenerate',
  'POST /me/password',
  'POST /me/team/invite',
  'PATCH /me/team/:member_id',
  'DELETE /me/team/:member_id',
  'POST /me/webhooks/:id/rotate-secret',
  'DELETE /me/provider/accounts/:id',
  'PATCH /me/allow-partner-impersonation',
  'POST /me/messenger-link',
]);
const blockedByDecisions = (route: string) =>
  BLOCKED_UNDER_IMPERSONATION.has(route) ||
  / \/admin\//.test(route) ||
  (/ \/partner\//.test(route) && !/ \/partner\/v1\//.test(route));

// Public routes that authenticate their caller by a shared secret instead of a user's credential: without
// it they are 401 (the bot platform's secret-token header).
const SHARED_SECRET = new Set(['POST /messenger/webhook']);

// Path ids that name nothing of the caller's own: an allowed caller gets 404 and nothing changes.
const MISSING: Record<string, string> = {
  op_id: 'op_01JSWEEP0000000000000000000',
  token: 'SweepSweepSweepSweepSwee',
  id: '999999999',
  delivery_id: '999999999',
  operationId: '999999999',
  phone: '+77012345678',
  ref: 'sbx_qr_sweep',
  member_id: '999999999',
  code: 'sweepcode00',
  client_ref: 'sweep-no-such-client',
  operation_id: 'op_01JSWEEP0000000000000000000',
  refund_id: 'rf_01JSWEEP000000000000000000',
};
// Path parameters that are not a tenant's ids (nothing to isolate).
const NOT_TENANT_IDS = new Set(['phone', 'code']);

let t: TestApp;
let routes: DeclaredRoute[];
let a: Merchant;
let aClient: number;
const tokens = {} as Record<Role | 'partner' | 'expired' | 'platformAdmin', string>;
/** A's partner integration key (test mode) */
let partnerKey: string;
const partnerHeader = (k: string) => ({ 'x-partner-api-key': k });
const foreign: Record<string, string> = {};

async function userToken(role: Role): Promise<string> {
  if (role === 'owner') return a.access;
  const u = await t.runtime.deps.db.query<{ id: number }>(
    `INSERT INTO users (client_id, email, name, role) VALUES ($1, $2, $3, $4) RETURNING id`,
    [aClient, `${role}-${aClient}@sweep.kz`, role, role],
  );
  return signAccessToken(t.runtime.deps, { sub: String(u.rows[0].id), cid: aClient, role });
}

beforeAll(async () => {
  t = await buildTestApp({ webhooksAllowPrivate: true });
  routes = t.routes;
  a = await newMerchant(t.app);
  const ids = await idsOf(t.runtime.deps.db, a);
  aClient = ids.clientId;
  for (const role of ROLES) tokens[role] = await userToken(role);
  tokens.partner = (await impersonationToken(t.runtime.deps, a)).access;
  // A user with is_admin (of another client): the admin API's caller.
  const ops = await newMerchant(t.app);
  const opsIds = await idsOf(t.runtime.deps.db, ops);
  await t.runtime.deps.db.query('UPDATE users SET is_admin = true WHERE id = $1', [opsIds.userId]);
  tokens.platformAdmin = ops.access;
  tokens.expired = await signAccessToken(
    { ...t.runtime.deps, clock: { now: () => new Date(Date.now() - 3600_000) } },
    { sub: String(ids.userId), cid: aClient, role: 'owner' },
  );

  // Another tenant's things, in test mode: what A's test key or A's JWT with ?mode=test must not reach.
  const b = await newMerchant(t.app);
  foreign.op_id = (await createQr(t.app, b.testKey)).operation_id;
  foreign.token = (await createLink(t.app, b.testKey)).token;
  const hook = await t.app.inject({
    method: 'POST',
    url: '/me/webhooks?mode=test',
    headers: bearer(b),
    payload: { url: 'http://127.0.0.1:9/hook', events: ['payment.completed'] },
  });
  foreign.id = String(hook.json().id);
  const sent = await t.app.inject({
    method: 'POST',
    url: `/me/webhooks/${foreign.id}/test?mode=test`,
    headers: bearer(b),
    payload: {},
  });
  foreign.delivery_id = String(sent.json().delivery_id);
  // Both are active partners: B's client and link are what A's partner calls must not reach.
  for (const who of [a, b]) {
    await t.app.inject({
      method: 'POST',
      url: '/partner/auth/register',
      headers: bearer(who),
      payload: { company_name: 'Sweep partner' },
    });
  }
  await t.runtime.deps.db.query(`UPDATE partners SET status = 'active' WHERE client_id = ANY($1::bigint[])`, [
    [aClient, (await idsOf(t.runtime.deps.db, b)).clientId],
  ]);
  const bClient = await newMerchant(t.app);
  const bPartner = (
    await t.runtime.deps.db.query<{ id: number }>('SELECT id FROM partners WHERE client_id = $1', [
      (await idsOf(t.runtime.deps.db, b)).clientId,
    ])
  ).rows[0].id;
  await t.runtime.deps.db.query('UPDATE clients SET partner_id = $2, partner_origin = $3 WHERE id = $1', [
    (await idsOf(t.runtime.deps.db, bClient)).clientId,
    bPartner,
    'invite',
  ]);
  foreign.partnerClient = String((await idsOf(t.runtime.deps.db, bClient)).clientId);
  foreign.link = String(
    (await t.app.inject({ method: 'POST', url: '/partner/links', headers: bearer(b), payload: {} })).json().id,
  );
  // B's client's payment (made after the client became B's: an operation takes its client's partner).
  foreign.partnerPayment = (await createQr(t.app, bClient.testKey)).operation_id;
  partnerKey = (
    await t.app.inject({
      method: 'POST',
      url: '/partner/integration/api-keys',
      headers: bearer(a),
      payload: { mode: 'test' },
    })
  ).json().api_key;
  // B's withdrawal, straight into the table (its money path is tested on its own).
  const bPartnerUser = (await idsOf(t.runtime.deps.db, b)).userId;
  foreign.withdrawal = String(
    (
      await t.runtime.deps.db.query<{ id: number }>(
        `INSERT INTO withdrawals (partner_id, amount, status, requested_by, code_hash, code_expires_at, bank_sealed) VALUES ($1, 30000, 'confirmation_required', $2, 'x', now() + interval '1 hour', 'x') RETURNING id`,
        [bPartner, bPartnerUser],
      )
    ).rows[0].id,
  );
  const ticket = await t.app.inject({
    method: 'POST',
    url: '/me/tickets',
    headers: bearer(b),
    payload: { subject: 'B', body: 'B' },
  });
  foreign.ticket = String(ticket.json().id);
  foreign.member_id = String((await idsOf(t.runtime.deps.db, b)).userId);
  foreign.account = String(
    (
      await t.runtime.deps.db.query<{ id: number }>(`SELECT id FROM provider_accounts WHERE client_id = $1`, [
        (await idsOf(t.runtime.deps.db, b)).clientId,
      ])
    ).rows[0].id,
  );
  const v1 = await t.app.inject({
    method: 'POST',
    url: '/v1/qr/create',
    headers: { ...key(b.testKey), ...idem() },
    payload: { amount: 100 },
  });
  foreign.operationId = String(v1.json().Data.QrOperationId);
}, 60_000);
afterAll(() => t?.close());

const name = (r: DeclaredRoute) => `${r.method} ${r.url}`;
const paramsOf = (url: string) => [...url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
const fill = (url: string, values: Record<string, string>) =>
  url.replace(/:([A-Za-z_]+)/g, (_, p: string) => values[p] ?? MISSING[p]);
/** Routes that take a user's access token (the cabinet's, or the admin API's). */
const jwtLike = (r: DeclaredRoute) => r.config.auth.includes('jwt') || r.config.auth.includes('admin_jwt');
const isAdminApi = (r: DeclaredRoute) => r.config.auth.includes('admin_jwt');
/** Another tenant's value of a route's path parameters (`:id` names a webhook, or a ticket). */
const foreignFor = (r: DeclaredRoute) =>
  r.url.startsWith('/me/tickets/')
    ? { ...foreign, id: foreign.ticket }
    : r.url.startsWith('/me/provider/accounts/')
      ? { ...foreign, id: foreign.account }
      : r.url.startsWith('/partner/clients/')
        ? { ...foreign, id: foreign.partnerClient }
        : r.url.startsWith('/partner/v1/')
          ? { ...foreign, client_ref: foreign.partnerClient, operation_id: foreign.partnerPayment }
          : r.url.startsWith('/partner/withdrawals/')
            ? { ...foreign, id: foreign.withdrawal }
            : r.url.startsWith('/partner/links/')
              ? { ...foreign, id: foreign.link }
              : foreign;

function send(
  r: DeclaredRoute,
  headers: Record<string, string>,
  values: Record<string, string> = {},
  query = '',
  payload?: object,
): Promise<LightMyRequestResponse> {
  const hasBody = !['GET', 'DELETE'].includes(r.method);
  return t.app.inject({
    method: r.method as 'GET',
    url: fill(r.url, values) + query,
    headers,
    ...(hasBody ? { payload: payload ?? { sweep_unknown_field: true } } : {}),
  });
}

// Valid bodies for the cross-tenant case, so that the handler runs and must not find the other tenant's
// row (a refused body would answer 400 before the lookup). Everything else takes {}.
const VALID_BODY: Record<string, object> = {
  'PATCH /me/webhooks/:id': { description: 'sweep' },
  'PATCH /v2/payment-links/:token': { description: 'sweep' },
  'PATCH /me/team/:member_id': { role: 'viewer' },
  'POST /me/tickets/:id/messages': { body: 'sweep' },
  'PATCH /me/provider/accounts/:id': { display_name: 'sweep' },
  'PATCH /partner/links/:id': { name: 'sweep' },
  'POST /partner/clients/:id/pay-subscription': { plan: 'starter' },
  'POST /partner/withdrawals/:id/confirm': { code: '000000' },
  'POST /partner/v1/clients/:client_ref/webhooks': { url: 'https://example.kz/sweep', events: ['payment.completed'] },
};

/** The error code of either envelope (v1 answers {Data, StatusCode, Message}). */
function codeOf(res: LightMyRequestResponse): string | undefined {
  const body = res.headers['content-type']?.toString().includes('json') ? res.json() : undefined;
  return body?.error?.code ?? (body?.StatusCode !== undefined ? `v1:${body.StatusCode}` : undefined);
}

const AUTH_CODES = [
  'invalid_api_key',
  'invalid_token',
  'token_expired',
  'token_revoked',
  'forbidden_role',
  'not_owner',
  'impersonation_blocked_action',
];

function expectAllowed(res: LightMyRequestResponse, what: string): void {
  expect(
    [401, 403].includes(res.statusCode) && AUTH_CODES.includes(codeOf(res) ?? ''),
    `${what}: ${res.statusCode} ${res.body.slice(0, 200)}`,
  ).toBe(false);
  // 501 is a route that is switched off by design (logo upload), not a failure.
  if (res.statusCode >= 500) expect(codeOf(res), `${what}: ${res.body.slice(0, 200)}`).toBe('logo_upload_disabled');
}

function expectRefused(res: LightMyRequestResponse, status: number, code: string, what: string): void {
  expect(res.statusCode, `${what}: ${res.body.slice(0, 200)}`).toBe(status);
  expect(codeOf(res), what).toBe(r1(code, res));
}
// v1 keeps its own envelope: its refusals carry StatusCode = -status instead of a code.
const r1 = (code: string, res: LightMyRequestResponse) =>
  res.json()?.StatusCode !== undefined ? `v1:-${res.statusCode}` : code;

/** A principal of tenant A with this role, for asking the policy what the answer must be. */
const asPrincipal = (role: Role | 'partner'): Principal =>
  role === 'partner'
    ? { kind: 'impersonation', clientId: aClient, mode: 'live', plan: 'trial', userId: 1, role: 'admin', actor: {} }
    : { kind: 'user', clientId: aClient, mode: 'live', plan: 'trial', userId: 1, role };

describe('route sweep', () => {
  it('every declared route is in the sweep, and every sweep entry is a declared route', () => {
    const declared = routes.map(name).sort();
    expect(
      declared.filter((n) => !(n in EXPECTED)),
      'routes missing from the sweep',
    ).toEqual([]);
    expect(
      Object.keys(EXPECTED).filter((n) => !declared.includes(n)),
      'sweep entries with no route',
    ).toEqual([]);
  });

  it('each route declares the permission the sweep expects', () => {
    for (const r of routes) expect(r.config.permission ?? 'public', name(r)).toBe(EXPECTED[name(r)]);
  });

  it("/openapi.json shows each documented route's permission, its roles and its impersonation policy", async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    let documented = 0;
    for (const r of routes.filter((x) => x.config.permission)) {
      const op = doc.paths[r.url.replace(/:([A-Za-z_]+)/g, '{$1}')]?.[r.method.toLowerCase()];
      if (!op) continue; // hidden from the document (the checkout page's form posts)
      documented++;
      expect(op['x-permission'], name(r)).toBe(r.config.permission);
      expect(op['x-roles'], name(r)).toEqual([...rolesFor(r.config.permission!)]);
      expect(op['x-impersonation'], name(r)).toBe(
        blockedUnderImpersonation(r.config.permission!) ? 'blocked' : 'allowed',
      );
      if (r.config.auth.includes('jwt') && rolesFor(r.config.permission!).length < ROLES.length) {
        expect(op.responses['403']?.description, name(r)).toMatch(/forbidden_role|not_owner/);
      }
    }
    expect(documented).toBeGreaterThan(40);
  });

  it('the policy blocks under impersonation exactly the routes decisions 12 and 21 list', () => {
    for (const r of routes.filter(jwtLike))
      expect(blockedUnderImpersonation(r.config.permission!), name(r)).toBe(blockedByDecisions(name(r)));
    for (const n of BLOCKED_UNDER_IMPERSONATION)
      expect(
        routes.some((r) => name(r) === n),
        n,
      ).toBe(true);
  });

  it('every path parameter has a value for the sweep', () => {
    for (const r of routes) for (const p of paramsOf(r.url)) expect(MISSING[p], `${name(r)} :${p}`).toBeDefined();
  });

  it('public routes need no credential', async () => {
    for (const r of routes.filter((x) => !x.config.auth.length)) {
      const res = await send(r, {});
      if (SHARED_SECRET.has(name(r))) expectRefused(res, 401, 'invalid_token', name(r));
      else expectAllowed(res, name(r));
    }
  });

  it('no credential: 401', async () => {
    for (const r of routes.filter((x) => x.config.auth.length)) {
      const res = await send(r, {});
      expectRefused(
        res,
        401,
        ['jwt', 'admin_jwt'].includes(r.config.auth[0]) ? 'invalid_token' : 'invalid_api_key',
        name(r),
      );
    }
  });

  it('the wrong kind of credential: 401', async () => {
    for (const r of routes.filter((x) => x.config.auth.length)) {
      const kinds = r.config.auth;
      const wrong = !jwtLike(r)
        ? bearer(a)
        : !kinds.includes('api_key')
          ? key(a.testKey)
          : { 'x-partner-api-key': 'pk_test_sweep' };
      const res = await send(r, wrong);
      expect(res.statusCode, `${name(r)}: ${res.body.slice(0, 200)}`).toBe(401);
    }
  });

  it('an expired token: 401 token_expired', async () => {
    for (const r of routes.filter(jwtLike)) {
      expectRefused(await send(r, { authorization: `Bearer ${tokens.expired}` }), 401, 'token_expired', name(r));
    }
  });

  it('each of the five roles, and a partner acting in the account: allowed, or 403 with the policy code', async () => {
    for (const r of routes.filter(jwtLike)) {
      for (const who of [...ROLES, 'partner'] as const) {
        const res = await send(r, { authorization: `Bearer ${tokens[who]}` });
        const refusal = denial(asPrincipal(who), r.config.permission!);
        if (refusal) expectRefused(res, 403, refusal.code, `${name(r)} as ${who}`);
        else expectAllowed(res, `${name(r)} as ${who}`);
      }
    }
  });

  it("an admin's token reaches every admin route; nobody else's does", async () => {
    const admin = routes.filter(isAdminApi);
    expect(admin.length).toBeGreaterThanOrEqual(8);
    for (const r of admin) {
      expectAllowed(await send(r, { authorization: `Bearer ${tokens.platformAdmin}` }), `${name(r)} as admin`);
      expectRefused(
        await send(r, { authorization: `Bearer ${tokens.owner}` }),
        403,
        'forbidden_role',
        `${name(r)} as an owner`,
      );
    }
  });

  it('API keys act for the whole client', async () => {
    for (const r of routes.filter((x) => x.config.auth.includes('api_key'))) {
      expectAllowed(await send(r, key(a.testKey)), name(r));
    }
  });

  it("a partner key reaches every partner API route; a malformed, unknown or client's key does not", async () => {
    const partnerApi = routes.filter((x) => x.config.auth.includes('partner'));
    expect(partnerApi.length).toBeGreaterThanOrEqual(14);
    for (const r of partnerApi) {
      expectAllowed(await send(r, partnerHeader(partnerKey)), name(r));
      expectRefused(
        await send(r, partnerHeader(`pk_test_${'x'.repeat(40)}`)),
        401,
        'invalid_api_key',
        `${name(r)} unknown key`,
      );
      expectRefused(await send(r, partnerHeader('pk_test_short')), 401, 'invalid_api_key', `${name(r)} malformed key`);
      expectRefused(
        await send(r, partnerHeader(a.testKey)),
        401,
        'invalid_api_key',
        `${name(r)} a client key as a partner key`,
      );
    }
  });

  it("another tenant's ids: 404", async () => {
    // The admin API sees every client by design; everything else is a tenant's.
    const isolated = routes.filter(
      (x) => x.config.auth.length && !isAdminApi(x) && paramsOf(x.url).some((p) => !NOT_TENANT_IDS.has(p)),
    );
    expect(isolated.length).toBeGreaterThan(20);
    for (const r of isolated) {
      const own =
        r.config.auth[0] === 'jwt'
          ? bearer(a)
          : r.config.auth[0] === 'partner'
            ? partnerHeader(partnerKey)
            : key(a.testKey);
      const headers = { ...own, ...(r.method === 'GET' ? {} : idem()) };
      const res = await send(
        r,
        headers,
        foreignFor(r),
        r.config.auth[0] === 'jwt' ? '?mode=test' : '',
        VALID_BODY[name(r)] ?? {},
      );
      expect(res.statusCode, `${name(r)}: ${res.body.slice(0, 200)}`).toBe(404);
    }
  });

  it("another tenant's ids in a body: 404", async () => {
    const cases: [string, string, Record<string, string>, object][] = [
      ['POST', '/v2/refunds', key(a.testKey), { operation_id: foreign.op_id, amount: 1 }],
      ['POST', '/v1/invoice/cancel', key(a.testKey), { operation_id: foreign.operationId }],
      ['POST', '/v1/refund', key(a.testKey), { operation_id: foreign.operationId, items: [{ price: 1 }] }],
      [
        'POST',
        '/partner/v1/checkout',
        partnerHeader(partnerKey),
        { client_ref: foreign.partnerClient, amount: 100, description: 'sweep' },
      ],
      ['GET', `/partner/v1/payments?client_ref=${foreign.partnerClient}`, partnerHeader(partnerKey), {}],
    ];
    for (const [method, url, headers, payload] of cases) {
      const res = await t.app.inject({
        method: method as 'POST',
        url,
        headers: { ...headers, ...idem() },
        ...(method === 'GET' ? {} : { payload }),
      });
      expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 200)}`).toBe(404);
    }
  });
});
