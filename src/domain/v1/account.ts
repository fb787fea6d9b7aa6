// GET /v1/status: the account facts v1 integrations poll (decisions 15). v2 has no such call; GET /me and
// GET /me/usage carry the same data.
import type { Deps } from '../../deps.ts';
import type { Mode } from '../tenant.ts';
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

export async function v1AccountStatus(deps: Deps, clientId: number, mode: Mode): Promise<V1AccountStatus> {
  const c = await deps.db.query<{ plan: string }>('SELECT plan FROM clients WHERE id = $1', [clientId]);
  const plan = c.rows[0].plan;
  // The session of the provider account this key's payments go through (the default one of its mode).
  // No connected account means nothing can be paid: reported as a dead session, the v1 reconnect signal.
  const acc = await deps.db.query<{ session_alive: boolean }>(
    `SELECT session_alive FROM provider_accounts WHERE client_id = $1 AND mode = $2 AND is_default
        AND deleted_at IS NULL`,
    [clientId, mode],
  );
  return {
    session_alive: acc.rows[0]?.session_alive ?? false,
    plan,
    // The plan counts live paid payments of the UTC month, whatever the key's mode (test never counts).
    payments_used: await paidThisMonth(deps, clientId),
    payments_limit: PLAN_LIMITS[plan] ?? V1_UNLIMITED,
  };
}
