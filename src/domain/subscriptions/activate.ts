// Activation of a bought plan, a subscriber of the paid transition (domain/subscribers.ts): in the same
// transaction as the payment, so a plan is bought exactly when its QR is paid. The same plan extends from
// its expiry (or from now, if it has lapsed); another plan starts now for 30 days. The client's live
// journal gets plan.changed, and a notification tells its team.
import { clientPlan, setClientPlan } from '../accounts/clients-store.ts';
import { planPurchaseOf } from '../payments/plan-purchases.ts';
import type { Queryable } from '../../db/db.ts';
import type { Operation } from '../payments/operations.ts';
import { appendEvent } from '../events/append.ts';
import { notify } from '../notifications/notify.ts';
import { forgetClientKeys } from '../accounts/api-keys.ts';
import { PERIOD_DAYS } from './subscriptions.ts';

export async function activateBoughtPlan(tx: Queryable, op: Operation): Promise<void> {
  if (op.source !== 'subscription') return;
  const sub = await planPurchaseOf(tx, op.id);
  if (!sub?.client_id || !sub.plan) return;
  await applyPlan(tx, sub.client_id, sub.plan, op.paid_at ?? new Date(), { operation_id: op.id });
}

/** A plan paid at `paidAt` takes effect (a plan QR, or a partner paying from its balance). */
export async function applyPlan(
  tx: Queryable,
  clientId: number,
  plan: string,
  paidAt: Date,
  ref: Record<string, unknown>,
): Promise<{ expires_at: Date }> {
  const sub = { client_id: clientId, plan };
  const c = await clientPlan(tx, sub.client_id, { lock: true });
  const extend = c.plan === sub.plan && c.plan_expires_at !== null && c.plan_expires_at > paidAt;
  const from = extend ? c.plan_expires_at! : paidAt;
  const expires = new Date(from.getTime() + PERIOD_DAYS * 86400_000);
  await setClientPlan(tx, sub.client_id, sub.plan, expires);
  await appendEvent(tx, {
    clientId: sub.client_id,
    mode: 'live',
    type: 'plan.changed',
    data: {
      from: c.plan,
      to: sub.plan,
      effective_at: extend ? c.plan_expires_at : paidAt,
      expires_at: expires,
      ...ref,
    },
  });
  await notify(tx, sub.client_id, {
    type: 'plan.changed',
    params: {
      plan: sub.plan,
      previous_plan: c.plan,
      expires_at: expires.toISOString(),
      days: PERIOD_DAYS,
      variant: extend ? 'extended' : 'replaced',
    },
    title: `Plan ${sub.plan} active until ${expires.toISOString().slice(0, 10)}`,
    body: extend
      ? `The ${sub.plan} plan is extended by ${PERIOD_DAYS} days.`
      : `The ${sub.plan} plan replaces ${c.plan} from now, for ${PERIOD_DAYS} days.`,
  });
  // API keys carry the plan in their cache entry: every instance forgets this client's.
  await forgetClientKeys(tx, sub.client_id);
  return { expires_at: expires };
}
