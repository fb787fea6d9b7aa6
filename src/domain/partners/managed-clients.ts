// The partner API's clients (decisions 22): a platform upserts its merchants by its own external id, finds
// them by that id (or by ours), and manages those it created: their API key and a one-time login link.
import { activeOwnerId } from '../accounts/users-store.ts';
import type { Deps, DbDeps } from '../../deps.ts';
import type { Queryable } from '../../db/db.ts';
import type { Mode } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import { sha256Hex } from '../../crypto.ts';
import { openClient } from '../accounts/register.ts';
import {
  attachManagedClient,
  clientOfPartner,
  findManagedClientId,
  updateManagedClient,
  type ClientOfPartner,
} from '../accounts/clients-store.ts';
import { issueApiKey, type IssuedKey } from '../accounts/api-keys.ts';
import { issueMagicToken, LOGIN_LINK_PURPOSE } from '../accounts/tokens.ts';

export interface UpsertInput {
  external_id: string;
  name: string;
  email?: string;
  phone?: string;
  metadata?: Record<string, unknown>;
}

/**
 * The owner's e-mail of a client the platform gave none: unique per partner and external id, under the
 * reserved `.invalid` domain (RFC 2606), so it can never reach anybody's mailbox nor collide with a real one.
 */
export const placeholderEmail = (partnerId: number, externalId: string) =>
  `p${partnerId}-${sha256Hex(externalId).slice(0, 20)}@partner-clients.invalid`;

/**
 * Creates the client the first time (`created`, with its key of `mode`), else updates its name, phone and
 * metadata. Upserts of one partner queue on its row, so two at once for one external id make one client.
 */
export async function upsertManagedClient(
  deps: DbDeps,
  partnerId: number,
  mode: Mode,
  input: UpsertInput,
): Promise<{ clientId: number; created: boolean; apiKey?: string }> {
  const metadata = input.metadata === undefined ? undefined : JSON.stringify(input.metadata);
  return deps.db.tx(async (tx) => {
    await tx.query('SELECT 1 FROM partners WHERE id = $1 FOR UPDATE', [partnerId]);
    const id = await findManagedClientId(tx, partnerId, input.external_id);
    if (id !== null) {
      // Absent fields stay as they are; e-mail is the owner's login, set once (the owner changes it).
      await updateManagedClient(tx, id, { name: input.name, phone: input.phone ?? null, metadata: metadata ?? null });
      return { clientId: id, created: false };
    }
    const email = (input.email ?? placeholderEmail(partnerId, input.external_id)).toLowerCase();
    const opened = await openClient(tx, { name: input.name, email, passwordHash: null });
    // A platform's merchants let it act in their account from the start (decisions 21: origin api).
    await attachManagedClient(tx, opened.clientId, {
      partnerId,
      externalId: input.external_id,
      phone: input.phone ?? null,
      metadata: metadata ?? null,
    });
    return { clientId: opened.clientId, created: true, apiKey: opened.api_keys[mode] };
  });
}

export type { ClientOfPartner };

/** `client_ref`: this partner's external id first, then our numeric id; anything else is not found. */
export async function resolveClientRef(db: Queryable, partnerId: number, ref: string): Promise<ClientOfPartner> {
  const found =
    (await clientOfPartner(db, partnerId, { externalId: ref })) ??
    (/^[1-9][0-9]{0,17}$/.test(ref) ? await clientOfPartner(db, partnerId, { id: ref }) : undefined);
  if (found) return found;
  throw new AppError('client_not_found', `client ${ref} not found`, { param: 'client_ref' });
}

/** A client the partner acts for: one the operator disabled takes no new links, webhooks or onboarding. */
export async function activeClientRef(db: Queryable, partnerId: number, ref: string): Promise<ClientOfPartner> {
  const c = await resolveClientRef(db, partnerId, ref);
  if (c.disabled)
    throw new AppError('account_disabled', 'this client account is disabled by the operator; contact support');
  return c;
}

/** Key rotation and login links are for the clients the platform created (origin api) alone. */
async function managedClient(db: Queryable, partnerId: number, ref: string): Promise<number> {
  const c = await activeClientRef(db, partnerId, ref);
  if (c.origin !== 'api') {
    throw new AppError(
      'client_not_managed',
      'this client came by a referral or an invite: it manages its own keys and sign-in',
    );
  }
  return c.id;
}

/** A new key of the mode; the old one stops at once (on every instance: the key cache is invalidated). */
export async function rotateClientKey(
  deps: Pick<Deps, 'db' | 'caches'>,
  partnerId: number,
  ref: string,
  mode: Mode,
): Promise<IssuedKey & { client_id: number }> {
  const clientId = await managedClient(deps.db, partnerId, ref);
  const issued = await deps.db.tx((tx) => issueApiKey(tx, { clientId, mode }, deps.caches));
  return { ...issued, client_id: clientId };
}

/** A one-time sign-in of the client's owner: 10 minutes, single use, exchanged at /auth/magic-exchange. */
export async function loginLink(
  deps: Pick<Deps, 'config' | 'db'>,
  partnerId: number,
  ref: string,
): Promise<{ url: string; token: string; expires_at: Date }> {
  const clientId = await managedClient(deps.db, partnerId, ref);
  return deps.db.tx(async (tx) => {
    const ownerId = await activeOwnerId(tx, clientId);
    if (ownerId === null) throw new AppError('client_not_found', 'the client has no active owner to sign in as');
    const t = await issueMagicToken(tx, ownerId, LOGIN_LINK_PURPOSE);
    return {
      url: `${deps.config.dashboardUrl}/magic?token=${encodeURIComponent(t.token)}`,
      token: t.token,
      expires_at: t.expires_at,
    };
  });
}
