// SMS through a generic HTTP gateway (SMS_URL): POST {to, text} as JSON; any 2xx is accepted.
import { postJson } from './post-json.ts';
import { ChannelError, type ChannelDriver, type OutboundMessage } from './types.ts';

export function smsGatewayDriver(url: string): ChannelDriver {
  return {
    name: 'http_gateway',
    async send(m: OutboundMessage) {
      const { status } = await postJson(url, { to: m.recipient, text: m.body }, 'sms gateway');
      // A 4xx but 429 refuses this message (a bad number); 429 and 5xx may pass later.
      if (status < 200 || status >= 300)
        throw new ChannelError(`sms gateway: ${status}`, status >= 400 && status < 500 && status !== 429);
    },
  };
}
