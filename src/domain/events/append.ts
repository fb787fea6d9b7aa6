// The journal's write: an event is written in the same transaction as the state change it describes,
// and so are the webhook deliveries it causes (a subscriber of `afterEventAppended`, wired in
// domain/subscribers.ts). Nothing is published outside the transaction.
import type { Queryable } from '../../db/db.ts';
import type { Tenant } from '../tenant.ts';
import { newId } from '../ids.ts';
import { TxHooks } from '../tx-hooks.ts';
import type { JournalEvent, JournalEventType } from './types.ts';

export const afterEventAppended = new TxHooks<JournalEvent>('journal event appended');

export async function appendEvent(
  tx: Queryable,
  e: Tenant & { type: JournalEventType; data: Record<string, unknown> },
): Promise<JournalEvent> {
  const r = await tx.query<JournalEvent>(
    `INSERT INTO events (id, client_id, mode, type, data) VALUES ($1, $2, $3, $4, $5)
     RETURNING id, client_id, mode, type, data, created_at`,
    [newId('evt'), e.clientId, e.mode, e.type, JSON.stringify(e.data)],
  );
  const event = r.rows[0];
  await afterEventAppended.run(tx, event);
  return event;
}
