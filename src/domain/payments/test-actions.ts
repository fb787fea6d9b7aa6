// Test helpers (test keys only): act as the customer in the sandbox provider, then learn the outcome
// through the same synchronisation path as a real provider callback, so states, events and webhooks
// are exactly those of live mode.
import type { Deps } from '../../deps.ts';
import type { Tenant } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import { findOperation, type Operation } from './operations.ts';
import { applyProviderStatus } from './sync.ts';

export async function simulate(
  deps: Pick<Deps, 'db' | 'clock' | 'providers'>,
  ctx: Tenant,
  opId: string,
  action: 'pay' | 'expire' | 'decline',
  payer: { sender_name?: string; phone?: string } = {},
): Promise<Operation> {
  if (ctx.mode !== 'test') throw new AppError('test_mode_only', 'test helpers work with test keys only');
  const op = await findOperation(deps.db, ctx, opId);
  const changed = await deps.providers.sandbox.simulate(op.provider_ref, action, {
    senderName: payer.sender_name,
    phone: payer.phone,
  });
  const status = await deps.providers.sandbox.getStatus(op.provider_ref);
  const now = await applyProviderStatus(deps, op, status);
  if (!changed) throw new AppError('payment_not_pending', `payment ${op.id} is ${now.status}, no longer waiting`);
  return now;
}
