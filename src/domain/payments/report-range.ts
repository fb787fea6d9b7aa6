// The date range of the streamed payment reports (decisions 28): `from` inclusive, `to` exclusive, both
// required, at most REPORT_MAX_DAYS apart. Each is a calendar date (YYYY-MM-DD: midnight in Kazakhstan, UTC+5,
// the one time zone of the country since 2024-03-01, so `from=2026-05-01&to=2026-06-01` is May as a shop
// counts it) or a date and time with its offset, as the payments search takes it.
import { AppError } from '../../errors.ts';
import { parseInstant } from './search.ts';

export const REPORT_MAX_DAYS = 366;
const DAY_MS = 86_400_000;
const KZ_OFFSET = '+05:00';

export interface ReportRange {
  from: Date;
  to: Date;
}

const bad = (param: string, message: string) => new AppError('invalid_parameter', message, { param });

function parseBound(raw: string | undefined, param: string): Date {
  if (!raw) throw bad(param, `${param} is required: a date (YYYY-MM-DD) or a date and time with its offset`);
  return /^\d{4}-\d{2}-\d{2}$/.test(raw)
    ? parseInstant(`${raw}T00:00:00${KZ_OFFSET}`, param)
    : parseInstant(raw, param);
}

export function parseReportRange(input: { from?: string; to?: string }): ReportRange {
  const from = parseBound(input.from, 'from');
  const to = parseBound(input.to, 'to');
  if (to <= from) throw bad('to', 'to must be after from (to is exclusive)');
  if (to.getTime() - from.getTime() > REPORT_MAX_DAYS * DAY_MS)
    throw bad('to', `from and to must be at most ${REPORT_MAX_DAYS} days apart`);
  return { from, to };
}
