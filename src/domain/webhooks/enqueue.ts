// Outbox to deliveries: for a journal event of a subscribable type, one delivery row per active webhook
// of the event's client and mode, written in the event's transaction.
import type { Queryable } from '../../db/db.ts';
import type { JournalEvent } from '../events/append.ts';

export async function enqueueDeliveries(_tx: Queryable, _event: JournalEvent): Promise<void> {
  // Webhook subscriptions arrive with issue 4; until then no event has a delivery.
}
