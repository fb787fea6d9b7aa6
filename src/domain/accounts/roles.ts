// What each team role may do (decisions 3). Owner-only actions are checked by requireOwner.
import { AppError } from '../../errors.ts';
import type { Principal } from '../../deps.ts';

export type Permission = 'payments.read' | 'payments.create' | 'payments.refund' | 'payments.export' | 'manage';

const GRANTS: Record<string, Permission[]> = {
  owner: ['payments.read', 'payments.create', 'payments.refund', 'payments.export', 'manage'],
  admin: ['payments.read', 'payments.create', 'payments.refund', 'payments.export', 'manage'],
  accountant: ['payments.read', 'payments.refund', 'payments.export'],
  support: ['payments.read'],
  viewer: ['payments.read'],
};

/** API keys act for the whole client; JWT users by their role. */
export function requirePermission(p: Principal, perm: Permission): void {
  if (p.kind !== 'jwt') return;
  if (!GRANTS[p.role ?? '']?.includes(perm)) throw new AppError('forbidden_role', `the ${p.role} role may not do this`);
}
