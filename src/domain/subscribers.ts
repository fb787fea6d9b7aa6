// The one place that names who reacts, inside the same transaction, to what the domain's lower folders
// announce. Lower folders never import the higher ones: payments announce `afterPaymentPaid` without
// knowing links or plans, events announce `afterEventAppended` without knowing webhooks. Order matters
// only where noted. Wired once at start-up (bootstrap); wiring twice is harmless.
import { afterEventAppended } from './events/append.ts';
import { onLinkPaymentPaid } from './links/on-paid.ts';
import { checkoutEmailOf } from './links/payer-email.ts';
import { noticePlanUsage } from './notifications/plan-notices.ts';
import { afterPaymentPaid } from './payments/transition.ts';
import { afterSessionLost } from './payments/provider-call.ts';
import { notify } from './notifications/notify.ts';
import { alertStaff } from './notifications/staff-alerts.ts';
import { activateBoughtPlan } from './subscriptions/activate.ts';
import { recordCommission, reverseOnRefund } from './partners/commissions.ts';
import { attributeNewClient } from './partners/referrals.ts';
import { afterClientRegistered } from './accounts/register.ts';
import { enqueueDeliveries } from './webhooks/enqueue.ts';
import { enqueueReturnReceipt, enqueueSaleReceipt } from './fiscal/enqueue.ts';
import type { Queryable } from '../db/db.ts';
import type { Operation } from './payments/operations.ts';

/** Live payments count towards the plan's monthly limit; test mode never does (decisions 5). */
async function planUsageOnPaid(tx: Queryable, op: Operation): Promise<void> {
  if (op.mode === 'live' && op.paid_at) await noticePlanUsage(tx, op.client_id, op.paid_at);
}

/** The sale receipt of a paid operation, with the checkout payer's e-mail (links) as the receipt's customer. */
async function saleReceiptOnPaid(tx: Queryable, op: Operation): Promise<void> {
  await enqueueSaleReceipt(tx, op, () => checkoutEmailOf(tx, op));
}

export function wireDomainSubscribers(): void {
  // Every journal event of a subscribable type becomes webhook deliveries in its own transaction.
  afterEventAppended.subscribe(enqueueDeliveries);
  // After payment.completed: the plan counter first, then the link's bookkeeping and payment_link.paid.
  afterPaymentPaid.subscribe(planUsageOnPaid);
  afterPaymentPaid.subscribe(onLinkPaymentPaid);
  // A paid plan QR buys the plan in the same transaction (decisions 20).
  afterPaymentPaid.subscribe(activateBoughtPlan);
  // ... and earns its client's partner a commission, pending for the hold (decisions 21).
  afterPaymentPaid.subscribe(recordCommission);
  // Every paid operation owes its sale receipt when its mode has an auto register (decisions 27), sent to
  // the e-mail its payer gave the checkout, if any ...
  afterPaymentPaid.subscribe(saleReceiptOnPaid);
  // ... and every completed refund of a fiscalized payment its return receipt.
  afterEventAppended.subscribe(enqueueReturnReceipt);
  // A refunded plan QR takes its commission back.
  afterEventAppended.subscribe(reverseOnRefund);
  // Paid, refunded and failed-receipt alerts to the team members who asked for them (decisions 28).
  afterEventAppended.subscribe(alertStaff);
  // A new client belongs to the partner whose referral code or invitation it registered with (decisions 21).
  afterClientRegistered.subscribe(attributeNewClient);
  // A live provider account whose session was lost: the client hears of it once.
  afterSessionLost.subscribe(notifySessionLost);
}

async function notifySessionLost(
  tx: Queryable,
  a: { clientId: number; displayName: string; trouble?: 'session' | 'egress' },
): Promise<void> {
  if (a.trouble === 'egress') {
    await notify(tx, a.clientId, {
      type: 'provider.unreachable',
      params: { account: a.displayName },
      title: `Provider account "${a.displayName}" is refused by the provider`,
      body:
        "The provider's r3 host refused this server's address: r3 answers only the static IP it allow-listed. " +
        'Live payments through this account fail until the server sends from that address (PROVIDER_EGRESS_PROXY) ' +
        'or the provider adds this one; then run its health check.',
    });
    return;
  }
  await notify(tx, a.clientId, {
    type: 'provider.session_expired',
    params: { account: a.displayName },
    title: `Provider account "${a.displayName}" needs attention`,
    body:
      'The provider refused its credentials, certificate, trade point or device. ' +
      'Live payments through it fail until it is reconnected.',
  });
}
