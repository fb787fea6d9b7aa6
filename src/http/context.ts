// What a handler reads of its request, beyond the validated parts: who calls (set by the auth hook for
// every route that declares an audience), the tenant it acts for, and the provider-account header.
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import type { Tenant } from '../domain/tenant.ts';
import {
  isTenantPrincipal,
  type ImpersonationPrincipal,
  type PartnerKeyPrincipal,
  type Principal,
  type TenantPrincipal,
  type UserPrincipal,
} from '../domain/access/principal.ts';

export function principal(req: FastifyRequest): Principal {
  if (!req.principal) throw new AppError('invalid_token', 'authentication required');
  return req.principal;
}

/** The caller acting inside a client's account: an API key, a team member or an impersonating partner. */
export function tenantPrincipal(req: FastifyRequest): TenantPrincipal {
  const p = principal(req);
  if (!isTenantPrincipal(p)) throw new AppError('forbidden_role', 'this credential may not act in a client account');
  return p;
}

/** `{clientId, mode}` of the caller: what every tenant query takes. */
export function tenant(req: FastifyRequest): Tenant {
  const p = tenantPrincipal(req);
  return { clientId: p.clientId, mode: p.mode };
}

/**
 * `{clientId, mode, ...extra}`. Object.assign rather than `{ ...tenant(req), extra }`: on Node 20 a spread
 * followed by added fields takes V8's slow clone path (~10x slower, and the objects outlive the young
 * generation); see docs/architecture.md.
 */
export function tenantWith<C extends Tenant>(req: FastifyRequest, extra: Omit<C, keyof Tenant>): C {
  return Object.assign(tenant(req), extra) as C;
}

/** A cabinet caller: a person signed in to the client's account (a team member or a partner acting in it). */
export function cabinetUser(req: FastifyRequest): UserPrincipal | ImpersonationPrincipal {
  const p = principal(req);
  if (p.kind !== 'user' && p.kind !== 'impersonation')
    throw new AppError('invalid_token', 'a signed-in user is required');
  return p;
}

/** The X-Provider-Account header: which of the client's provider accounts to use; the default when absent. */
export function accountOf(req: FastifyRequest): string | undefined {
  const v = req.headers['x-provider-account'];
  return typeof v === 'string' ? v : undefined;
}

/** A partner's integration key on the partner API: the partner and the mode of everything it touches. */
export function partnerKey(req: FastifyRequest): PartnerKeyPrincipal {
  const p = principal(req);
  if (p.kind !== 'partner_key') throw new AppError('invalid_api_key', 'X-Partner-API-Key header is required');
  return p;
}
