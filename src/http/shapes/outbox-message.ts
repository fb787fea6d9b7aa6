// A message of the channel outbox (e-mail, messenger, SMS) as the admin API shows it, secrets masked.
import { Type } from 'typebox';
import { Nullable, NullableTimestamp, Timestamp } from '../schemas.ts';
import { CHANNELS } from '../../channels/types.ts';

export const OutboxMessage = Type.Object(
  {
    id: Type.Integer(),
    channel: Type.String({ enum: [...CHANNELS] }),
    recipient: Type.String(),
    subject: Nullable(Type.String()),
    body: Type.String({
      description:
        'the text with every token and code in it masked (`inv_******`, `******`): ' +
        'the channel alone gets them in clear. ' +
        'A day after a message that carried one is settled, a note replaces its text',
    }),
    purpose: Type.String(),
    client_id: Nullable(Type.Integer()),
    status: Type.String({ enum: ['pending', 'sent', 'failed'] }),
    attempts: Type.Integer(),
    driver: Nullable(Type.String({ description: 'log, smtp, bot_api, http_gateway: the driver of the last attempt' })),
    last_error: Nullable(Type.String()),
    next_attempt_at: Timestamp,
    sent_at: NullableTimestamp,
    created_at: Timestamp,
  },
  { title: 'OutboxMessage' },
);
