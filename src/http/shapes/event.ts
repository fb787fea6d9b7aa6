// The journal event on the wire, and its mapper from the stored event.
import { Type } from 'typebox';
import { Timestamp } from '../schemas.ts';
import { JOURNAL_EVENT_TYPES, type JournalEvent } from '../../domain/events/types.ts';

export const EventItem = Type.Object(
  {
    id: Type.String(),
    type: Type.String({ title: 'EventType', enum: [...JOURNAL_EVENT_TYPES] }),
    data: Type.Record(Type.String(), Type.Unknown()),
    created_at: Timestamp,
    livemode: Type.Boolean(),
  },
  { title: 'Event' },
);

export const toEventItem = (e: JournalEvent) => ({
  id: e.id,
  type: e.type,
  data: e.data,
  created_at: e.created_at,
  livemode: e.mode === 'live',
});
