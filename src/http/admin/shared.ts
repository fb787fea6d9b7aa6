// What the admin API's routes share: their tag, their audience (a user with is_admin on its own token), and
// that caller as a principal.
import type { FastifyRequest } from 'fastify';
import type { OperatorAdminPrincipal } from '../../domain/access/principal.ts';
import { AppError } from '../../errors.ts';
import { principal } from '../context.ts';

export const tags = ['admin'];
export const auth = ['admin_jwt'] as const;

/** The admin calling (the auth hook has already refused anyone else; this narrows the type). */
export function adminOf(req: FastifyRequest): OperatorAdminPrincipal {
  const p = principal(req);
  if (p.kind !== 'operator_admin') throw new AppError('forbidden_role', 'the admin API needs a user with is_admin');
  return p;
}
