-- Foundation: settings, clients (merchants), users, credentials, request log.

CREATE TABLE settings (
  key text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE clients (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  plan text NOT NULL DEFAULT 'trial' CHECK (plan IN ('trial', 'starter', 'professional', 'enterprise')),
  trial_ends_at timestamptz NOT NULL,
  plan_expires_at timestamptz,
  terms_accepted_at timestamptz,
  allow_partner_impersonation boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id bigserial PRIMARY KEY,
  client_id bigint NOT NULL REFERENCES clients(id),
  email text NOT NULL,
  name text NOT NULL,
  password_hash text,
  oidc_issuer text,
  oidc_subject text,
  role text NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'admin', 'accountant', 'support', 'viewer')),
  is_admin boolean NOT NULL DEFAULT false,
  disabled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE UNIQUE INDEX users_oidc_key ON users (oidc_issuer, oidc_subject) WHERE oidc_issuer IS NOT NULL;

-- One active key per client and mode; revoked keys stay for audit. Only the SHA-256 of a key is kept.
CREATE TABLE api_keys (
  id bigserial PRIMARY KEY,
  client_id bigint NOT NULL REFERENCES clients(id),
  mode text NOT NULL CHECK (mode IN ('live', 'test')),
  key_hash text NOT NULL,
  prefix text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE UNIQUE INDEX api_keys_hash_key ON api_keys (key_hash);
CREATE UNIQUE INDEX api_keys_active_key ON api_keys (client_id, mode) WHERE revoked_at IS NULL;

CREATE TABLE refresh_tokens (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id),
  family_id text NOT NULL,
  token_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX refresh_tokens_hash_key ON refresh_tokens (token_hash);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);

CREATE TABLE magic_tokens (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id),
  token_hash text NOT NULL,
  purpose text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX magic_tokens_hash_key ON magic_tokens (token_hash);

CREATE TABLE request_logs (
  id bigserial PRIMARY KEY,
  client_id bigint NOT NULL,
  request_id text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  status integer NOT NULL,
  duration_ms integer NOT NULL,
  api_key_prefix text,
  created_at timestamptz NOT NULL
);
CREATE INDEX request_logs_client_idx ON request_logs (client_id, created_at DESC, id DESC);
