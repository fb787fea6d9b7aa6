// E-mail over SMTP through nodemailer (SMTP_URL, e.g. smtp://user:pass@host:587 or smtps://...).
import nodemailer from 'nodemailer';
import { ChannelError, type ChannelDriver, type OutboundMessage } from './types.ts';

export function smtpDriver(url: string, from: string): ChannelDriver {
  // A pool keeps one connection for a burst of messages instead of a handshake each.
  const transport = nodemailer.createTransport(url, { from });
  return {
    name: 'smtp',
    async send(m: OutboundMessage) {
      try {
        await transport.sendMail({ to: m.recipient, subject: m.subject ?? '', text: m.body });
      } catch (err) {
        const e = err as { responseCode?: number; message?: string };
        // 5xx from the server is a refusal of this message (bad mailbox); anything else may pass later.
        throw new ChannelError(`smtp: ${e.message ?? 'send failed'}`, typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600);
      }
    },
    async close() {
      transport.close();
    },
  };
}
