import type { Deps, DbSecretsDeps } from '../../deps.ts';
import type { Tenant } from '../tenant.ts';
import type { Receipt } from '../receipt.ts';
import { randomBase62 } from '../../crypto.ts';
import { appendEvent } from '../events/append.ts';
import { page, type PageResult, type Paging } from '../pagination.ts';
import { checkAmount } from '../payments/input.ts';
import { resolveItems, type LineInput } from '../payments/line-items.ts';
import { resolveProviderAccount } from '../payments/provider-accounts.ts';
import { checkDescription, checkExpiresIn, checkMetadata, checkRedirectUrl, EXPIRES_DEFAULT } from './input.ts';
import { eventToken } from '../ids.ts';
import { LINK_COLUMNS, TOKEN_LENGTH, type Link } from './links.ts';

export interface CreateLinkInput {
  amount: number;
  description: string;
  success_url?: string;
  cancel_url?: string;
  expires_in_minutes?: number;
  allow_repeat?: boolean;
  email_required?: boolean;
  metadata?: Record<string, unknown>;
  items?: LineInput[];
}

export async function createLink(
  deps: Pick<Deps, 'config' | 'db' | 'caches'>,
  ctx: Tenant,
  input: CreateLinkInput,
  receipt?: Receipt<Link>,
): Promise<Link> {
  const amount = checkAmount(input.amount, deps.config.amountMax);
  const description = checkDescription(input.description);
  const successUrl = checkRedirectUrl(input.success_url, 'success_url');
  const cancelUrl = checkRedirectUrl(input.cancel_url, 'cancel_url');
  const minutes = checkExpiresIn(input.expires_in_minutes ?? EXPIRES_DEFAULT);
  const metadata = checkMetadata(input.metadata);
  const items = await resolveItems(deps.db, ctx, input.items, amount, deps.config.amountMax);
  // A live link must be payable: like live payments it needs a connected provider account (409
  // provider_not_connected). Plan limits are checked when a payer opens it (that creates the payment).
  if (ctx.mode === 'live') await resolveProviderAccount(deps, ctx, undefined);
  return deps.db.tx(async (tx) => {
    const r = await tx.query<Link>(
      `INSERT INTO payment_links (token, client_id, mode, amount, description, success_url, cancel_url, expires_at,
                                  allow_repeat, email_required, metadata, items)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(mins => $8::int), $9, $10, $11, $12)
       RETURNING ${LINK_COLUMNS}`,
      [
        randomBase62(TOKEN_LENGTH),
        ctx.clientId,
        ctx.mode,
        amount,
        description,
        successUrl,
        cancelUrl,
        minutes,
        input.allow_repeat ?? false,
        input.email_required ?? false,
        metadata ? JSON.stringify(metadata) : null,
        items ? JSON.stringify(items) : null,
      ],
    );
    const link = r.rows[0];
    await appendEvent(tx, {
      clientId: link.client_id,
      mode: link.mode,
      type: 'payment_link.created',
      data: { token: eventToken(link.token), amount: link.amount, description: link.description },
    });
    if (receipt) await receipt.save(tx, link);
    return link;
  });
}

export async function listLinks(
  deps: DbSecretsDeps,
  scope: Tenant,
  filters: { status?: string },
  paging: Paging,
): Promise<PageResult<Link>> {
  // Expiry shows in lists too: the tenant's due links flip before the page is read, so a status filter
  // never lists an `active` link that is past its expiry.
  await deps.db.query(
    `UPDATE payment_links SET status = 'expired', updated_at = now()
      WHERE client_id = $1 AND mode = $2 AND status = 'active' AND expires_at <= now()`,
    [scope.clientId, scope.mode],
  );
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: 'v2.payment_links',
      filters: { mode: scope.mode, ...filters },
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after, take) => {
      const where = ['client_id = $1', 'mode = $2'];
      const params: unknown[] = [scope.clientId, scope.mode];
      if (filters.status) where.push(`status = $${params.push(filters.status)}`);
      if (after) where.push(`(created_at, token) < ($${params.push(after.createdAt)}, $${params.push(after.id)})`);
      const r = await deps.db.query<Link>(
        `SELECT ${LINK_COLUMNS} FROM payment_links WHERE ${where.join(' AND ')}
          ORDER BY created_at DESC, token DESC LIMIT ${take}`,
        params,
      );
      return r.rows;
    },
    (l) => l.token,
  );
}
