// Local stand-ins for the outside world of the channels: an SMTP receiver (the smtp-server package) and
// a fake bot HTTP API, both on 127.0.0.1 and a free port.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { loadConfig, type ChannelConfig } from '../../src/config.ts';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export async function smtpReceiver(): Promise<{ url: string; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    // Plain SMTP on loopback: no certificate to trust, no login.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface BotCall {
  path: string;
  body: { chat_id?: string | number; text?: string };
}

/** The bot HTTP API's sendMessage; `answer` decides each reply (default: ok). */
export async function fakeBotApi(): Promise<{
  url: string;
  calls: BotCall[];
  answer: (status: number, body: object) => void;
  close(): Promise<void>;
}> {
  const calls: BotCall[] = [];
  let next: [number, object] = [200, { ok: true, result: {} }];
  const server: Server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      calls.push({ path: req.url ?? '', body: data ? JSON.parse(data) : {} });
      res.writeHead(next[0], { 'content-type': 'application/json' });
      res.end(JSON.stringify(next[1]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    answer: (status, body) => (next = [status, body]),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The channel settings of a default configuration, with some replaced. */
export const channels = (over: Partial<ChannelConfig>): ChannelConfig => ({ ...loadConfig({}).channels, ...over });
