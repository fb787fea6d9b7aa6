// A partner's clients (decisions 21): each client has at most one partner, with the origin that brought it.
// Status is derived on read: pending (no live provider account yet), active, or restricted with a reason
// (the plan lapsed, or the live account's session did).
import type { Deps, DbClockDeps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { page, type PageResult, type Position, type Paging } from '../pagination.ts';
import { planActiveSql } from '../plans.ts';
import { OP_COLUMNS_O, type Operation } from '../payments/operations.ts';

export const CLIENT_STATUSES = ['pending', 'active', 'restricted'] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];

export interface PartnerClient {
  id: number;
  name: string;
  email: string;
  external_id: string | null;
  origin: string;
  status: ClientStatus;
  status_reason: 'plan_inactive' | 'session_expired' | null;
  plan: string;
  plan_active: boolean;
  provider_connected: boolean;
  onboarding_state: string;
  impersonation_allowed: boolean;
  phone: string | null;
  metadata: Record<string, unknown> | null;
  created_at: Date;
}

// One derivation for the list, its filter and the detail. `now` is $1.
const DERIVED = `
  SELECT c.id, c.name, c.email, c.external_id, c.partner_origin AS origin, c.plan, c.created_at, c.phone, c.metadata,
         c.allow_partner_impersonation AS impersonation_allowed, c.partner_id,
         ${planActiveSql('$1')} AS plan_active,
         (a.id IS NOT NULL) AS provider_connected, COALESCE(a.session_alive, false) AS session_alive,
         COALESCE(ob.state, CASE WHEN a.id IS NOT NULL THEN 'connected' ELSE 'idle' END) AS onboarding_state
    FROM clients c
    LEFT JOIN LATERAL (SELECT id, session_alive FROM provider_accounts
                        WHERE client_id = c.id AND mode = 'live' AND deleted_at IS NULL
                        ORDER BY is_default DESC LIMIT 1) a ON true
    LEFT JOIN onboarding ob ON ob.client_id = c.id AND ob.mode = 'live'`;

const STATUS = `CASE WHEN NOT d.provider_connected THEN 'pending'
                     WHEN NOT d.plan_active OR NOT d.session_alive THEN 'restricted' ELSE 'active' END`;
const REASON = `CASE WHEN NOT d.provider_connected THEN NULL WHEN NOT d.plan_active THEN 'plan_inactive'
                     WHEN NOT d.session_alive THEN 'session_expired' END`;

type Row = Omit<PartnerClient, 'status' | 'status_reason'> & {
  status: ClientStatus;
  status_reason: PartnerClient['status_reason'];
};

/**
 * The partner's clients, newest first. Two lists read them (the partner cabinet's /partner/clients and
 * the integration API's /partner/v1/clients): `endpoint` names the caller's, so that a cursor of one is
 * 400 invalid_cursor on the other (decisions 7).
 */
export async function listPartnerClients(
  deps: Pick<Deps, 'db' | 'secrets' | 'clock'>,
  scope: { partnerId: number; endpoint: '/partner/clients' | '/partner/v1/clients' },
  filters: { status?: ClientStatus },
  paging: Paging,
): Promise<PageResult<PartnerClient>> {
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: scope.endpoint,
      filters: { status: filters.status },
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after: Position | undefined, take: number) => {
      const params: unknown[] = [deps.clock.now(), scope.partnerId];
      const where = ['d.partner_id = $2'];
      if (filters.status) where.push(`(${STATUS}) = $${params.push(filters.status)}`);
      if (after)
        where.push(`(d.created_at, d.id) < ($${params.push(after.createdAt)}, $${params.push(Number(after.id))})`);
      const r = await deps.db.query<Row>(
        `SELECT d.id, d.name, d.email, d.external_id, d.origin, ${STATUS} AS status, ${REASON} AS status_reason,
                d.plan, d.plan_active, d.provider_connected, d.onboarding_state, d.impersonation_allowed, d.phone,
                d.metadata, d.created_at
           FROM (${DERIVED} WHERE c.partner_id = $2) d WHERE ${where.join(' AND ')}
          ORDER BY d.created_at DESC, d.id DESC LIMIT ${take}`,
        params,
      );
      return r.rows;
    },
    (c) => String(c.id),
  );
}

/** One client of the partner; another partner's is not found. */
export async function partnerClient(
  deps: DbClockDeps,
  partnerId: number,
  targetClientId: number,
): Promise<PartnerClient> {
  const r = await deps.db.query<Row>(
    `SELECT d.id, d.name, d.email, d.external_id, d.origin, ${STATUS} AS status, ${REASON} AS status_reason,
            d.plan, d.plan_active, d.provider_connected, d.onboarding_state, d.impersonation_allowed, d.phone,
            d.metadata, d.created_at
       FROM (${DERIVED} WHERE c.id = $3 AND c.partner_id = $2) d`,
    [deps.clock.now(), partnerId, targetClientId],
  );
  if (!r.rows[0]) throw new AppError('client_not_found', `client ${targetClientId} not found`);
  return r.rows[0];
}

/** One client of the partner, with its last 20 live payments (commissions come with the balance). */
export async function partnerClientDetail(
  deps: DbClockDeps,
  partnerId: number,
  targetClientId: number,
): Promise<PartnerClient & { payments: Operation[] }> {
  const client = await partnerClient(deps, partnerId, targetClientId);
  const payments = await deps.db.query<Operation>(
    `SELECT ${OP_COLUMNS_O} FROM operations o WHERE o.client_id = $1 AND o.mode = 'live'
      ORDER BY o.created_at DESC, o.id DESC LIMIT 20`,
    [targetClientId],
  );
  return { ...client, payments: payments.rows };
}
