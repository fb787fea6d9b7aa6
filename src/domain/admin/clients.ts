// The operator's view of clients (decisions 23): search, and the plan and disabled switches. Disabling
// takes effect at once: every instance forgets the client's cached keys, tokens are checked against the
// client on each call, and its users' refresh tokens are revoked (enabling again needs a new login).
// Two clients are never disabled (issue 41): the admin's own, which would lock the admin out of the
// dashboard it is using, and the platform client, whose QRs are every client's plan payments.
import type { Deps, DbSecretsDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { forgetClientKeys } from '../accounts/api-keys.ts';
import { patchClient, platformClientId, searchClientRows, type AdminClient } from '../accounts/clients-store.ts';
import { revokeClientRefreshTokens } from '../accounts/tokens.ts';
import { forgetPartnerKeys } from '../partners/keys.ts';
import { page, type PageResult, type Position, type Paging } from '../pagination.ts';

export type { AdminClient };

/** `q`: a client id, or a part of its name or e-mail (case-insensitive). */
export async function searchClients(
  deps: DbSecretsDeps,
  filters: { q?: string },
  paging: Paging,
): Promise<PageResult<AdminClient>> {
  const text = filters.q?.trim() || undefined;
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: '/admin/clients',
      filters: { q: text },
      cursor: paging.cursor,
      limit: paging.limit,
    },
    (after: Position | undefined, take: number) =>
      searchClientRows(deps.db, text, after && { createdAt: after.createdAt, id: Number(after.id) }, take),
    (c) => String(c.id),
  );
}

export async function updateClient(
  deps: Pick<Deps, 'db' | 'caches'>,
  id: number,
  patch: { plan?: string; plan_expires_at?: Date | null; disabled?: boolean },
  actor: { clientId: number },
): Promise<AdminClient> {
  if (patch.disabled) {
    if (id === actor.clientId)
      throw new AppError('cannot_disable_self', 'this is the client of your own account; another admin may disable it');
    if (id === (await platformClientId(deps.db)))
      throw new AppError('cannot_disable_platform_client', 'the platform client takes every plan payment');
  }
  return deps.db.tx(async (tx) => {
    const client = await patchClient(tx, id, patch);
    if (!client) throw new AppError('client_not_found', `client ${id} not found`);
    if (patch.disabled) await revokeClientRefreshTokens(tx, id);
    // The plan and the disabled flag travel with a cached key: forget them everywhere.
    await forgetClientKeys(tx, id, deps.caches);
    await forgetPartnerKeys(tx, { clientId: id }, deps.caches);
    return client;
  });
}
