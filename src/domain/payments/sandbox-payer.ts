// The sandbox's "payer's app": what a person who scanned a test QR (or opened its deep link) sees and
// does. A test payment is found by its provider reference, which the QR carries and which cannot be
// guessed (12 random bytes); acting on it is the test helpers' own path (test-actions.ts), so states,
// events and webhooks are those of a real payment. Live payments are never reachable here, even when
// the live driver is the sandbox: paying those is the operator's admin API.
import type { ProviderDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { OP_COLUMNS, type Operation } from './operations.ts';
import { syncOperation } from './sync.ts';
import { simulate } from './test-actions.ts';

export type PayerAction = 'pay' | 'decline' | 'expire';

/** The test payment a sandbox reference names, as it is now (a waiting one is asked about first). */
export async function findSandboxPayment(deps: ProviderDeps, ref: string): Promise<Operation> {
  const r = await deps.db.query<Operation>(
    `SELECT ${OP_COLUMNS} FROM operations WHERE provider_ref = $1 AND mode = 'test'`,
    [ref],
  );
  if (!r.rows[0]) throw new AppError('payment_not_found', 'no test payment has this reference');
  return syncOperation(deps, r.rows[0]);
}

export async function actAsPayer(deps: ProviderDeps, ref: string, action: PayerAction): Promise<Operation> {
  const op = await findSandboxPayment(deps, ref);
  return simulate(deps, { clientId: op.client_id, mode: 'test' }, op.id, action, { sender_name: 'Sandbox payer' });
}
