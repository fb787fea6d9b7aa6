-- Impersonation ends with the authority behind it (issue 38).

-- When the user's current messenger chat was bound (meaningful while messenger_chat_id is set): turning
-- partner impersonation off unbinds the chats bound while a partner session was open.
ALTER TABLE users ADD COLUMN messenger_bound_at timestamptz;

-- Chats bound before this column: the time /start spent the user's latest messenger-link token. A link
-- replaced by a newer one is marked spent in the transaction that creates the newer one (its used_at is
-- the newer one's created_at), so those are not bindings and are skipped.
UPDATE users u SET messenger_bound_at = (
  SELECT max(m.used_at) FROM magic_tokens m
   WHERE m.user_id = u.id AND m.purpose = 'messenger_link' AND m.used_at IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM magic_tokens n
                      WHERE n.user_id = m.user_id AND n.purpose = m.purpose AND n.id <> m.id AND n.created_at = m.used_at))
 WHERE u.messenger_chat_id IS NOT NULL;

-- A partner suspended or rejected ends its open sessions; a member revoked ends the ones it opened.
CREATE INDEX impersonation_sessions_partner_idx ON impersonation_sessions (partner_id, expires_at);
