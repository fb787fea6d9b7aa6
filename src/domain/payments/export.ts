// CSV export of the newest payments of a search (at most 1000 rows), in two forms:
// - `csv` (the default, unchanged for API callers): comma-separated, no BOM, times in ISO 8601 UTC;
// - `excel-ru`: what a spreadsheet in a Russian (or Kazakh) locale opens right with a double click: a UTF-8 BOM
//   (else Cyrillic reads as mojibake), `;` between cells (the list separator where `,` is the decimal comma),
//   CRLF line ends, and times as Almaty's local `DD.MM.YYYY HH:MM:SS`, a form such a spreadsheet reads as a date.
// Cells that a spreadsheet would run as a formula (=, +, -, @, tab, CR at the start) are prefixed with a quote in
// both forms: merchant comments and payer names come from outside.
import { stringify } from 'csv-stringify/sync';
import type { DbSecretsDeps } from '../../deps.ts';
import type { Tenant } from '../tenant.ts';
import { newestOperations, type PaymentFilters } from './list.ts';

export const EXPORT_MAX_ROWS = 1000;
export const EXPORT_FORMATS = ['csv', 'excel-ru'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_COLUMNS = [
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

export function safeCell(v: unknown, time: (d: Date) => string = (d) => d.toISOString()): string {
  if (v === null || v === undefined) return '';
  const s = v instanceof Date ? time(v) : String(v);
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

/**
 * Kazakhstan's one time zone since 2024-03-01 is UTC+5, written as a fixed offset rather than read from the
 * host's zone data, which may predate the change (Asia/Almaty was UTC+6 until then).
 */
const ALMATY_OFFSET_MS = 5 * 3600_000;
const two = (n: number) => String(n).padStart(2, '0');
export function almatyTime(d: Date): string {
  const a = new Date(d.getTime() + ALMATY_OFFSET_MS);
  return (
    `${two(a.getUTCDate())}.${two(a.getUTCMonth() + 1)}.${a.getUTCFullYear()} ` +
    `${two(a.getUTCHours())}:${two(a.getUTCMinutes())}:${two(a.getUTCSeconds())}`
  );
}

export async function exportCsv(
  deps: DbSecretsDeps,
  tenant: Tenant,
  filters: PaymentFilters,
  format: ExportFormat = 'csv',
): Promise<string> {
  const ops = await newestOperations(deps, tenant, filters, EXPORT_MAX_ROWS);
  const time = format === 'excel-ru' ? almatyTime : undefined;
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
    ].map((v) => safeCell(v, time)),
  );
  const table = [EXPORT_COLUMNS as unknown as string[], ...rows];
  if (format === 'excel-ru') return stringify(table, { bom: true, delimiter: ';', record_delimiter: 'windows' });
  return stringify(table);
}
