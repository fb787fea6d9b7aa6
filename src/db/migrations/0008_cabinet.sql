-- The cabinet remainder (decisions 17, 18, 23): organization requisites, team members and invites,
-- tickets, the channel outbox, partner impersonation sessions, disabled clients, the admin audit log.

CREATE TABLE organizations (
  client_id bigint PRIMARY KEY REFERENCES clients(id),
  legal_name text,
  org_type text CHECK (org_type IN ('ip', 'too', 'ao', 'other')),
  bin text,
  legal_address text,
  actual_address text,
  director_name text,
  phone text,
  email text,
  kbe text,
  vat_payer boolean,
  bank_iban text,
  bank_bik text,
  bank_name text,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A team member is a user of the client. An invited member has no password until it registers with the
-- invite's token (only its SHA-256 is kept); a revoked one stays listed, with disabled_at set.
ALTER TABLE users ADD COLUMN status text NOT NULL DEFAULT 'active' CHECK (status IN ('invited', 'active', 'revoked'));
ALTER TABLE users ADD COLUMN invite_token_hash text;
ALTER TABLE users ADD COLUMN invite_expires_at timestamptz;
ALTER TABLE users ADD COLUMN messenger_chat_id text;
CREATE UNIQUE INDEX users_invite_key ON users (invite_token_hash) WHERE invite_token_hash IS NOT NULL;
CREATE INDEX users_client_idx ON users (client_id, id);
CREATE INDEX users_messenger_idx ON users (messenger_chat_id) WHERE messenger_chat_id IS NOT NULL;

-- An operator's admin may disable a client: its keys and tokens stop at once.
ALTER TABLE clients ADD COLUMN disabled_at timestamptz;

CREATE TABLE tickets (
  id bigserial PRIMARY KEY,
  client_id bigint NOT NULL REFERENCES clients(id),
  subject text NOT NULL,
  category text NOT NULL CHECK (category IN ('payments', 'technical', 'billing', 'other')),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'answered', 'closed')),
  messages_count integer NOT NULL DEFAULT 0,
  last_message_at timestamptz NOT NULL,
  answered_at timestamptz,
  created_by bigint NOT NULL REFERENCES users(id),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tickets_client_idx ON tickets (client_id, created_at DESC, id DESC);
CREATE INDEX tickets_status_idx ON tickets (status, created_at DESC, id DESC);
CREATE INDEX tickets_answered_idx ON tickets (answered_at) WHERE status = 'answered';

CREATE TABLE ticket_messages (
  id bigserial PRIMARY KEY,
  ticket_id bigint NOT NULL REFERENCES tickets(id),
  author text NOT NULL CHECK (author IN ('client', 'support')),
  author_user_id bigint REFERENCES users(id),
  author_name text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ticket_messages_ticket_idx ON ticket_messages (ticket_id, created_at, id);

-- Every message of the three channels goes through here and a job (never inside a request's
-- transaction): pending -> sent, or failed after the last attempt or a permanent refusal.
CREATE TABLE outbox_messages (
  id bigserial PRIMARY KEY,
  channel text NOT NULL CHECK (channel IN ('email', 'messenger', 'sms')),
  recipient text NOT NULL,
  subject text,
  body text NOT NULL,
  client_id bigint,
  purpose text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_until timestamptz,
  driver text,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_due_idx ON outbox_messages (next_attempt_at) WHERE status = 'pending';
CREATE INDEX outbox_recent_idx ON outbox_messages (created_at DESC, id DESC);

-- A partner acting inside a client's account (decisions 12, 17, 21). Created by the partner cabinet;
-- the client sees them, and turning impersonation off ends the open ones.
CREATE TABLE impersonation_sessions (
  id bigserial PRIMARY KEY,
  sid text NOT NULL UNIQUE,
  client_id bigint NOT NULL REFERENCES clients(id),
  partner_id bigint NOT NULL,
  partner_name text NOT NULL,
  actor_email text NOT NULL,
  ip text,
  requests integer NOT NULL DEFAULT 0,
  started_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE INDEX impersonation_sessions_client_idx ON impersonation_sessions (client_id, started_at DESC, id DESC);

ALTER TABLE request_logs ADD COLUMN actor text;

CREATE TABLE admin_audit (
  id bigserial PRIMARY KEY,
  admin_user_id bigint NOT NULL,
  admin_email text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  status integer NOT NULL,
  request_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX admin_audit_recent_idx ON admin_audit (created_at DESC, id DESC);
