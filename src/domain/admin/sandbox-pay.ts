// POST /admin/sandbox/payments/{op_id}/pay (decisions 20): with the sandbox live driver nobody can scan a
// live QR, so an admin pays one (a plan QR, say) as its customer would. Accounts of other drivers are
// refused: real money is paid by real customers.
import type { ProviderDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { findWithDriver, type Operation } from '../payments/operations.ts';
import { syncOperation } from '../payments/sync.ts';

export async function adminSandboxPay(deps: ProviderDeps, opId: string): Promise<Operation> {
  const op = await findWithDriver(deps.db, opId);
  if (!op) throw new AppError('payment_not_found', `no payment ${opId}`);
  if (op.mode !== 'live' || op.driver !== 'sandbox') {
    throw new AppError(
      'provider_not_enabled',
      'only live payments of a sandbox provider account can be paid by an admin',
      { param: 'op_id' },
    );
  }
  await deps.providers.sandbox.simulate(op.provider_ref, 'pay', { senderName: 'Admin (sandbox)' });
  return syncOperation(deps, op);
}
