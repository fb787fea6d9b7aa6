// Buying a plan (decisions 20). The operator is the payee: a plan QR is a live operation of the platform
// client (clients.is_platform) with source `subscription`, carrying the paying client and the plan. The
// plan is activated in the paid transition's own transaction (activate.ts), so a QR paid while nobody is
// looking still buys it; `check` only syncs and reports.
import type { Tenant } from '../tenant.ts';
import { clientPlan, lockClient, platformClientId } from '../accounts/clients-store.ts';
import { findPlanPurchase, markPlanPurchase } from '../payments/plan-purchases.ts';
import { alsoWriting, answering, type Receipt } from '../receipt.ts';
import type { Deps, ProviderDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { planActive } from '../plans.ts';
import { createQr } from '../payments/create.ts';
import { createProviderAccount, liveAccountOfDriver } from '../payments/provider-accounts.ts';
import { type Operation } from '../payments/operations.ts';
import { syncOperation } from '../payments/sync.ts';
import { isPaid } from '../payments/state.ts';

export const PERIOD_DAYS = 30;

export const plansOf = (deps: Pick<Deps, 'config'>) =>
  Object.entries(deps.config.planPrices).map(([plan, amount]) => ({ plan, amount, period_days: PERIOD_DAYS }));

export { platformClientId };

/**
 * With the sandbox (or gateway) live driver the platform client takes payments from the first start; with
 * qrapi an operator connects its account (`main.js admin connect-platform`).
 */
export async function ensurePlatformAccount(deps: Pick<Deps, 'config' | 'db'>): Promise<void> {
  if (deps.config.providerDriver === 'qrapi') return;
  const id = await platformClientId(deps.db);
  await deps.db.tx(async (tx) => {
    await lockClient(tx, id);
    // The default when the platform has none yet (createProviderAccount decides when isDefault is absent).
    if ((await liveAccountOfDriver(tx, id, deps.config.providerDriver)) === null)
      await createProviderAccount(tx, {
        clientId: id,
        mode: 'live',
        driver: deps.config.providerDriver,
        displayName: 'Platform',
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
export function purchasablePrice(deps: Pick<Deps, 'config'>, plan: string): number {
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

export async function payPlan(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock' | 'providers' | 'caches'>,
  tenant: Tenant,
  plan: string,
  receipt?: Receipt<PlanQr>,
): Promise<PlanQr> {
  const { clientId } = tenant;
  const amount = purchasablePrice(deps, plan);
  const platform = await platformClientId(deps.db);
  // The platform's live account of the driver this deployment runs (its default first): one store may
  // hold accounts of several drivers over time.
  const account = await liveAccountOfDriver(deps.db, platform, deps.config.providerDriver);
  if (account === null)
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
      account: String(account),
    },
    { amount, comment: `Tolem ${plan}, ${PERIOD_DAYS} days, client ${clientId}` },
    // The plan QR is the platform's operation, marked as the buyer's purchase in its own transaction.
    alsoWriting(answering(receipt, answer), async (tx, o) => {
      await markPlanPurchase(tx, o.id, clientId, plan);
    }),
  );
  return answer(op);
}

export async function checkPlanPayment(deps: ProviderDeps, tenant: Tenant, opId: string) {
  const { clientId } = tenant;
  const bought = await findPlanPurchase(deps.db, opId, clientId);
  if (!bought) throw new AppError('payment_not_found', `no plan payment ${opId}`);
  const op = await syncOperation(deps, bought);
  const c = await clientPlan(deps.db, clientId);
  return {
    operation_id: op.id,
    status: op.status,
    plan: bought.subscription_plan,
    activated: isPaid(op.status),
    plan_active: planActive(c, deps.clock.now()),
    plan_expires_at: c.plan_expires_at,
  };
}
