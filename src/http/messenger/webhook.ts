// Inbound bot updates (decisions 18). The bot platform sends the secret configured with its webhook in a
// header whose name its protocol fixes; it is compared with MESSENGER_WEBHOOK_SECRET in constant time
// (unset: every update is refused). Unknown updates answer 200 and change nothing, so the platform does
// not retry them.
import { Type } from 'typebox';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { safeEqual } from '../../crypto.ts';
import { handleBotUpdate } from '../../domain/accounts/messenger.ts';
import { route, type App } from '../route.ts';

/** The header name of the bot HTTP API's webhook protocol (setWebhook's secret_token). */
export const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

const Update = Type.Object(
  {
    update_id: Type.Optional(Type.Integer()),
    message: Type.Optional(
      Type.Object({
        text: Type.Optional(Type.String({ maxLength: 4096 })),
        chat: Type.Optional(Type.Object({ id: Type.Union([Type.Integer(), Type.String({ maxLength: 64 })]) })),
      }),
    ),
  },
  { additionalProperties: true, title: 'MessengerUpdate' },
);

export function messengerWebhookRoutes(app: App, deps: Deps): void {
  route(app, {
    method: 'POST',
    url: '/messenger/webhook',
    auth: [],
    errors: [401],
    schema: {
      tags: ['messenger'],
      summary: 'Inbound bot updates: /start <token> binds the chat, /stop unbinds it',
      description:
        `Authenticated by the \`${SECRET_HEADER}\` header, ` + 'equal to MESSENGER_WEBHOOK_SECRET; otherwise 401.',
      headers: Type.Object({ [SECRET_HEADER]: Type.Optional(Type.String({ maxLength: 256 })) }),
      body: Update,
      response: {
        200: Type.Object({
          ok: Type.Boolean(),
          result: Type.String({ enum: ['bound', 'unbound', 'refused', 'ignored'] }),
        }),
      },
    },
    handler: async (req) => {
      const expected = deps.config.channels.messengerWebhookSecret;
      const sent = req.headers[SECRET_HEADER];
      if (!expected || typeof sent !== 'string' || !safeEqual(sent, expected)) {
        throw new AppError('invalid_token', `the ${SECRET_HEADER} header is missing or wrong`);
      }
      const chat = req.body.message?.chat?.id;
      const text = req.body.message?.text;
      if (chat === undefined || text === undefined) return { ok: true, result: 'ignored' };
      return { ok: true, result: await handleBotUpdate(deps, { chatId: String(chat), text }) };
    },
  });
}
