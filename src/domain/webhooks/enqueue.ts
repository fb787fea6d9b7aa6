// Outbox to deliveries: for a journal event of a subscribable type, one delivery row per active webhook
// of the event's client and mode, written in the event's transaction. The body is fixed here, so every
// attempt sends (and signs) the same bytes. next_attempt_at starts at the event's time; the worker adds
// WEBHOOK_RETRY_SCHEDULE[0] for first attempts (the outbox runs inside appendEvent and sees no config).
// The same statement NOTIFYs the workers, delivered at commit, so they need not wait for their next poll.
// With tracing on, each row keeps the active trace context: the attempts continue the event's trace.
import type { Queryable } from '../../db/db.ts';
import { WEBHOOK_EVENT_TYPES, type JournalEvent } from '../events/types.ts';
import { newId } from '../ids.ts';
import { currentTraceparent } from '../../telemetry/tracing.ts';

const SUBSCRIBABLE = new Set<string>(WEBHOOK_EVENT_TYPES);

export const DELIVERIES_CHANNEL = 'tolem_deliveries';

/** The compact JSON body of a delivery: `{id, type, created_at, data}`, id = the event id. */
export function deliveryBody(e: { id: string; type: string; created_at: Date; data: Record<string, unknown> }): string {
  return JSON.stringify({ id: e.id, type: e.type, created_at: e.created_at.toISOString(), data: e.data });
}

export async function enqueueDeliveries(tx: Queryable, event: JournalEvent): Promise<void> {
  if (!SUBSCRIBABLE.has(event.type)) return;
  const hooks = await tx.query<{ id: number }>(
    `SELECT id FROM webhooks WHERE client_id = $1 AND mode = $2 AND is_active AND $3 = ANY(events) ORDER BY id`,
    [event.client_id, event.mode, event.type],
  );
  if (!hooks.rows.length) return;
  const ids = hooks.rows.map((h) => h.id);
  await tx.query(
    `WITH ins AS (
       INSERT INTO webhook_deliveries (webhook_id, client_id, mode, message_id, event_id, event_type, body,
                                       next_attempt_at, trace_context)
       SELECT w, $3, $4, m, $5, $6, $7, now(), $8
         FROM unnest($1::bigint[], $2::text[]) AS t(w, m)
       ON CONFLICT (webhook_id, event_id) DO NOTHING
       RETURNING 1)
     SELECT pg_notify('${DELIVERIES_CHANNEL}', '') FROM (SELECT 1 FROM ins LIMIT 1) AS any_inserted`,
    [
      ids,
      ids.map(() => newId('msg')),
      event.client_id,
      event.mode,
      event.id,
      event.type,
      deliveryBody(event),
      // The worker's attempts continue the trace that caused the event (null with tracing off).
      currentTraceparent(),
    ],
  );
}
