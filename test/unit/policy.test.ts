// The permission table (decisions 16) as a pure rule: each role x action, owner-only actions, partners
// acting in the account, API keys, and credentials that never act in a client account.
import { describe, expect, it } from 'vitest';
import {
  ACTIONS,
  blockedUnderImpersonation,
  can,
  denial,
  rolesFor,
  type Action,
} from '../../src/domain/access/policy.ts';
import { ROLES, type Principal, type Role } from '../../src/domain/access/principal.ts';

const tenant = { clientId: 1, mode: 'live' as const, plan: 'trial' };
const user = (role: Role): Principal => ({ kind: 'user', ...tenant, userId: 1, role });
const partnerInside: Principal = {
  kind: 'impersonation',
  ...tenant,
  userId: 1,
  role: 'admin',
  actor: { partner_id: 7, sid: 's' },
};
const apiKey: Principal = { kind: 'api_key', ...tenant, apiKeyId: 1, keyPrefix: 'kp_live_abcd' };
const code = (p: Principal, a: Action) => denial(p, a)?.code ?? 'ok';

// The specification's five roles: decisions 16's rows are about them; the cashier (decisions 28) is given
// the counters and who it is, and nothing else.
const TEAM: Role[] = ['owner', 'admin', 'accountant', 'support', 'viewer'];

// decisions 16, row by row, as the specification states it.
const EXPECTED: Record<string, Role[]> = {
  'payments.read': [...TEAM],
  'links.read': [...TEAM],
  'catalog.read': [...TEAM],
  'webhooks.read': [...TEAM],
  'events.read': [...TEAM],
  'account.read': [...TEAM],
  'logs.read': ['owner', 'admin', 'accountant'],
  'payments.export': ['owner', 'admin', 'accountant'],
  'payments.refund': ['owner', 'admin', 'accountant'],
  'payments.create': ['owner', 'admin'],
  'links.write': ['owner', 'admin'],
  'catalog.write': ['owner', 'admin'],
  'branding.write': ['owner', 'admin'],
  'webhooks.write': ['owner', 'admin'],
  'webhooks.rotate_secret': ['owner', 'admin'],
  'notifications.read_all': [...TEAM],
  'api_keys.manage': ['owner'],
  'account.accept_terms': [...TEAM],
  'metrics.read': [],
  'tickets.read': [...TEAM],
  'tickets.write': ['owner', 'admin', 'accountant', 'support'],
  'messenger.link': [...TEAM],
  'account.password': [...TEAM, 'cashier'],
  // decisions 28
  'account.me': [...TEAM, 'cashier'],
  'counters.write': ['owner', 'admin'],
  'counters.read': ['owner', 'admin', 'accountant', 'cashier'],
  'counters.use': ['owner', 'admin', 'cashier'],
  'account.notification_settings': [...TEAM],
  'organization.write': ['owner', 'admin'],
  'team.manage': ['owner'],
  'impersonation.manage': ['owner'],
  'provider_accounts.delete': ['owner'],
  'provider_accounts.write': ['owner', 'admin'],
  'onboarding.write': ['owner', 'admin'],
  'subscription.pay': ['owner', 'admin'],
  // decisions 27
  'receipts.read': [...TEAM],
  'fiscal.read': [...TEAM],
  'fiscal.registers.write': ['owner', 'admin'],
  'fiscal.operate': ['owner', 'admin', 'accountant'],
  'receipts.send': ['owner', 'admin', 'accountant', 'support'],
  'admin.tickets': [],
  'admin.clients': [],
  'admin.overview': [],
  'admin.outbox': [],
  'admin.audit': [],
  'admin.sandbox_pay': [],
  'admin.partners': [],
  'partner.read': [...TEAM],
  'partner.manage': ['owner', 'admin'],
  'partner.owner': ['owner'],
  'partner_api.read': [],
  'partner_api.write': [],
};

describe('policy table', () => {
  it('grants each action to exactly the roles of decisions 16', () => {
    for (const [action, roles] of Object.entries(EXPECTED)) {
      expect([...rolesFor(action as Action)].sort(), action).toEqual([...roles].sort());
      for (const role of ROLES)
        expect(can(user(role), action as Action), `${role} ${action}`).toBe(roles.includes(role));
    }
  });

  it('every declared action has an expectation here (a new action must be added to this test)', () => {
    const declared = Object.keys(ACTIONS);
    expect(declared.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it('refuses owner-only actions with not_owner, others with forbidden_role', () => {
    expect(code(user('admin'), 'api_keys.manage')).toBe('not_owner');
    expect(code(user('viewer'), 'api_keys.manage')).toBe('not_owner');
    expect(code(user('viewer'), 'payments.create')).toBe('forbidden_role');
    expect(code(user('support'), 'payments.refund')).toBe('forbidden_role');
    expect(code(user('owner'), 'api_keys.manage')).toBe('ok');
  });

  it('gives the cashier the counters and itself, nothing more (decisions 28)', () => {
    const given = (Object.keys(ACTIONS) as Action[]).filter((a) => can(user('cashier'), a));
    expect(given.sort()).toEqual(['account.me', 'account.password', 'counters.read', 'counters.use']);
    expect(code(user('cashier'), 'payments.refund')).toBe('forbidden_role');
    expect(code(user('cashier'), 'team.manage')).toBe('not_owner');
  });

  it('a partner inside the account acts as admin, less the blocked actions', () => {
    expect(code(partnerInside, 'webhooks.rotate_secret')).toBe('impersonation_blocked_action');
    expect(code(partnerInside, 'api_keys.manage')).toBe('impersonation_blocked_action');
    expect(code(partnerInside, 'webhooks.write')).toBe('ok');
    expect(code(partnerInside, 'payments.refund')).toBe('ok');
  });

  it('blocks under impersonation exactly what decisions 12 and 21 list', () => {
    // decisions 12: API keys, team, webhook secret rotation, provider-account deletion, the setting,
    // withdrawals (the partner cabinet's); decisions 21 adds messenger-link, /partner/* and /admin/*;
    // decisions 30 the password change; decisions 28 a member's own staff alerts.
    const listed = (a: string) =>
      a.startsWith('partner.') ||
      a.startsWith('admin.') ||
      [
        'api_keys.manage',
        'team.manage',
        'webhooks.rotate_secret',
        'provider_accounts.delete',
        'impersonation.manage',
        'messenger.link',
        'account.password',
        'account.notification_settings',
      ].includes(a);
    for (const action of Object.keys(ACTIONS) as Action[]) {
      expect(blockedUnderImpersonation(action), action).toBe(listed(action));
      if (listed(action)) expect(code(partnerInside, action), action).toBe('impersonation_blocked_action');
    }
    // Each team member binds its own chat; a partner inside the account never binds one to the user it acts as.
    expect(code(user('viewer'), 'messenger.link')).toBe('ok');
    expect(code(partnerInside, 'messenger.link')).toBe('impersonation_blocked_action');
  });

  it('an API key acts for its whole client but never takes owner-only or operator actions', () => {
    for (const action of Object.keys(ACTIONS) as Action[]) {
      const ownerOnly = rolesFor(action).length === 1 && rolesFor(action)[0] === 'owner';
      const expected = ownerOnly ? 'not_owner' : rolesFor(action).length === 0 ? 'forbidden_role' : 'ok';
      expect(code(apiKey, action), action).toBe(expected);
    }
  });

  it("the operator's token reads metrics and nothing of a client", () => {
    const operator: Principal = { kind: 'operator' };
    for (const action of Object.keys(ACTIONS) as Action[]) {
      expect(code(operator, action), action).toBe(action === 'metrics.read' ? 'ok' : 'forbidden_role');
    }
    expect(code(partnerInside, 'metrics.read')).toBe('forbidden_role');
  });

  it(
    'partner keys act on the partner API only, never inside a client ' + 'account; an admin acts on the admin API only',
    () => {
      const partnerKey: Principal = {
        kind: 'partner_key',
        partnerId: 1,
        partnerClientId: 1,
        mode: 'test',
        apiKeyId: 1,
        keyPrefix: 'pk_test_x',
      };
      const admin: Principal = { kind: 'operator_admin', userId: 1, email: 'ops@example.kz', clientId: 2 };
      for (const action of Object.keys(ACTIONS) as Action[]) {
        expect(code(partnerKey, action), action).toBe(action.startsWith('partner_api.') ? 'ok' : 'forbidden_role');
        expect(code(admin, action), action).toBe(action.startsWith('admin.') ? 'ok' : 'forbidden_role');
      }
    },
  );

  it('the partner API refuses every team role, an API key and a partner inside an account', () => {
    for (const action of (Object.keys(ACTIONS) as Action[]).filter((a) => a.startsWith('partner_api.'))) {
      for (const role of ROLES) expect(code(user(role), action), `${action} ${role}`).toBe('forbidden_role');
      expect(code(partnerInside, action)).toBe('forbidden_role');
    }
  });

  it(
    'the admin API refuses every team role, the owner too, and a partner ' +
      'inside an account (as blocked under impersonation)',
    () => {
      for (const action of (Object.keys(ACTIONS) as Action[]).filter((a) => a.startsWith('admin.'))) {
        for (const role of ROLES) expect(code(user(role), action), `${action} ${role}`).toBe('forbidden_role');
        expect(code(partnerInside, action)).toBe('impersonation_blocked_action');
      }
    },
  );
});
