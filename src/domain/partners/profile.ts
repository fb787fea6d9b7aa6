// Partner profiles (decisions 12, 21): a client applies to be a partner; an admin approves it (or
// PARTNER_AUTO_APPROVE does); until it is active, every /partner/* call but its profile is 403
// partner_not_active.
import type { Tenant } from '../tenant.ts';
import type { Deps, DbDeps, DbSecretsDeps } from '../../deps.ts';
import type { Queryable } from '../../db/db.ts';
import { AppError } from '../../errors.ts';
import { checkWebsite } from '../addresses.ts';
import { page, type PageResult, type Position, type Paging } from '../pagination.ts';
import { endPartnerSessions } from '../accounts/impersonation.ts';
import { notify } from '../notifications/notify.ts';
import { forgetPartnerKeys } from './keys.ts';

export const PARTNER_STATUSES = ['pending', 'active', 'rejected', 'suspended'] as const;
export type PartnerStatus = (typeof PARTNER_STATUSES)[number];

export interface Partner {
  id: number;
  client_id: number;
  company_name: string;
  website: string | null;
  contact_phone: string | null;
  status: PartnerStatus;
  commission_rate_bps: number;
  created_at: Date;
}

const COLUMNS = 'id, client_id, company_name, website, contact_phone, status, commission_rate_bps, created_at';

export async function registerPartner(
  deps: Pick<Deps, 'config' | 'db'>,
  tenant: Tenant,
  input: { company_name: string; website?: string; contact_phone?: string },
): Promise<Partner> {
  const { clientId } = tenant;
  const website = input.website === undefined ? null : checkWebsite(input.website, 'website');
  const status: PartnerStatus = deps.config.partnerAutoApprove ? 'active' : 'pending';
  const r = await deps.db.query<Partner>(
    `INSERT INTO partners (client_id, company_name, website, contact_phone, status) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (client_id) DO NOTHING RETURNING ${COLUMNS}`,
    [clientId, input.company_name.trim(), website, input.contact_phone ?? null, status],
  );
  if (!r.rows[0]) throw new AppError('partner_exists', 'this account already has a partner profile');
  return r.rows[0];
}

export async function partnerOfClient(db: Queryable, clientId: number): Promise<Partner | undefined> {
  return (await db.query<Partner>(`SELECT ${COLUMNS} FROM partners WHERE client_id = $1`, [clientId])).rows[0];
}

/** The caller's partner, active; anything else is 403 partner_not_active. */
export async function activePartner(deps: DbDeps, tenant: Tenant): Promise<Partner> {
  const { clientId } = tenant;
  const p = await partnerOfClient(deps.db, clientId);
  if (!p)
    throw new AppError('partner_not_active', 'this account has no partner profile; POST /partner/auth/register first');
  if (p.status !== 'active') throw new AppError('partner_not_active', `the partner profile is ${p.status}`);
  return p;
}

// The admin's side (decisions 23).

/** How many partners have `status`, counting at most `cap` (the admin's menu shows "99+", not an exact total). */
export async function countPartners(db: Queryable, status: PartnerStatus, cap: number): Promise<number> {
  const r = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM partners WHERE status = $1 LIMIT ${cap}) AS capped`,
    [status],
  );
  return r.rows[0].n;
}
export async function listPartners(
  deps: DbSecretsDeps,
  filters: { status?: PartnerStatus },
  paging: Paging,
): Promise<PageResult<Partner>> {
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: '/admin/partners',
      filters: { status: filters.status },
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after: Position | undefined, take: number) => {
      const params: unknown[] = [];
      const where: string[] = [];
      if (filters.status) where.push(`status = $${params.push(filters.status)}`);
      if (after) where.push(`(created_at, id) < ($${params.push(after.createdAt)}, $${params.push(Number(after.id))})`);
      return (
        await deps.db.query<Partner>(
          `SELECT ${COLUMNS} FROM partners ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
            ORDER BY created_at DESC, id DESC LIMIT ${take}`,
          params,
        )
      ).rows;
    },
    (p) => String(p.id),
  );
}

const MOVES: Record<'approve' | 'reject' | 'suspend', { to: PartnerStatus; from: PartnerStatus[] }> = {
  approve: { to: 'active', from: ['pending', 'suspended', 'rejected'] },
  reject: { to: 'rejected', from: ['pending'] },
  suspend: { to: 'suspended', from: ['active'] },
};

const NOTICES: Record<
  keyof typeof MOVES,
  { type: 'partner.active' | 'partner.rejected' | 'partner.suspended'; title: string; body: string }
> = {
  approve: {
    type: 'partner.active',
    title: 'Partner programme: approved',
    body: 'Your partner profile is active: make a referral link or invite clients in the partner section.',
  },
  reject: {
    type: 'partner.rejected',
    title: 'Partner programme: not approved',
    body: 'Your partner application was not approved.',
  },
  suspend: {
    type: 'partner.suspended',
    title: 'Partner programme: suspended',
    body: "Your partner profile is suspended: its keys and its sessions in clients' accounts have stopped.",
  },
};

export async function movePartner(
  deps: Pick<Deps, 'db' | 'caches'>,
  id: number,
  action: keyof typeof MOVES,
): Promise<Partner> {
  const m = MOVES[action];
  const moved = await deps.db.tx(async (tx) => {
    const r = await tx.query<Partner>(
      `UPDATE partners SET status = $2 WHERE id = $1 AND status = ANY($3::text[]) RETURNING ${COLUMNS}`,
      [id, m.to, m.from],
    );
    if (!r.rows[0]) return undefined;
    // Its integration keys carry its status: a suspended partner's key stops on every instance now.
    await forgetPartnerKeys(tx, { partnerId: id }, deps.caches);
    // Its sessions in clients' accounts end with its authority (issue 38), for good: approving it again
    // does not revive them.
    if (m.to !== 'active') await endPartnerSessions(tx, id);
    // The partner hears of the decision in its own cabinet (issue 41), not by asking again.
    const notice = NOTICES[action];
    await notify(tx, r.rows[0].client_id, { ...notice, params: {} });
    return r.rows[0];
  });
  if (moved) return moved;
  const exists = await deps.db.query<{ status: string }>('SELECT status FROM partners WHERE id = $1', [id]);
  if (!exists.rows[0]) throw new AppError('partner_not_found', `partner ${id} not found`);
  throw new AppError(
    'partner_state',
    `a ${exists.rows[0].status} partner cannot be ${action === 'approve' ? 'approved' : `${action}ed`}`,
  );
}

export async function setCommissionRate(deps: DbDeps, id: number, bps: number): Promise<Partner> {
  const r = await deps.db.query<Partner>(
    `UPDATE partners SET commission_rate_bps = $2 WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, bps],
  );
  if (!r.rows[0]) throw new AppError('partner_not_found', `partner ${id} not found`);
  return r.rows[0];
}
