// The messenger: the bot HTTP API's sendMessage (POST <MESSENGER_API_URL>/bot<token>/sendMessage with
// {chat_id, text}; the answer is {ok, description?, error_code?}).
import { postJson } from './post-json.ts';
import { ChannelError, type ChannelDriver, type OutboundMessage } from './types.ts';

export function botApiDriver(apiUrl: string, botToken: string): ChannelDriver {
  return {
    name: 'bot_api',
    async send(m: OutboundMessage) {
      const { status, json } = await postJson(
        `${apiUrl}/bot${botToken}/sendMessage`,
        { chat_id: m.recipient, text: m.body },
        'bot api',
      );
      const answer = json as { ok?: boolean; description?: string } | undefined;
      if (status >= 200 && status < 300 && answer?.ok) return;
      // 400 (chat not found) and 403 (the user blocked the bot) will not change by retrying; 429 and 5xx may.
      throw new ChannelError(
        `bot api: ${status} ${answer?.description ?? ''}`.trim(),
        status === 400 || status === 403,
      );
    },
  };
}
