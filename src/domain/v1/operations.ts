// v1 names operations by their numeric `seq` and speaks its own PascalCase status words (decisions 11).
// Everything else is the v2 operation itself: the same row, state machine, journal and webhooks.
import type { Queryable } from '../../db/db.ts';
import type { Tenant } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import { OP_COLUMNS, type Operation } from '../payments/operations.ts';
import type { OperationStatus } from '../payments/state.ts';

/**
 * v2 status -> v1 status. The first four are the specification's; the v2-only states get PascalCase
 * names of their own rather than being folded into one of the four: a declined payment is not an expired
 * one, and a refunded payment must not look like money the merchant still holds.
 */
const V1_STATUS: Record<Exclude<OperationStatus, 'created'>, string> = {
  paid: 'Paid',
  expired: 'Expired',
  cancelled: 'Cancelled',
  declined: 'Declined',
  partially_refunded: 'PartiallyRefunded',
  refunded: 'Refunded',
};

export function v1Status(op: Pick<Operation, 'type' | 'status'>): string {
  if (op.status === 'created') return op.type === 'qr' ? 'QrTokenCreated' : 'InvoiceCreated';
  return V1_STATUS[op.status];
}

export const V1_STATUSES = ['QrTokenCreated', 'InvoiceCreated', ...Object.values(V1_STATUS)];

/** The largest seq we look up: bigint in the store, and a JS number must hold it exactly. */
const MAX_SEQ = Number.MAX_SAFE_INTEGER;

/**
 * A v1 operation id as sent by the client: the spec's digit string ("42") or, leniently, the integer
 * v1 itself returned (42). Anything else is a validation error, never a database error.
 */
export function parseSeq(raw: string | number, param = 'operation_id'): number {
  const n = typeof raw === 'number' ? raw : /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_SEQ) {
    throw new AppError('invalid_parameter', `${param} must be a v1 operation id (a positive integer)`, { param });
  }
  return n;
}

/** Tenant-scoped like every read (architecture rule 3): another client's or mode's seq is not found. */
export async function findBySeq(db: Queryable, tenant: Tenant, seq: number): Promise<Operation> {
  const { clientId, mode } = tenant;
  // `seq` is UNIQUE, so its index answers this; client and mode only make foreign rows invisible.
  const r = await db.query<Operation>(
    `SELECT ${OP_COLUMNS} FROM operations WHERE seq = $1 AND client_id = $2 AND mode = $3`,
    [seq, clientId, mode],
  );
  if (!r.rows[0]) throw new AppError('payment_not_found', `no operation ${seq}`);
  return r.rows[0];
}
