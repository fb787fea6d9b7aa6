// The three outbound channels of decisions 18. A driver sends one message or throws; retries, back-off
// and the record of what was sent belong to the outbox (domain/channels/outbox.ts), never to a driver.

export const CHANNELS = ['email', 'messenger', 'sms'] as const;
export type Channel = (typeof CHANNELS)[number];

export interface OutboundMessage {
  /** an e-mail address, a messenger chat id, or a phone number in E.164 */
  recipient: string;
  /** e-mail only */
  subject?: string;
  body: string;
}

export interface ChannelDriver {
  /** `log`, `smtp`, `bot_api`, `http_gateway`: written on each sent message */
  readonly name: string;
  send(message: OutboundMessage): Promise<void>;
  close?(): Promise<void>;
}

/** A failure the channel reported; `permanent` ones are not retried (a chat that blocked the bot). */
export class ChannelError extends Error {
  constructor(
    message: string,
    readonly permanent = false,
  ) {
    super(message);
  }
}
