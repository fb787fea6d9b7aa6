// Binding a user's messenger chat (decisions 17, 18). The cabinet issues a one-time start token (15
// minutes, single use, one live token per user; only its SHA-256 is kept) inside a deep link; the bot's
// inbound update `/start <token>` binds the chat that sent it, `/stop` unbinds it. Replies go through
// the outbox like every other message.
import type { Deps, DbDeps } from '../../deps.ts';
import type { Queryable } from '../../db/db.ts';
import { randomToken, sha256Hex } from '../../crypto.ts';
import { enqueueMessage } from '../channels/outbox.ts';

export const LINK_MINUTES = 15;
const PURPOSE = 'messenger_link';

export async function issueMessengerLink(
  deps: Pick<Deps, 'config' | 'db'>,
  userId: number,
): Promise<{ url: string; expires_at: Date }> {
  // The start parameter of a deep link allows letters, digits, _ and -, at most 64 characters.
  const token = randomToken(24);
  return deps.db.tx(async (tx) => {
    // A new link replaces the user's earlier ones.
    await tx.query('UPDATE magic_tokens SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL', [
      userId,
      PURPOSE,
    ]);
    const r = await tx.query<{ expires_at: Date }>(
      `INSERT INTO magic_tokens (user_id, token_hash, purpose, expires_at)
        VALUES ($1, $2, $3, now() + make_interval(mins => ${LINK_MINUTES}))
       RETURNING expires_at`,
      [userId, sha256Hex(token), PURPOSE],
    );
    const { messengerLinkBase, messengerBotUsername } = deps.config.channels;
    return { url: `${messengerLinkBase}/${messengerBotUsername}?start=${token}`, expires_at: r.rows[0].expires_at };
  });
}

const reply = (tx: Queryable, chatId: string, body: string, clientId: number | null, purpose: string) =>
  enqueueMessage(tx, { channel: 'messenger', recipient: chatId, body, clientId, purpose });

/** An inbound bot update, already authenticated by its secret token. Unknown updates change nothing. */
export async function handleBotUpdate(
  deps: DbDeps,
  update: { chatId: string; text: string },
): Promise<'bound' | 'unbound' | 'refused' | 'ignored'> {
  const [command, arg] = update.text.trim().split(/\s+/, 2);
  // "/start@bot_name" is how group chats address a bot; the command is the part before "@".
  const name = command.split('@')[0];
  if (name === '/start' && arg) {
    return deps.db.tx(async (tx) => {
      const r = await tx.query<{ user_id: number; client_id: number; client_name: string; email: string }>(
        `UPDATE magic_tokens m SET used_at = now() FROM users u JOIN clients c ON c.id = u.client_id
          WHERE m.token_hash = $1 AND m.purpose = $2 AND m.used_at IS NULL AND m.expires_at > now()
            AND u.id = m.user_id AND u.status = 'active'
          RETURNING m.user_id, u.client_id, c.name AS client_name, u.email`,
        [sha256Hex(arg), PURPOSE],
      );
      const bound = r.rows[0];
      if (!bound) {
        await reply(
          tx,
          update.chatId,
          'This link is not valid or has expired. Open the cabinet and create a new one.',
          null,
          'messenger_refused',
        );
        return 'refused';
      }
      // When it was bound: turning partner impersonation off unbinds chats bound while a session was open.
      await tx.query('UPDATE users SET messenger_chat_id = $2, messenger_bound_at = now() WHERE id = $1', [
        bound.user_id,
        update.chatId,
      ]);
      await reply(
        tx,
        update.chatId,
        `Connected: notifications of ${bound.client_name} for ${bound.email} come here. Send /stop to disconnect.`,
        bound.client_id,
        'messenger_bound',
      );
      return 'bound';
    });
  }
  if (name === '/stop') {
    return deps.db.tx(async (tx) => {
      const r = await tx.query<{ client_id: number }>(
        'UPDATE users SET messenger_chat_id = NULL WHERE messenger_chat_id = $1 RETURNING client_id',
        [update.chatId],
      );
      if (!r.rows.length) return 'ignored';
      await reply(
        tx,
        update.chatId,
        'Disconnected: no more notifications here.',
        r.rows[0].client_id,
        'messenger_unbound',
      );
      return 'unbound';
    });
  }
  return 'ignored';
}

/**
 * The client turned partner impersonation off (decisions 17): the chats of its users bound while a
 * partner session was open are unbound. Such a chat may be the partner's (before POST /me/messenger-link
 * was blocked under impersonation, a partner could take a link for the user it acted as), and it would
 * go on receiving that user's notifications. A chat the user bound itself in that window is unbound too:
 * nothing tells the two apart, and binding again takes one link. Each unbound chat is told why.
 */
export async function unbindChatsBoundInSessions(tx: Queryable, clientId: number): Promise<number> {
  // The self-join reads each row's chat as it was before the update, for the notice.
  const r = await tx.query<{ chat_id: string }>(
    `UPDATE users u SET messenger_chat_id = NULL, messenger_bound_at = NULL
       FROM users was
      WHERE was.id = u.id AND u.client_id = $1 AND u.messenger_chat_id IS NOT NULL
        AND EXISTS (SELECT 1 FROM impersonation_sessions s
                     WHERE s.client_id = $1
                       AND u.messenger_bound_at BETWEEN s.started_at AND COALESCE(s.ended_at, s.expires_at))
      RETURNING was.messenger_chat_id AS chat_id`,
    [clientId],
  );
  for (const { chat_id } of r.rows) {
    await reply(
      tx,
      chat_id,
      'Disconnected: this chat was connected while a partner had access to the account, and that access is now off. ' +
        'If the chat is yours, connect it again from the cabinet.',
      clientId,
      'messenger_unbound',
    );
  }
  return r.rowCount;
}
