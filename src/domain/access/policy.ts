// The role x action table of decisions 16, declared once. Every authenticated route names one action
// (route() `permission`); the HTTP edge asks `authorize` before the handler runs, and /openapi.json shows
// the action, the roles it grants and whether it is blocked under partner impersonation. Handlers hold no
// authorization logic.
import { AppError } from '../../errors.ts';
import type { Principal, Role } from './principal.ts';

/** The specification's five roles: every row of decisions 16 is about them; the cashier is named apart. */
const TEAM = ['owner', 'admin', 'accountant', 'support', 'viewer'] as const satisfies readonly Role[];

/** The rows of decisions 16: who among a client's team may do an action. */
const GRANTS = {
  everyone: TEAM,
  // decisions 28: who the signed-in user is (GET /me, its own password) is the cashier's to read too.
  self: [...TEAM, 'cashier'],
  // decisions 28: the counter's QR is the cashier's work; its day's payments are read by finance too.
  counter_use: ['owner', 'admin', 'cashier'],
  counter_read: ['owner', 'admin', 'accountant', 'cashier'],
  finance: ['owner', 'admin', 'accountant'],
  managers: ['owner', 'admin'],
  staff: ['owner', 'admin', 'accountant', 'support'],
  owner: ['owner'],
  // Not a team's: the operator's tooling alone.
  operator: [],
  // Not a team's: a user with is_admin on the admin API (decisions 23).
  operator_admin: [],
  // Not a team's: a partner's integration key on the partner API (decisions 22).
  partner_integration: [],
} as const satisfies Record<string, readonly Role[]>;
type Grant = keyof typeof GRANTS;

interface Rule {
  grant: Grant;
  /** decisions 12 and 21: refused to a partner acting in the client's account, whatever the role */
  blockedUnderImpersonation?: true;
}

export const ACTIONS = {
  // GET of /me/* (but request logs), payments, links, webhooks, events, tickets, organization.
  'account.read': { grant: 'everyone' },
  // GET /me: who the signed-in user is, its role and what it may do; every role, the cashier too (its
  // dashboard learns from it that it has the counter alone).
  'account.me': { grant: 'self' },
  'payments.read': { grant: 'everyone' },
  'links.read': { grant: 'everyone' },
  'catalog.read': { grant: 'everyone' },
  'webhooks.read': { grant: 'everyone' },
  'events.read': { grant: 'everyone' },
  'tickets.read': { grant: 'everyone' },
  // decisions 27: fiscal receipts and the registers' state (never their credentials) are read by everyone.
  'receipts.read': { grant: 'everyone' },
  'fiscal.read': { grant: 'everyone' },
  // Accepting the offer: every role today (the first acceptance is the one that counts); see api-notes.
  'account.accept_terms': { grant: 'everyone' },
  // Own notifications: marking them read changes nothing but the read state.
  'notifications.read_all': { grant: 'everyone' },
  // Each user binds its own messenger chat. Never a partner inside the account (decisions 21): the chat
  // would be bound to the user it acts as, and that user's notifications would reach the partner.
  'messenger.link': { grant: 'everyone', blockedUnderImpersonation: true },
  // decisions 28: each user chooses its own staff alerts. Never a partner inside the account: it acts as a
  // user, and could silence the alerts (a failed receipt) that user relies on, or send them elsewhere.
  'account.notification_settings': { grant: 'everyone', blockedUnderImpersonation: true },
  // Each user changes its own password (decisions 30); never a partner inside the account, whose token
  // acts as a user it does not know the password of.
  'account.password': { grant: 'self', blockedUnderImpersonation: true },
  // decisions 28: the counters. The managers set them up; whoever works a counter or accounts for it
  // reads them and the day's payments made at one; the managers and the cashier make QRs at one.
  'counters.write': { grant: 'managers' },
  'counters.read': { grant: 'counter_read' },
  'counters.use': { grant: 'counter_use' },
  // Tickets: create and message.
  'tickets.write': { grant: 'staff' },
  // /me/logs, CSV export, refunds from the cabinet.
  'logs.read': { grant: 'finance' },
  'payments.export': { grant: 'finance' },
  'payments.refund': { grant: 'finance' },
  // decisions 27: a failed receipt's retry and a shift's Z-report now; sending a receipt to the payer.
  'fiscal.operate': { grant: 'finance' },
  'receipts.send': { grant: 'staff' },
  // Cabinet payments, links, branding, webhooks (all but rotate).
  'payments.create': { grant: 'managers' },
  'links.write': { grant: 'managers' },
  // The catalog (decisions 27): writes are the managers', like links.
  'catalog.write': { grant: 'managers' },
  'branding.write': { grant: 'managers' },
  'organization.write': { grant: 'managers' },
  // Provider accounts (all but delete), onboarding, subscription pay.
  'provider_accounts.write': { grant: 'managers' },
  // decisions 27: a register's set-up, edits and deletion.
  'fiscal.registers.write': { grant: 'managers' },
  'onboarding.write': { grant: 'managers' },
  'subscription.pay': { grant: 'managers' },
  'webhooks.write': { grant: 'managers' },
  'webhooks.rotate_secret': { grant: 'managers', blockedUnderImpersonation: true },
  // Team, API keys, impersonation setting, provider-account delete: the owner alone.
  'api_keys.manage': { grant: 'owner', blockedUnderImpersonation: true },
  'team.manage': { grant: 'owner', blockedUnderImpersonation: true },
  'impersonation.manage': { grant: 'owner', blockedUnderImpersonation: true },
  'provider_accounts.delete': { grant: 'owner', blockedUnderImpersonation: true },
  // The partner cabinet (decisions 16, 21): its own users by role; never under impersonation.
  'partner.read': { grant: 'everyone', blockedUnderImpersonation: true },
  'partner.manage': { grant: 'managers', blockedUnderImpersonation: true },
  'partner.owner': { grant: 'owner', blockedUnderImpersonation: true },
  // The partner integration API (decisions 22): a partner key (pk_live_/pk_test_) alone.
  'partner_api.read': { grant: 'partner_integration' },
  'partner_api.write': { grant: 'partner_integration' },
  // The operator's admin API (decisions 23): every call audited; decisions 21 lists it as blocked under
  // impersonation, so a partner's token says so rather than forbidden_role.
  'admin.tickets': { grant: 'operator_admin', blockedUnderImpersonation: true },
  'admin.clients': { grant: 'operator_admin', blockedUnderImpersonation: true },
  'admin.outbox': { grant: 'operator_admin', blockedUnderImpersonation: true },
  'admin.audit': { grant: 'operator_admin', blockedUnderImpersonation: true },
  'admin.sandbox_pay': { grant: 'operator_admin', blockedUnderImpersonation: true },
  'admin.partners': { grant: 'operator_admin', blockedUnderImpersonation: true },
  // What waits for the operator (partners to approve, withdrawals to pay, tickets to answer): counts only.
  'admin.overview': { grant: 'operator_admin', blockedUnderImpersonation: true },
  // The operator's own endpoints (decisions 25: /metrics with METRICS_TOKEN).
  'metrics.read': { grant: 'operator' },
} as const satisfies Record<string, Rule>;

export type Action = keyof typeof ACTIONS;

export const isAction = (a: unknown): a is Action => typeof a === 'string' && Object.hasOwn(ACTIONS, a);

/** The roles an action is granted to, for the OpenAPI document and the route sweep. */
export const rolesFor = (action: Action): readonly Role[] => GRANTS[ACTIONS[action].grant];

export const blockedUnderImpersonation = (action: Action): boolean =>
  (ACTIONS[action] as Rule).blockedUnderImpersonation === true;

/** Why `p` may not do `action`, or null when it may. */
export function denial(p: Principal, action: Action): AppError | null {
  const rule: Rule = ACTIONS[action];
  // First, whatever the grant: a partner inside the account meets the block before any role rule.
  if (p.kind === 'impersonation' && rule.blockedUnderImpersonation) {
    return new AppError('impersonation_blocked_action', 'not allowed while a partner acts in this account');
  }
  if (rule.grant === 'operator_admin')
    return p.kind === 'operator_admin'
      ? null
      : new AppError('forbidden_role', 'the admin API needs a user with is_admin');
  if (rule.grant === 'partner_integration')
    return p.kind === 'partner_key' ? null : new AppError('forbidden_role', 'the partner API needs a partner key');
  if (p.kind === 'operator_admin') return new AppError('forbidden_role', 'an admin token acts on the admin API only');
  if (p.kind === 'operator')
    return rule.grant === 'operator'
      ? null
      : new AppError('forbidden_role', 'this credential may not act in a client account');
  if (rule.grant === 'operator') return new AppError('forbidden_role', "only the operator's token may do this");
  switch (p.kind) {
    case 'api_key':
      // An API key acts for its whole client, like the owner's integration; owner-only actions are
      // cabinet actions, which no API-key route offers.
      return rule.grant === 'owner' ? new AppError('not_owner', 'only the account owner may do this') : null;
    case 'impersonation':
      return roleDenial(p.role, rule);
    case 'user':
      return roleDenial(p.role, rule);
    case 'partner_key':
      // It does not act inside a client's account through these actions.
      return new AppError('forbidden_role', 'this credential may not act in a client account');
  }
}

function roleDenial(role: Role, rule: Rule): AppError | null {
  if ((GRANTS[rule.grant] as readonly Role[]).includes(role)) return null;
  if (rule.grant === 'owner') return new AppError('not_owner', 'only the account owner may do this');
  return new AppError('forbidden_role', `the ${role} role may not do this`);
}

export const can = (p: Principal, action: Action): boolean => denial(p, action) === null;

/**
 * Every action `p` may do, in the table's order: GET /me answers it, so the dashboard shows each role the
 * pages it may use from this table rather than from rules of its own.
 */
export const allowedActions = (p: Principal): Action[] => (Object.keys(ACTIONS) as Action[]).filter((a) => can(p, a));

export function authorize(p: Principal, action: Action): void {
  const d = denial(p, action);
  if (d) throw d;
}
