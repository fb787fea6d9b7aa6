// One JSON POST with time-outs, for the HTTP channel drivers. Network failures become a ChannelError
// naming only the error's kind: a URL may carry a secret (the bot token), so it is never in a message.
import { request } from 'undici';
import { ChannelError } from './types.ts';

const TIMEOUT_MS = 10_000;

export async function postJson(url: string, body: object, what: string): Promise<{ status: number; json: unknown }> {
  try {
    const res = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    const json = await res.body.json().catch(() => undefined);
    return { status: res.statusCode, json };
  } catch (err) {
    throw new ChannelError(`${what}: ${(err as Error).name}`);
  }
}
