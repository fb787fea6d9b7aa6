// Issuing a QR payment for a link: the same createQr as every payment (plan, provider account, provider
// call outside the transaction), with source `payment_link`, the link's token, metadata and items, and a
// record of whom it was issued to, written in the operation's own transaction.
import { alsoWriting, type Receipt } from '../receipt.ts';
import type { Deps } from '../../deps.ts';
import { createQr, QR_LIFETIME_S } from '../payments/create.ts';
import type { Operation } from '../payments/operations.ts';
import type { Link } from './links.ts';

/** The provider shows the comment in its app; payment comments are at most 255 characters. */
const COMMENT_MAX = 255;

export interface IssueOptions {
  /** the checkout visitor it is shown to; null for the merchant's own refresh-qr */
  visitorId: string | null;
  email?: string | null;
}

/** `receipt` is saved after the record of whom the QR was issued to, in the operation's transaction. */
export async function issueLinkQr(
  deps: Pick<Deps, 'config' | 'db' | 'secrets' | 'clock' | 'providers' | 'caches'>,
  link: Link,
  opts: IssueOptions,
  receipt?: Receipt<Operation>,
): Promise<Operation> {
  // A QR never outlives its link: once the link has expired nobody can pay through it.
  const left = Math.floor((link.expires_at.getTime() - deps.clock.now().getTime()) / 1000);
  const lifetime = Math.max(1, Math.min(QR_LIFETIME_S, left));
  const chars = [...link.description];
  const comment = chars.length > COMMENT_MAX ? chars.slice(0, COMMENT_MAX - 1).join('') + '…' : link.description;
  return createQr(
    deps,
    {
      clientId: link.client_id,
      mode: link.mode,
      source: 'payment_link',
      linkToken: link.token,
      metadata: link.metadata,
      lifetimeS: lifetime,
    },
    // The link's items, resolved when it was made: an item archived since does not stop its checkout.
    { amount: link.amount, comment, lines: link.items },
    alsoWriting(receipt, async (tx, op) => {
      await tx.query(
        `INSERT INTO checkout_operations (operation_id, link_token, visitor_id, email) VALUES ($1, $2, $3, $4)`,
        [op.id, link.token, opts.visitorId, opts.email ?? null],
      );
    }),
  );
}

/** What showing a QR needs of its operation. */
export type ShownQr = Pick<Operation, 'id' | 'status' | 'qr_token' | 'deep_link' | 'expires_at'>;
export const SHOWN_QR_COLUMNS = 'id, status, qr_token, deep_link, expires_at';
