// The operator's view of clients (decisions 23): search, and the plan and disabled switches. Disabling
// takes effect at once: every instance forgets the client's cached keys, tokens are checked against the
// client on each call, and its users' refresh tokens are revoked (enabling again needs a new login).
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { forgetClientKeys } from '../accounts/api-keys.ts';
import { revokeClientRefreshTokens } from '../accounts/tokens.ts';
import { forgetPartnerKeys } from '../partners/keys.ts';
import { page, type PageResult, type Position } from '../pagination.ts';

export interface AdminClient {
  id: number;
  name: string;
  email: string;
  plan: string;
  trial_ends_at: Date;
  plan_expires_at: Date | null;
  disabled: boolean;
  disabled_at: Date | null;
  created_at: Date;
}

const COLUMNS =
  'id, name, email, plan, trial_ends_at, plan_expires_at, disabled_at IS NOT NULL AS disabled, disabled_at, created_at';

/** `q`: a client id, or a part of its name or e-mail (case-insensitive). */
export async function searchClients(
  deps: Deps,
  q: { q?: string; cursor?: string; limit: number },
): Promise<PageResult<AdminClient>> {
  const text = q.q?.trim() || undefined;
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: '/admin/clients',
      filters: { q: text },
      cursor: q.cursor,
      limit: q.limit,
    },
    async (after: Position | undefined, take: number) => {
      const params: unknown[] = [];
      const where: string[] = [];
      if (text) {
        const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        const byId = /^\d{1,15}$/.test(text) ? ` OR id = $${params.push(Number(text))}` : '';
        where.push(`(name ILIKE $${params.push(like)} OR email ILIKE $${params.length}${byId})`);
      }
      if (after) where.push(`(created_at, id) < ($${params.push(after.createdAt)}, $${params.push(Number(after.id))})`);
      const r = await deps.db.query<AdminClient>(
        `SELECT ${COLUMNS} FROM clients ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
          ORDER BY created_at DESC, id DESC LIMIT ${take}`,
        params,
      );
      return r.rows;
    },
    (c) => String(c.id),
  );
}

export async function updateClient(
  deps: Deps,
  id: number,
  patch: { plan?: string; plan_expires_at?: Date | null; disabled?: boolean },
): Promise<AdminClient> {
  return deps.db.tx(async (tx) => {
    const sets: string[] = [];
    const params: unknown[] = [id];
    if (patch.plan !== undefined) sets.push(`plan = $${params.push(patch.plan)}`);
    if (patch.plan_expires_at !== undefined) sets.push(`plan_expires_at = $${params.push(patch.plan_expires_at)}`);
    if (patch.disabled !== undefined)
      sets.push(patch.disabled ? 'disabled_at = COALESCE(disabled_at, now())' : 'disabled_at = NULL');
    const r = await tx.query<AdminClient>(
      `UPDATE clients SET ${sets.length ? sets.join(', ') : 'id = id'} WHERE id = $1 RETURNING ${COLUMNS}`,
      params,
    );
    if (!r.rows[0]) throw new AppError('client_not_found', `client ${id} not found`);
    if (patch.disabled) await revokeClientRefreshTokens(tx, id);
    // The plan and the disabled flag travel with a cached key: forget them everywhere.
    await forgetClientKeys(tx, id, deps.caches);
    await forgetPartnerKeys(tx, { clientId: id }, deps.caches);
    return r.rows[0];
  });
}
