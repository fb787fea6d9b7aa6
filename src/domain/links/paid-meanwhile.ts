// Before a new QR of a link is issued (a checkout opening, the merchant's refresh-qr), the QRs already
// out are asked about: a payment nobody has told Tolem of yet (the payer closed the page before its poll
// saw it; only the poll and the expiry sweeper ask the provider) is recorded first, so a one-time link is
// not paid twice.
import type { ProviderDeps } from '../../deps.ts';
import { OP_COLUMNS_O, type Operation } from '../payments/operations.ts';
import { isPaid } from '../payments/state.ts';
import { syncOperation } from '../payments/sync.ts';
import type { Link } from './links.ts';

/** QRs asked about before a new one is issued: a one-time link's newest, or the visitor's own. */
const OUTSTANDING_MAX = 5;

/**
 * Asks the provider about the QRs still waiting that a new QR would stand beside: every one of a one-time
 * link (any of them paid makes the link paid), else this visitor's own. True when one of them turned out
 * paid. A provider that does not answer holds nothing up: the poll and the sweeper ask again.
 */
export async function paidMeanwhile(deps: ProviderDeps, link: Link, visitorId: string | null): Promise<boolean> {
  // Each by its own index: a one-time link's operations (few), or this visitor's QRs of a link that may
  // have taken thousands of payments.
  const r = link.allow_repeat
    ? await deps.db.query<Operation>(
        `SELECT ${OP_COLUMNS_O} FROM checkout_operations c JOIN operations o ON o.id = c.operation_id
          WHERE c.link_token = $1 AND c.visitor_id = $2 AND o.status = 'created'
          ORDER BY c.created_at DESC LIMIT ${OUTSTANDING_MAX}`,
        [link.token, visitorId],
      )
    : await deps.db.query<Operation>(
        `SELECT ${OP_COLUMNS_O} FROM operations o
          WHERE o.link_token = $1 AND o.client_id = $2 AND o.mode = $3 AND o.status = 'created'
          ORDER BY o.created_at DESC LIMIT ${OUTSTANDING_MAX}`,
        [link.token, link.client_id, link.mode],
      );
  let paid = false;
  for (const op of r.rows) {
    const now = await syncOperation(deps, op).catch(() => op);
    paid ||= isPaid(now.status);
  }
  return paid;
}
