// The `log` driver (default): the message is written to the console and stays in the outbox table,
// where tests and GET /admin/outbox read it. Nothing leaves the machine.
import type { Channel, ChannelDriver, OutboundMessage } from './types.ts';

export type LogLine = (fields: Record<string, unknown>, msg: string) => void;

export function logDriver(channel: Channel, line: LogLine): ChannelDriver {
  return {
    name: 'log',
    async send(m: OutboundMessage) {
      // The body may carry a one-time link: it is in the outbox for the operator, not in shared logs.
      line(
        { channel, recipient: m.recipient, subject: m.subject, chars: m.body.length },
        'outbound message (log driver)',
      );
    },
  };
}
