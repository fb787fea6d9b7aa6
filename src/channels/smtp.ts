// E-mail over SMTP through nodemailer (SMTP_URL, e.g. smtp://user:pass@host:587 or smtps://...).
import type { Transporter } from 'nodemailer';
import { ChannelError, type ChannelDriver, type OutboundMessage } from './types.ts';

export function smtpDriver(url: string, from: string): ChannelDriver {
  // nodemailer is loaded with the first message, not at every start-up.
  let transport: Promise<Transporter> | undefined;
  const open = () => (transport ??= import('nodemailer').then((m) => m.default.createTransport(url, { from })));
  return {
    name: 'smtp',
    async send(m: OutboundMessage) {
      try {
        await (await open()).sendMail({ to: m.recipient, subject: m.subject ?? '', text: m.body });
      } catch (err) {
        const e = err as { responseCode?: number; message?: string };
        // 5xx from the server is a refusal of this message (bad mailbox); anything else may pass later.
        throw new ChannelError(
          `smtp: ${e.message ?? 'send failed'}`,
          typeof e.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600,
        );
      }
    },
    async close() {
      (await transport)?.close();
    },
  };
}
