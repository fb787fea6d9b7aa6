// Buying a plan (decisions 20). The operator is the payee: a plan QR is a live operation of the platform
// client (clients.is_platform) with source `subscription`, carrying the paying client and the plan. The
// plan is activated in the paid transition's own transaction (activate.ts), so a QR paid while nobody is
// looking still buys it; `check` only syncs and reports.
import { alsoWriting, answering, type Receipt } from '../receipt.ts';
import type { Deps } from '../../deps.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../errors.ts';
import { planActive } from '../plans.ts';
import { createQr } from '../payments/create.ts';
import { createProviderAccount } from '../payments/provider-accounts.ts';
import { OP_COLUMNS, type Operation } from '../payments/operations.ts';
import { syncOperation } from '../payments/sync.ts';
import { isPaid } from '../payments/state.ts';

export const PERIOD_DAYS = 30;

export const plansOf = (deps: Deps) =>
  Object.entries(deps.config.planPrices).map(([plan, amount]) => ({ plan, amount, period_days: PERIOD_DAYS }));

let platformId: { db: unknown; id: number } | undefined;
export async function platformClientId(db: Queryable): Promise<number> {
  if (platformId?.db === db) return platformId.id;
  const r = await db.query<{ id: number }>('SELECT id FROM clients WHERE is_platform');
  if (!r.rows[0]) throw new Error('the platform client is missing (migration 0011)');
  platformId = { db, id: r.rows[0].id };
  return r.rows[0].id;
}

/**
 * With the sandbox (or gateway) live driver the platform client takes payments from the first start; with
 * qrapi an operator connects its account (`main.js admin connect-platform`).
 */
export async function ensurePlatformAccount(deps: Deps): Promise<void> {
  if (deps.config.providerDriver === 'qrapi') return;
  const id = await platformClientId(deps.db);
  await deps.db.tx(async (tx) => {
    await tx.query('SELECT 1 FROM clients WHERE id = $1 FOR UPDATE', [id]);
    const has = await tx.query(
      `SELECT 1 FROM provider_accounts WHERE client_id = $1 AND mode = 'live' AND driver = $2 AND deleted_at IS NULL`,
      [id, deps.config.providerDriver],
    );
    const anyDefault = await tx.query(
      `SELECT 1 FROM provider_accounts WHERE client_id = $1 AND mode = 'live' AND is_default AND deleted_at IS NULL`,
      [id],
    );
    if (!has.rows.length)
      await createProviderAccount(tx, {
        clientId: id,
        mode: 'live',
        driver: deps.config.providerDriver,
        displayName: 'Platform',
        isDefault: !anyDefault.rows.length,
      });
  });
}

export interface PlanQr {
  operation_id: string;
  plan: string;
  amount: number;
  qr_token: string;
  deep_link: string;
  expires_at: Date;
  status: string;
}

/** What a plan costs for 30 days; the plans that cannot be bought are refused (decisions 20). */
export function purchasablePrice(deps: Deps, plan: string): number {
  if (plan === 'trial')
    throw new AppError('trial_already_used', 'the trial is given once, at registration; choose a paid plan');
  if (plan === 'enterprise') throw new AppError('plan_not_purchasable', 'enterprise is arranged with the operator');
  const price = deps.config.planPrices[plan];
  if (price === undefined)
    throw new AppError('invalid_parameter', `no plan "${plan}" (${Object.keys(deps.config.planPrices).join(', ')})`, {
      param: 'plan',
    });
  return price;
}

export async function payPlan(deps: Deps, clientId: number, plan: string, receipt?: Receipt<PlanQr>): Promise<PlanQr> {
  const amount = purchasablePrice(deps, plan);
  const platform = await platformClientId(deps.db);
  // The platform's live account of the driver this deployment runs (its default first): one store may
  // hold accounts of several drivers over time.
  const account = await deps.db.query<{ id: number }>(
    `SELECT id FROM provider_accounts WHERE client_id = $1 AND mode = 'live' AND driver = $2 AND deleted_at IS NULL
      ORDER BY is_default DESC, id DESC LIMIT 1`,
    [platform, deps.config.providerDriver],
  );
  if (!account.rows[0])
    throw new AppError(
      'provider_not_connected',
      'the operator has not connected its provider account for plan payments yet',
    );
  const answer = (op: Operation): PlanQr => ({
    operation_id: op.id,
    plan,
    amount,
    qr_token: op.qr_token!,
    deep_link: op.deep_link!,
    expires_at: op.expires_at,
    status: op.status,
  });
  const op = await createQr(
    deps,
    {
      clientId: platform,
      mode: 'live',
      source: 'subscription',
      account: String(account.rows[0].id),
    },
    { amount, comment: `Tolem ${plan}, ${PERIOD_DAYS} days, client ${clientId}` },
    // The plan QR is the platform's operation, marked as the buyer's purchase in its own transaction.
    alsoWriting(answering(receipt, answer), async (tx, o) => {
      await tx.query('UPDATE operations SET subscription_client_id = $2, subscription_plan = $3 WHERE id = $1', [
        o.id,
        clientId,
        plan,
      ]);
    }),
  );
  return answer(op);
}

export async function checkPlanPayment(deps: Deps, clientId: number, opId: string) {
  const r = await deps.db.query<Operation & { subscription_plan: string }>(
    `SELECT ${OP_COLUMNS}, subscription_plan FROM operations WHERE id = $1 AND subscription_client_id = $2`,
    [opId, clientId],
  );
  if (!r.rows[0]) throw new AppError('payment_not_found', `no plan payment ${opId}`);
  const op = await syncOperation(deps, r.rows[0]);
  const c = (
    await deps.db.query<{ plan: string; trial_ends_at: Date; plan_expires_at: Date | null }>(
      'SELECT plan, trial_ends_at, plan_expires_at FROM clients WHERE id = $1',
      [clientId],
    )
  ).rows[0];
  return {
    operation_id: op.id,
    status: op.status,
    plan: r.rows[0].subscription_plan,
    activated: isPaid(op.status),
    plan_active: planActive(c, deps.clock.now()),
    plan_expires_at: c.plan_expires_at,
  };
}
