// One sweep over every route, generated from the app's route table (every route() declaration). For each
// route: no credential, the wrong kind of credential, an expired token, each of the five team roles and a
// partner acting in the account (allowed, or 403 with the policy's code), and another tenant's ids (404).
// Each route's expectations come from its declared permission and the policy table, so a new route is
// covered the moment it is declared; a route with no permission fails unless it is a listed public route.
//
// Allowed cases must not change anything: bodies carry an unknown field (strict bodies refuse it with 400
// after the permission check) and path ids name nothing of the caller's own (404).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, idem, idsOf, impersonationToken, key, newMerchant, type Merchant } from '../helpers/factories.ts';
import { newAdmin, newMember, newPartner, newPartnerClient, newPartnerKey, newWithdrawal } from '../helpers/actors.ts';
import { createQr } from '../helpers/payments.ts';
import { createLink } from '../links/helpers.ts';
import { signAccessToken } from '../../src/domain/accounts/tokens.ts';
import { blockedUnderImpersonation, denial, isAction, rolesFor } from '../../src/domain/access/policy.ts';
import { ROLES, type Principal, type Role } from '../../src/domain/access/principal.ts';
import type { DeclaredRoute } from '../../src/http/route.ts';

// What a route may answer is derived, not listed: its declared `permission` (route()) and the policy table
// (which roles and credentials may do that action) say who is allowed and with which 403 code. A new route
// needs a line here only when it is one of the exceptions below, each with its reason.

/**
 * Routes without a credential (auth: [], no permission), by group, each with why it is open. A route that
 * declares no permission and is in no group fails the sweep: it forgot its audience.
 */
const PUBLIC: { routes: RegExp; why: string }[] = [
  {
    routes: /^GET \/(healthz|readyz|\.well-known\/jwks\.json|llms\.txt|llms-full\.txt)$/,
    why: 'probes, the token keys and the docs for machines',
  },
  { routes: /^GET \/metrics$/, why: 'open unless METRICS_TOKEN is set (then it takes metrics_token, metrics.read)' },
  { routes: /^POST \/auth\/(register|login|refresh|magic-exchange)$/, why: 'signing in: no credential yet' },
  {
    routes: /^POST \/auth\/invite-details$/,
    why: "an invitation's page, before registering: the invitation's token is the credential",
  },
  {
    routes: /^POST \/auth\/password\/(forgot|reset)$/,
    why: 'a forgotten password: the e-mailed token is the credential',
  },
  { routes: /^(GET|POST) \/(v2\/)?checkout\//, why: "the payer's checkout: the link's token is its credential" },
  { routes: /^(GET|POST) \/sandbox\/qr\/:ref/, why: "the sandbox provider's payer side (test mode)" },
  { routes: /^GET \/pay\//, why: "the payer's receipt and status pages: the operation's id is its credential" },
  {
    routes: /^GET \/fiscal\/check$/,
    why: "a test receipt's check page, like a fiscal data operator's: the receipt's four parameters are its credential",
  },
  { routes: /^POST \/messenger\/webhook$/, why: "the bot platform's updates, with a shared secret (SHARED_SECRET)" },
  { routes: /^GET \/v1\/subscription\/plans$/, why: 'the price list' },
  { routes: /^GET \/r\/:code$/, why: "a partner's referral link" },
  { routes: /^GET \/dashboard(\/\*)?$/, why: "the dashboard's files: it signs in through /auth" },
];
const publicGroupOf = (route: string) => PUBLIC.find((g) => g.routes.test(route));

/**
 * Routes that change something yet whose action is granted to every role, the viewer included. Any other
 * such route fails the sweep: a write open to a viewer is a decision, not a default.
 */
/** The specification's five roles (decisions 16); the cashier (decisions 28) is given the counters alone. */
const TEAM: readonly Role[] = ['owner', 'admin', 'accountant', 'support', 'viewer'];

const WRITES_FOR_EVERYONE: Record<string, string> = {
  'POST /me/accept-terms': 'each user accepts the offer (the first acceptance counts)',
  'POST /me/notifications/read-all': "marks the user's own notifications read, nothing else",
  'POST /me/messenger-link': 'each user binds its own messenger chat',
  'POST /me/password': 'each user changes its own password (knowing the current one)',
  'PATCH /me/notification-settings': "each user chooses its own staff alerts; nobody else's change",
  'POST /v1/history': 'v1 reads history with a POST (the provider API it mirrors)',
};

/** The principal each credential a route accepts stands for, to ask the policy whether it may act. */
const AUDIENCE: Record<DeclaredRoute['config']['auth'][number], Principal> = {
  jwt: { kind: 'user', clientId: 1, mode: 'live', plan: 'trial', userId: 1, role: 'owner' },
  api_key: { kind: 'api_key', clientId: 1, mode: 'live', plan: 'trial', apiKeyId: 1, keyPrefix: 'kp_test_' },
  admin_jwt: { kind: 'operator_admin', userId: 1, email: 'ops@example.kz', clientId: 2 },
  partner: { kind: 'partner_key', partnerId: 1, partnerClientId: 1, mode: 'test', apiKeyId: 1, keyPrefix: 'pk_test_' },
  metrics_token: { kind: 'operator' },
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
  // decisions 28: a partner acting as a member could silence the alerts that member relies on.
  'PATCH /me/notification-settings',
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
  item_id: 'ci_01JSWEEP000000000000000000',
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

beforeAll(async () => {
  t = await buildTestApp({ webhooksAllowPrivate: true });
  routes = t.routes;
  a = await newMerchant(t.app);
  const ids = await idsOf(t.runtime.deps.db, a);
  aClient = ids.clientId;
  // A's team: the owner, and a member of each other role who joined by invitation.
  tokens.owner = a.access;
  for (const role of ROLES.filter((r) => r !== 'owner')) tokens[role] = (await newMember(t.app, a, role)).access;
  tokens.partner = (await impersonationToken(t.runtime.deps, a)).access;
  // A user with is_admin (of another client): the admin API's caller.
  const ops = await newAdmin(t.app, t.runtime.deps.db);
  tokens.platformAdmin = ops.access;
  tokens.expired = await signAccessToken(
    { ...t.runtime.deps, clock: { now: () => new Date(Date.now() - 3600_000) } },
    { sub: String(ids.userId), cid: aClient, role: 'owner' },
  );

  // Another tenant's things, in test mode: what A's test key or A's JWT with ?mode=test must not reach.
  const b = await newMerchant(t.app);
  foreign.op_id = (await createQr(t.app, b.testKey)).operation_id;
  foreign.token = (await createLink(t.app, b.testKey)).token;
  const item = await t.app.inject({
    method: 'POST',
    url: '/v2/catalog/items',
    headers: key(b.testKey),
    payload: { name: 'B', price: 100 },
  });
  foreign.item_id = String(item.json().id);
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
  for (const who of [a, b]) await newPartner(t.app, ops, { companyName: 'Sweep partner', owner: who });
  const bClient = await newPartnerClient(t.app, b);
  foreign.partnerClient = String(bClient.clientId);
  foreign.link = String(
    (await t.app.inject({ method: 'POST', url: '/partner/links', headers: bearer(b), payload: {} })).json().id,
  );
  // B's client's payment (made after the client became B's: an operation takes its client's partner).
  foreign.partnerPayment = (await createQr(t.app, bClient.testKey)).operation_id;
  partnerKey = await newPartnerKey(t.app, a, 'test');
  // Another partner's withdrawal (its money path: a client of its link buys plans, the admin pays them).
  foreign.withdrawal = String((await newWithdrawal(t, ops)).id);
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
  // B's counter on B's test provider account (decisions 28).
  const bTestAccount = await t.runtime.deps.db.query<{ id: number }>(
    `SELECT id FROM provider_accounts WHERE client_id = $1 AND mode = 'test'`,
    [(await idsOf(t.runtime.deps.db, b)).clientId],
  );
  const counter = await t.app.inject({
    method: 'POST',
    url: '/me/counters?mode=test',
    headers: bearer(b),
    payload: { name: 'B', provider_account_id: bTestAccount.rows[0].id },
  });
  foreign.counter = String(counter.json().id);
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
    : r.url.startsWith('/me/counters/')
      ? { ...foreign, id: foreign.counter }
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
  'PATCH /v2/catalog/items/:item_id': { name: 'sweep' },
  'PATCH /me/team/:member_id': { role: 'viewer' },
  'PATCH /me/counters/:id': { name: 'sweep' },
  'POST /me/counters/:id/qr': { amount: 100 },
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
  it('every route declares a permission of the policy table, or is a listed public route', () => {
    for (const r of routes) {
      if (r.config.auth.length) expect(isAction(r.config.permission), `${name(r)} declares no permission`).toBe(true);
      else {
        expect(r.config.permission, `${name(r)}: a public route has no permission`).toBeUndefined();
        expect(publicGroupOf(name(r)), `${name(r)}: no permission and in no PUBLIC group`).toBeDefined();
      }
    }
    expect(routes.filter((r) => !r.config.auth.length).length).toBeGreaterThan(30);
  });

  it('every exception names a declared route', () => {
    const declared = routes.map(name);
    for (const g of PUBLIC)
      expect(
        declared.some((n) => g.routes.test(n)),
        `${g.routes}: ${g.why}`,
      ).toBe(true);
    for (const n of [...Object.keys(WRITES_FOR_EVERYONE), ...SHARED_SECRET]) expect(declared, n).toContain(n);
    for (const n of SHARED_SECRET) expect(publicGroupOf(n), n).toBeDefined();
  });

  it("each credential a route accepts may do the route's permission (the policy table)", () => {
    for (const r of routes.filter((x) => x.config.auth.length)) {
      for (const kind of r.config.auth) {
        expect(denial(AUDIENCE[kind], r.config.permission!)?.code ?? null, `${name(r)} with ${kind}`).toBeNull();
      }
    }
  });

  it('a route that changes something is not open to every role unless listed', () => {
    const open = routes.filter(
      (r) =>
        r.method !== 'GET' && r.config.auth.length && TEAM.every((x) => rolesFor(r.config.permission!).includes(x)),
    );
    expect(open.map(name).sort()).toEqual(Object.keys(WRITES_FOR_EVERYONE).sort());
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

  it('each role (cashier too) and a partner in the account: allowed, or 403 with the policy code', async () => {
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
