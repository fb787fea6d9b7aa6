import type { ProviderDeps } from '../../deps.ts';
import type { Tenant } from '../tenant.ts';
import type { Receipt } from '../receipt.ts';
import { AppError } from '../../errors.ts';
import { findOperation, type Operation } from './operations.ts';
import { providerCall } from './provider-call.ts';
import { providerFor } from './provider-accounts.ts';
import { syncOperation } from './sync.ts';
import { cancelledData, transition } from './transition.ts';

export async function cancelInvoice(
  deps: ProviderDeps,
  ctx: Tenant,
  opId: string,
  receipt?: Receipt<Operation>,
): Promise<Operation> {
  let op = await findOperation(deps.db, ctx, opId);
  if (op.type !== 'invoice')
    throw new AppError('payment_not_cancellable', 'only invoices can be cancelled; a QR expires by itself');
  op = await syncOperation(deps, op);
  if (op.status !== 'created') throw new AppError('payment_not_cancellable', `invoice ${op.id} is ${op.status}`);
  const provider = await providerFor(deps, op.mode, op.provider_account_id);
  const cancelled = await providerCall(deps, op.mode, op.provider_account_id, () =>
    provider.cancelInvoice(op.provider_ref),
  );
  if (!cancelled) {
    // Paid a moment ago (decisions 26): the payment is recorded by this read, and the merchant is told so.
    const now = await syncOperation(deps, op);
    if (now.status === 'paid')
      throw new AppError('payment_already_paid', `invoice ${op.id} was paid before it could be cancelled`);
    throw new AppError('payment_not_cancellable', `invoice ${op.id} is ${now.status}`);
  }
  const done = await deps.db.tx(async (tx) => {
    const next = await transition(
      tx,
      op,
      'cancelled',
      { raw_provider_status: 'Cancelled' },
      { type: 'payment.cancelled', data: cancelledData('merchant') },
    );
    if (next && receipt) await receipt.save(tx, next);
    return next;
  });
  if (!done) {
    const now = await findOperation(deps.db, ctx, opId);
    if (now.status === 'cancelled') {
      // Our cancel went through, and a read that asked the provider meanwhile recorded it first: this
      // is still the merchant's success, not a 409 to be replayed for the key.
      if (receipt) await deps.db.tx((tx) => receipt.save(tx, now));
      return now;
    }
    throw new AppError('payment_not_cancellable', `invoice ${op.id} is ${now.status}`);
  }
  return done;
}
