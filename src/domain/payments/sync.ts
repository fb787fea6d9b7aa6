// Learning a payment's fate from the provider: on read (GET while not final), from the expiry sweeper,
// and from test helpers (which act as the provider's callback). One path for all of them.
import type { ProviderDeps, DbClockDeps } from '../../deps.ts';
import type { PaymentProvider, ProviderStatus } from '../../providers/types.ts';
import { findOperation, type Operation } from './operations.ts';
import { isFinal } from './state.ts';
import { cancelledData, completedData, expiredData, transition } from './transition.ts';
import { providerCall } from './provider-call.ts';
import { providerFor } from './provider-accounts.ts';

/** Applies what the provider says to the operation; returns the operation as it now is. */
export async function applyProviderStatus(deps: DbClockDeps, op: Operation, ps: ProviderStatus): Promise<Operation> {
  if (isFinal(op.status)) return op;
  const now = deps.clock.now();
  // Still waiting as last seen, before the deadline: nothing to write, so no transaction (the watcher
  // asks about every waiting QR every few seconds, and most answers are this one).
  if (ps.status === 'waiting' && op.raw_provider_status === ps.raw && op.expires_at.getTime() > now.getTime())
    return op;
  const next = await deps.db.tx(async (tx) => {
    switch (ps.status) {
      case 'paid':
        return transition(
          tx,
          op,
          'paid',
          {
            paid_at: ps.paidAt ?? now,
            sender_name: ps.senderName ?? null,
            transaction_id: ps.transactionId ?? null,
            raw_provider_status: ps.raw,
          },
          { type: 'payment.completed', data: (o) => completedData(o, ps.senderPhone) },
        );
      case 'declined':
        // The provider's Error at or after Tolem's deadline is the QR running out, not a refusal (decisions 24).
        if (op.expires_at.getTime() <= now.getTime()) {
          return transition(
            tx,
            op,
            'expired',
            { raw_provider_status: ps.raw },
            { type: 'payment.expired', data: expiredData },
          );
        }
        return transition(
          tx,
          op,
          'declined',
          { raw_provider_status: ps.raw },
          { type: 'payment.cancelled', data: cancelledData('declined') },
        );
      case 'cancelled':
        // A QR cannot be cancelled by the merchant; one the provider dropped has simply expired.
        return op.type === 'invoice'
          ? transition(
              tx,
              op,
              'cancelled',
              { raw_provider_status: ps.raw },
              { type: 'payment.cancelled', data: cancelledData('customer') },
            )
          : transition(
              tx,
              op,
              'expired',
              { raw_provider_status: ps.raw },
              { type: 'payment.expired', data: expiredData },
            );
      case 'expired':
        return transition(
          tx,
          op,
          'expired',
          { raw_provider_status: ps.raw },
          { type: 'payment.expired', data: expiredData },
        );
      case 'waiting':
        // Scanned and awaiting the customer's confirmation (qrapi's Wait): the deadline is held until the
        // confirmation time-out the provider announced, counted from the first time Tolem sees it, so a
        // payment being confirmed is never expired early (decisions 24).
        if (ps.raw === 'Wait' && op.raw_provider_status !== 'Wait') {
          const held = await tx.query<{ expires_at: Date }>(
            `UPDATE operations SET raw_provider_status = 'Wait', updated_at = now(),
                    expires_at = GREATEST(expires_at, $2::timestamptz + make_interval(secs => confirm_timeout_s))
              WHERE id = $1 AND status = 'created' AND confirm_timeout_s IS NOT NULL RETURNING expires_at`,
            [op.id, now],
          );
          if (held.rows[0]) return { ...op, raw_provider_status: 'Wait', expires_at: held.rows[0].expires_at };
        }
        // Tolem's own deadline holds even if the provider would still wait.
        if (op.expires_at.getTime() <= now.getTime()) {
          return transition(
            tx,
            op,
            'expired',
            { raw_provider_status: ps.raw },
            { type: 'payment.expired', data: expiredData },
          );
        }
        if (op.raw_provider_status !== ps.raw) {
          await tx.query('UPDATE operations SET raw_provider_status = $2 WHERE id = $1 AND status = $3', [
            op.id,
            ps.raw,
            'created',
          ]);
          return { ...op, raw_provider_status: ps.raw };
        }
        return op;
    }
  });
  // null: someone else moved it first; read what they wrote.
  return next ?? findOperation(deps.db, { clientId: op.client_id, mode: op.mode }, op.id);
}

/**
 * Asks the provider about a waiting operation and applies the answer. `provider`: the account's driver
 * when the caller has it already (the watcher reads a pass's accounts at once).
 */
export async function syncOperation(deps: ProviderDeps, op: Operation, given?: PaymentProvider): Promise<Operation> {
  if (isFinal(op.status)) return op;
  const provider = given ?? (await providerFor(deps, op.mode, op.provider_account_id));
  const call = <T>(fn: () => Promise<T>) => providerCall(deps, op.mode, op.provider_account_id, fn);
  let ps = await call(() => provider.getStatus(op.provider_ref));
  // An invoice past Tolem's deadline that the provider would still let the customer pay is closed there
  // before Tolem calls it expired: otherwise it could be paid afterwards, and an expired operation never
  // becomes paid. If it was paid meanwhile, that wins. (A QR cannot be closed: Tolem asks for the same
  // lifetime and keeps the earlier of the two deadlines.)
  if (ps.status === 'waiting' && op.type === 'invoice' && op.expires_at.getTime() <= deps.clock.now().getTime()) {
    if (!(await call(() => provider.cancelInvoice(op.provider_ref))))
      ps = await call(() => provider.getStatus(op.provider_ref));
  }
  return applyProviderStatus(deps, op, ps);
}
