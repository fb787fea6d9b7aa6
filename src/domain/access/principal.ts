// Who is calling, resolved from exactly one credential by the HTTP edge. A discriminated union, so that
// what a caller may do is read from its kind rather than from optional fields.
import type { Mode } from '../tenant.ts';

/**
 * The team roles: the specification's five, then `cashier` (decisions 28), which may use the client's
 * counters and nothing else. Grants name the roles they give to (policy.ts), so a role added here gets
 * nothing it is not given.
 */
export const ROLES = ['owner', 'admin', 'accountant', 'support', 'viewer', 'cashier'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (r: unknown): r is Role => typeof r === 'string' && (ROLES as readonly string[]).includes(r);

/** The partner acting inside a client's account (decisions 21: the token's `act` claim). */
export interface Actor {
  partner_id?: number;
  sub?: string;
  sid?: string;
  [claim: string]: unknown;
}

interface TenantBound {
  clientId: number;
  mode: Mode;
  plan: string;
}

/** A client's API key (kp_live_/kp_test_): acts for the whole client in the key's mode. */
export interface ApiKeyPrincipal extends TenantBound {
  kind: 'api_key';
  apiKeyId: number;
  keyPrefix: string;
}

/** A team member's access token: acts by role; mode from ?mode=test, else live. */
export interface UserPrincipal extends TenantBound {
  kind: 'user';
  userId: number;
  role: Role;
}

/** A partner inside a client's account: the rights of `admin`, less what is blocked under impersonation. */
export interface ImpersonationPrincipal extends TenantBound {
  kind: 'impersonation';
  userId: number;
  role: 'admin';
  actor: Actor;
}

/** A partner's integration key (pk_live_/pk_test_): the partner API only. */
export interface PartnerKeyPrincipal {
  kind: 'partner_key';
  partnerId: number;
  /** the partner's own client account: where its idempotency keys are kept */
  partnerClientId: number;
  mode: Mode;
  apiKeyId: number;
  keyPrefix: string;
}

/** A user with is_admin on the operator's admin API. */
export interface OperatorAdminPrincipal {
  kind: 'operator_admin';
  userId: number;
  email: string;
  /** the client the admin's own user belongs to: its account, which it may not disable from the admin API */
  clientId: number;
}

/** The operator's own tooling (a metrics scraper with METRICS_TOKEN): no user, no client. */
export interface OperatorPrincipal {
  kind: 'operator';
}

export type Principal =
  | ApiKeyPrincipal
  | UserPrincipal
  | ImpersonationPrincipal
  | PartnerKeyPrincipal
  | OperatorAdminPrincipal
  | OperatorPrincipal;
export type TenantPrincipal = ApiKeyPrincipal | UserPrincipal | ImpersonationPrincipal;

export const isTenantPrincipal = (p: Principal): p is TenantPrincipal =>
  p.kind === 'api_key' || p.kind === 'user' || p.kind === 'impersonation';
