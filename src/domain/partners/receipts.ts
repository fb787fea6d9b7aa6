// The fiscal receipts of a partner's client (decisions 22 and 27), in the key's mode: the same list and
// filters as /v2/receipts, for a client this partner has (by its external_id or id); any other client is
// not found, as it is for the client's payments. The cursors are bound to the client too, so a page of one
// client never continues as another's.
import type { DbSecretsDeps } from '../../deps.ts';
import { getReceipt, listReceipts, type ReceiptFilters } from '../fiscal/receipts.ts';
import type { FiscalReceipt } from '../fiscal/receipts-store.ts';
import type { PageResult, Paging } from '../pagination.ts';
import type { Mode } from '../tenant.ts';
import { resolveClientRef } from './managed-clients.ts';

export async function listClientReceipts(
  deps: DbSecretsDeps,
  scope: { partnerId: number; mode: Mode },
  clientRef: string,
  filters: ReceiptFilters,
  paging: Paging,
): Promise<PageResult<FiscalReceipt>> {
  const c = await resolveClientRef(deps.db, scope.partnerId, clientRef);
  return listReceipts(deps, { clientId: c.id, mode: scope.mode }, filters, paging, `partner.v1.receipts:${c.id}`);
}

export async function getClientReceipt(
  deps: DbSecretsDeps,
  scope: { partnerId: number; mode: Mode },
  clientRef: string,
  id: string,
): Promise<FiscalReceipt> {
  const c = await resolveClientRef(deps.db, scope.partnerId, clientRef);
  return getReceipt(deps, { clientId: c.id, mode: scope.mode }, id);
}
