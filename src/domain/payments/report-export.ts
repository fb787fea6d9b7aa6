// The streamed payment reports (decisions 28): every payment of a range as CSV or XLSX, written as the rows are
// read (report-rows.ts), with no row cap; the specification's /me/payments/export keeps its 1,000 rows. The
// columns are the capped export's and the sale receipt's status and fiscal sign.
// - CSV in the capped export's two dialects (export.ts): `csv` and `excel-ru`; each batch is one chunk pulled
//   by the response, so a slow client slows the reading and a client gone stops it.
// - XLSX through exceljs's streaming WorkbookWriter: each row is committed (written to the zip) as it comes;
//   after each batch the writer waits while the response's buffer is full, and stops when it is closed.
//   Amounts are numbers, times are date cells in Kazakhstan's time (UTC+5: a spreadsheet has no zone).
import type { PassThrough, Writable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { almatyTime, EXPORT_COLUMNS, safeCell, type ExportFormat } from './export.ts';
import type { ReportRow } from './report-rows.ts';

export const REPORT_COLUMNS = [...EXPORT_COLUMNS, 'receipt_status', 'fiscal_sign'] as const;
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const values = (r: ReportRow) => [
  r.id,
  r.type,
  r.status,
  r.amount,
  r.refunded_amount,
  r.comment,
  r.phone,
  r.sender_name,
  r.transaction_id,
  r.source,
  r.created_at,
  r.paid_at,
  r.receipt_status,
  r.fiscal_sign,
];

export async function* csvReport(batches: AsyncIterable<ReportRow[]>, format: ExportFormat): AsyncGenerator<string> {
  const time = format === 'excel-ru' ? almatyTime : undefined;
  const opts = format === 'excel-ru' ? { delimiter: ';', record_delimiter: 'windows' as const } : {};
  yield stringify([[...REPORT_COLUMNS]], { ...opts, bom: format === 'excel-ru' });
  for await (const batch of batches)
    yield stringify(
      batch.map((r) => values(r).map((v) => safeCell(v, time))),
      opts,
    );
}

const KZ_OFFSET_MS = 5 * 3600_000;
const MONEY = new Set(['amount', 'refunded_amount']);
const TIMES = new Set(['created_at', 'paid_at']);

/** A cell's value: numbers stay numbers, times shift to Kazakhstan's, text is guarded against formulas. */
function xlsxCell(v: unknown): unknown {
  if (v instanceof Date) return new Date(v.getTime() + KZ_OFFSET_MS);
  if (typeof v === 'number') return v;
  return safeCell(v) || null;
}

/** Resolves at the next 'drain' of `s` or 'close' of `out`, leaving no listener behind. */
function drainedOrClosed(s: Writable, out: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      s.off('drain', done);
      out.off('close', done);
      resolve();
    };
    s.on('drain', done);
    out.on('close', done);
  });
}

/**
 * Where the sheet's XML waits to be compressed. exceljs (4.4) writes a sheet into its own buffer (`stream`),
 * which writes every 64 KiB into the streams it is piped to (archiver's entry source) without asking whether
 * they have room, so the rows would pile up there, however slow the client, unless the writer waits for them
 * to drain. Not part of exceljs's typed API: when a version has no such field, only `out` is watched (and the
 * back-pressure test fails).
 */
function sheetSinks(sheet: unknown): Writable[] {
  const pipes = (sheet as { stream?: { pipes?: unknown } }).stream?.pipes;
  return Array.isArray(pipes) ? (pipes as Writable[]) : [];
}

/** A full buffer, in node's streams and in the readable-stream 2 copies archiver pipes through (no getter). */
const needsDrain = (s: Writable) =>
  s.writableNeedDrain ?? (s as unknown as { _writableState?: { needDrain?: boolean } })._writableState?.needDrain;

/**
 * Writes the workbook to `out` (a PassThrough the reply streams) and ends it. Resolves early, leaving the
 * file unfinished, when `out` closes first (the client went away): the rows are then no longer read.
 */
export async function xlsxReport(batches: AsyncIterable<ReportRow[]>, out: PassThrough): Promise<void> {
  // Loaded at the first XLSX: exceljs is a large module that most processes never use.
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = wb.addWorksheet('payments');
  sheet.columns = REPORT_COLUMNS.map((key) => ({
    header: key,
    key,
    width: TIMES.has(key) ? 20 : MONEY.has(key) ? 12 : 18,
    style: TIMES.has(key) ? { numFmt: 'dd.mm.yyyy hh:mm:ss' } : {},
  }));
  let closed = out.destroyed;
  out.once('close', () => {
    closed = true;
  });
  for await (const batch of batches) {
    if (closed) return;
    for (const r of batch) sheet.addRow(values(r).map(xlsxCell)).commit();
    // Back-pressure: wait until the sheet's XML has gone into the zip and the zip to the client.
    for (const s of [...sheetSinks(sheet), out]) while (!closed && needsDrain(s)) await drainedOrClosed(s, out);
  }
  if (closed) return;
  sheet.commit();
  await wb.commit();
}
