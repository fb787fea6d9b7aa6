// GET /v1/status: the account facts v1 integrations poll (decisions 15). v2 has no such call; GET /me and
// GET /me/usage carry the same data.
import { clientPlan } from '../accounts/clients-store.ts';
import { defaultAccountSession } from '../payments/provider-accounts.ts';
import type { DbClockDeps } from '../../deps.ts';
import type { Tenant } from '../tenant.ts';
import { PLAN_LIMITS } from '../plans.ts';
import { paidThisMonth } from '../payments/plan-check.ts';

/** v1 showed "unlimited" as this number (the specification's enterprise limit). */
export const V1_UNLIMITED = 999_999;

export interface V1AccountStatus {
  session_alive: boolean;
  plan: string;
  payments_used: number;
  payments_limit: number;
}

export async function v1AccountStatus(deps: DbClockDeps, tenant: Tenant): Promise<V1AccountStatus> {
  const { clientId } = tenant;
  const { plan } = await clientPlan(deps.db, clientId);
  // The session of the provider account this key's payments go through (the default one of its mode).
  // No connected account means nothing can be paid: reported as a dead session, the v1 reconnect signal.
  const sessionAlive = await defaultAccountSession(deps.db, tenant);
  return {
    session_alive: sessionAlive,
    plan,
    // The plan counts live paid payments of the UTC month, whatever the key's mode (test never counts).
    payments_used: await paidThisMonth(deps, clientId),
    payments_limit: PLAN_LIMITS[plan] ?? V1_UNLIMITED,
  };
}
