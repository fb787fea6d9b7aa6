// CSV export of the newest payments (at most 1000 rows). Cells that a spreadsheet would run as a
// formula (=, +, -, @, tab, CR at the start) are prefixed with a quote: merchant comments and payer
// names come from outside.
import { stringify } from 'csv-stringify/sync';
import type { DbSecretsDeps } from '../../deps.ts';
import type { Tenant } from '../tenant.ts';
import { recentOperations } from './list.ts';

export const EXPORT_MAX_ROWS = 1000;

const COLUMNS = [
  'operation_id',
  'type',
  'status',
  'amount',
  'refunded_amount',
  'comment',
  'phone',
  'sender_name',
  'transaction_id',
  'source',
  'created_at',
  'paid_at',
] as const;

export function safeCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = v instanceof Date ? v.toISOString() : String(v);
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

export async function exportCsv(deps: DbSecretsDeps, tenant: Tenant, status?: string): Promise<string> {
  const ops = await recentOperations(deps, tenant, status, EXPORT_MAX_ROWS);
  const rows = ops.map((op) =>
    [
      op.id,
      op.type,
      op.status,
      op.amount,
      op.refunded_amount,
      op.comment,
      op.phone,
      op.sender_name,
      op.transaction_id,
      op.source,
      op.created_at,
      op.paid_at,
    ].map(safeCell),
  );
  return stringify([COLUMNS as unknown as string[], ...rows]);
}
