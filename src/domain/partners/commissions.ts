// Commissions (decisions 12, 21): floor(amount * rate_bps / 10000) of each paid plan QR of a partner's
// client, written in the paid transition's transaction (a subscriber); `pending` for the hold (14 days,
// PARTNER_COMMISSION_HOLD_DAYS), then `available` (a job). A refund of that payment reverses a pending
// commission, or takes the amount back from the available balance as an adjustment.
import type { Queryable } from '../../db/db.ts';
import type { DbSecretsDeps, DbDeps } from '../../deps.ts';
import type { Operation } from '../payments/operations.ts';
import type { JournalEvent } from '../events/types.ts';
import { page, type PageResult, type Position, type Paging } from '../pagination.ts';
import { post } from './ledger.ts';

export const COMMISSION_STATUSES = ['pending', 'available', 'reversed', 'paid_out'] as const;
export type CommissionStatus = (typeof COMMISSION_STATUSES)[number];

/** Set at start from configuration; subscribers get a transaction only. */
let holdDays = 14;
export const setCommissionHoldDays = (days: number) => void (holdDays = days);

export async function recordCommission(tx: Queryable, op: Operation): Promise<void> {
  if (op.source !== 'subscription') return;
  const r = await tx.query<{ partner_id: number; rate: number; client_id: number; plan: string }>(
    `SELECT p.id AS partner_id, p.commission_rate_bps AS rate, c.id AS client_id, o.subscription_plan AS plan
       FROM operations o JOIN clients c ON c.id = o.subscription_client_id JOIN partners p ON p.id = c.partner_id
      WHERE o.id = $1`,
    [op.id],
  );
  const x = r.rows[0];
  if (!x) return;
  const amount = Math.floor((op.amount * x.rate) / 10000);
  const paidAt = op.paid_at ?? new Date();
  const c = await tx.query<{ id: number }>(
    `INSERT INTO commissions (partner_id, client_id, operation_id, plan, base_amount, rate_bps, amount, available_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::timestamptz + make_interval(days => $9::int))
     ON CONFLICT (operation_id) DO NOTHING RETURNING id`,
    [x.partner_id, x.client_id, op.id, x.plan, op.amount, x.rate, amount, paidAt, holdDays],
  );
  if (c.rows[0] && amount > 0)
    await post(tx, x.partner_id, {
      type: 'commission',
      amount,
      available: 0,
      pending: amount,
      ref: `commission:${c.rows[0].id}`,
    });
}

/** After `payment.refunded` of a plan QR: the commission on what was refunded comes back. */
export async function reverseOnRefund(tx: Queryable, e: JournalEvent): Promise<void> {
  if (e.type !== 'payment.refunded') return;
  const opId = String(e.data.operation_id ?? '');
  const c = (
    await tx.query<{
      id: number;
      partner_id: number;
      amount: string;
      status: CommissionStatus;
      base_amount: string;
      rate_bps: number;
    }>(
      `SELECT id, partner_id, amount, status, base_amount, rate_bps FROM commissions
        WHERE operation_id = $1 FOR UPDATE`,
      [opId],
    )
  ).rows[0];
  if (!c || c.status === 'reversed') return;
  // The share of the refunded amount, never more than what is left of the commission.
  const back = Math.min(Number(c.amount), Math.floor((Number(e.data.amount) * c.rate_bps) / 10000));
  if (back <= 0) return;
  if (c.status === 'pending') {
    const left = Number(c.amount) - back;
    await tx.query(
      `UPDATE commissions SET amount = $2::bigint, status = CASE WHEN $2::bigint = 0 THEN 'reversed' ELSE status END
        WHERE id = $1`,
      [c.id, left],
    );
    await post(tx, c.partner_id, {
      type: 'adjustment',
      amount: -back,
      available: 0,
      pending: -back,
      ref: `refund:${opId}`,
    });
  } else {
    await post(tx, c.partner_id, {
      type: 'adjustment',
      amount: -back,
      available: -back,
      pending: 0,
      ref: `refund:${opId}`,
    });
  }
}

/** The job: commissions past their hold become available. Returns how many. */
export async function releaseDueCommissions(deps: DbDeps, limit = 500): Promise<number> {
  return deps.db.tx(async (tx) => {
    const due = await tx.query<{ id: number; partner_id: number; amount: string }>(
      `UPDATE commissions SET status = 'available' WHERE id IN (
         SELECT id FROM commissions WHERE status = 'pending' AND available_at <= now()
          ORDER BY available_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
       RETURNING id, partner_id, amount`,
    );
    for (const c of due.rows) {
      const amount = Number(c.amount);
      if (amount > 0)
        await post(tx, c.partner_id, {
          type: 'release',
          amount,
          available: amount,
          pending: -amount,
          ref: `commission:${c.id}`,
        });
    }
    return due.rows.length;
  });
}

export interface Commission {
  id: number;
  client_id: number;
  client_name: string;
  operation_id: string;
  plan: string;
  base_amount: number;
  rate_bps: number;
  amount: number;
  status: CommissionStatus;
  available_at: Date;
  created_at: Date;
}

export async function listCommissions(
  deps: DbSecretsDeps,
  partnerId: number,
  filters: { status?: CommissionStatus; clientId?: number },
  paging: Paging,
): Promise<PageResult<Commission>> {
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: '/partner/commissions',
      filters: { status: filters.status, client: filters.clientId },
      cursor: paging.cursor,
      limit: paging.limit,
    },
    async (after: Position | undefined, take: number) => {
      const params: unknown[] = [partnerId];
      const where = ['m.partner_id = $1'];
      if (filters.status) where.push(`m.status = $${params.push(filters.status)}`);
      if (filters.clientId) where.push(`m.client_id = $${params.push(filters.clientId)}`);
      if (after)
        where.push(`(m.created_at, m.id) < ($${params.push(after.createdAt)}, $${params.push(Number(after.id))})`);
      return (
        await deps.db.query<Commission>(
          `SELECT m.id, m.client_id, c.name AS client_name, m.operation_id, m.plan,
                m.base_amount::float8 AS base_amount, m.rate_bps, m.amount::float8 AS amount, m.status, m.available_at,
                m.created_at
           FROM commissions m JOIN clients c ON c.id = m.client_id WHERE ${where.join(' AND ')}
          ORDER BY m.created_at DESC, m.id DESC LIMIT ${take}`,
          params,
        )
      ).rows;
    },
    (m) => String(m.id),
  );
}
