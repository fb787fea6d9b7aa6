// What waits for the operator (issue 41): partners to approve, withdrawals to pay out, tickets to answer,
// counted for the admin menu's badges. Each count is its owner's statement and stops at a cap, so the
// call costs the same however long a queue grows.
import type { DbDeps } from '../../deps.ts';
import { countPartners } from '../partners/profile.ts';
import { countWithdrawals } from '../partners/money.ts';
import { countTickets } from '../support/tickets.ts';

/** A count at the cap means "this many or more"; the menu shows it as 99+ and above. */
export const OVERVIEW_CAP = 1000;

export interface AdminOverview {
  partners_pending: number;
  withdrawals_processing: number;
  tickets_open: number;
  capped_at: number;
}

export async function adminOverview(deps: DbDeps): Promise<AdminOverview> {
  const [partners, withdrawals, tickets] = await Promise.all([
    countPartners(deps.db, 'pending', OVERVIEW_CAP),
    countWithdrawals(deps.db, 'processing', OVERVIEW_CAP),
    countTickets(deps.db, 'open', OVERVIEW_CAP),
  ]);
  return {
    partners_pending: partners,
    withdrawals_processing: withdrawals,
    tickets_open: tickets,
    capped_at: OVERVIEW_CAP,
  };
}
