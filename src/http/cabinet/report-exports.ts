// GET /me/reports/payments.csv and /me/reports/payments.xlsx (decisions 28): every payment of a range, streamed
// as it is read, with no row cap (the specification's /me/payments/export keeps its 1,000 rows). JWT with
// ?mode=test, payments.export like the capped export.
import { PassThrough, Readable } from 'node:stream';
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { EXPORT_FORMATS, type ExportFormat } from '../../domain/payments/export.ts';
import { csvReport, XLSX_TYPE, xlsxReport } from '../../domain/payments/report-export.ts';
import { parseReportRange, REPORT_MAX_DAYS, type ReportRange } from '../../domain/payments/report-range.ts';
import { reportRows } from '../../domain/payments/report-rows.ts';
import { tenant } from '../context.ts';
import { ModeQuery } from '../params.ts';
import { route, type App } from '../route.ts';

const Bound = (what: string) =>
  Type.String({
    description:
      `${what}: a date (YYYY-MM-DD, midnight in Kazakhstan, UTC+5) or a date and time with its offset ` +
      '(2026-05-01T00:00:00+05:00)',
  });
const RangeQuery = {
  ...ModeQuery,
  from: Bound('first instant, inclusive'),
  to: Bound(`end, exclusive; at most ${REPORT_MAX_DAYS} days after from`),
};

/** The file's name: the mode and the range's dates as Kazakhstan counts them. */
function fileName(mode: string, r: ReportRange, ext: string): string {
  const day = (d: Date) => new Date(d.getTime() + 5 * 3600_000).toISOString().slice(0, 10);
  return `payments-${mode}-${day(r.from)}-${day(r.to)}.${ext}`;
}

const binary = (type: string, description: string) => ({
  200: { description, content: { [type]: { schema: Type.Unsafe<Readable>({ type: 'string', format: 'binary' }) } } },
});

export function reportExportRoutes(app: App, deps: Deps): void {
  const tags = ['cabinet payments'];

  route(app, {
    method: 'GET',
    url: '/me/reports/payments.csv',
    auth: ['jwt'],
    permission: 'payments.export',
    errors: [403],
    schema: {
      tags,
      summary: 'CSV of every payment created in a range, oldest first, streamed (no row cap)',
      querystring: Type.Object({
        ...RangeQuery,
        format: Type.Optional(
          Type.String({
            enum: [...EXPORT_FORMATS],
            description: 'csv (default) or excel-ru, as GET /me/payments/export',
          }),
        ),
      }),
      response: {
        200: {
          description: 'CSV, one payment a row',
          content: { 'text/csv': { schema: Type.Unsafe<Readable>(Type.String()) } },
        },
      },
    },
    handler: async (req, reply) => {
      const t = tenant(req);
      const range = parseReportRange(req.query);
      // The schema's enum has checked the format.
      const format = (req.query.format ?? 'csv') as ExportFormat;
      reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${fileName(t.mode, range, 'csv')}"`);
      return reply.send(Readable.from(csvReport(reportRows(deps, t, range), format)));
    },
  });

  route(app, {
    method: 'GET',
    url: '/me/reports/payments.xlsx',
    auth: ['jwt'],
    permission: 'payments.export',
    errors: [403],
    schema: {
      tags,
      summary: 'XLSX of every payment created in a range, oldest first, streamed (no row cap)',
      querystring: Type.Object(RangeQuery),
      response: binary(XLSX_TYPE, 'a workbook with one sheet, one payment a row'),
    },
    handler: async (req, reply) => {
      const t = tenant(req);
      const range = parseReportRange(req.query);
      const out = new PassThrough();
      xlsxReport(reportRows(deps, t, range), out).catch((err: Error) => {
        req.log.error({ err }, 'the XLSX report stopped');
        out.destroy(err);
      });
      reply.type(XLSX_TYPE).header('Content-Disposition', `attachment; filename="${fileName(t.mode, range, 'xlsx')}"`);
      return reply.send(out);
    },
  });
}
