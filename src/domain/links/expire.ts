// The link-expiry sweeper: active links past expires_at become `expired` on time even if nobody reads
// them. Due rows are claimed with FOR UPDATE SKIP LOCKED, so several workers split the work and never
// wait on a row another transaction (a PATCH, a payment) holds. No journal event: the catalog has no
// payment_link.expired (the same flip on read writes none either).
import type { DbDeps } from '../../deps.ts';

export async function expireDueLinks(deps: DbDeps, batch = 500): Promise<number> {
  const r = await deps.db.query<{ token: string }>(
    `UPDATE payment_links SET status = 'expired', updated_at = now()
      WHERE token IN (SELECT token FROM payment_links
                       WHERE status = 'active' AND expires_at <= now()
                       ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED)
        AND status = 'active'
      RETURNING token`,
    [batch],
  );
  return r.rows.length;
}
