// GET /v2/events: the journal of one client and mode, newest first, by type (several, comma-separated)
// and by time (`since`/`until`, inclusive; a bare date as `until` includes that whole UTC day).
import type { DbSecretsDeps } from '../../deps.ts';
import type { Tenant } from '../tenant.ts';
import { AppError } from '../../errors.ts';
import { page, type PageResult, type Paging } from '../pagination.ts';
import { JOURNAL_EVENT_TYPES } from './types.ts';
import type { JournalEvent } from './types.ts';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** A date and time with no zone: UTC, as every time of the API (JavaScript would read it as local time). */
const NO_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;

function parseInstant(value: string, param: 'since' | 'until'): Date {
  const d = new Date(DATE_ONLY.test(value) ? `${value}T00:00:00.000Z` : NO_ZONE.test(value) ? `${value}Z` : value);
  // Years 1 to 9999 only: what both stores take (JavaScript reads year 0 and years past 9999 too).
  if (
    Number.isNaN(d.getTime()) ||
    !/^\d{4}-\d{2}-\d{2}/.test(value) ||
    d.getUTCFullYear() < 1 ||
    d.getUTCFullYear() > 9999
  ) {
    throw new AppError('invalid_parameter', `${param} must be an ISO date or timestamp`, { param });
  }
  // until=2026-11-22 means the whole of that day.
  return param === 'until' && DATE_ONLY.test(value) ? new Date(d.getTime() + 86400_000 - 1) : d;
}

export function parseTypes(value: string | undefined): string[] | undefined {
  if (value === undefined || value === '') return undefined;
  const types = [
    ...new Set(
      value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  const unknown = types.find((t) => !(JOURNAL_EVENT_TYPES as readonly string[]).includes(t));
  if (unknown) throw new AppError('invalid_parameter', `unknown event type "${unknown}"`, { param: 'type' });
  return types.sort();
}

export async function listEvents(
  deps: DbSecretsDeps,
  scope: Tenant,
  filters: { type?: string; since?: string; until?: string; operation_id?: string },
  paging: Paging,
): Promise<PageResult<JournalEvent>> {
  const types = parseTypes(filters.type);
  const since = filters.since ? parseInstant(filters.since, 'since') : undefined;
  const until = filters.until ? parseInstant(filters.until, 'until') : undefined;
  return page(
    {
      secret: deps.secrets.appSecret,
      endpoint: 'v2.events',
      cursor: paging.cursor,
      limit: paging.limit,
      filters: {
        mode: scope.mode,
        type: types?.join(','),
        since: since?.toISOString(),
        until: until?.toISOString(),
        op: filters.operation_id,
      },
    },
    async (after, take) => {
      const where = ['client_id = $1', 'mode = $2'];
      const params: unknown[] = [scope.clientId, scope.mode];
      // One type by equality: events_type_page_idx (client, mode, type, created_at) then yields the page
      // in order, where `= ANY` would read and sort every event of the type. (Several types are rarer.)
      if (types)
        where.push(types.length === 1 ? `type = $${params.push(types[0])}` : `type = ANY($${params.push(types)})`);
      // events_operation_idx: its predicate (data ? 'operation_id') is implied by the equality.
      if (filters.operation_id)
        where.push(`data ? 'operation_id' AND data->>'operation_id' = $${params.push(filters.operation_id)}`);
      if (since) where.push(`created_at >= $${params.push(since)}`);
      if (until) where.push(`created_at <= $${params.push(until)}`);
      if (after) where.push(`(created_at, id) < ($${params.push(after.createdAt)}, $${params.push(after.id)})`);
      const r = await deps.db.query<JournalEvent>(
        `SELECT id, client_id, mode, type, data, created_at FROM events WHERE ${where.join(' AND ')}
          ORDER BY created_at DESC, id DESC LIMIT ${take}`,
        params,
      );
      return r.rows;
    },
    (e) => e.id,
  );
}
