-- Partner integration keys (decisions 21, 22): pk_live_/pk_test_, one active per partner and mode, only
-- the SHA-256 kept; a new one revokes the old at once.
CREATE TABLE partner_api_keys (
  id bigserial PRIMARY KEY,
  partner_id bigint NOT NULL REFERENCES partners(id),
  mode text NOT NULL CHECK (mode IN ('live', 'test')),
  key_hash text NOT NULL UNIQUE,
  prefix text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE UNIQUE INDEX partner_api_keys_active_key ON partner_api_keys (partner_id, mode) WHERE revoked_at IS NULL;
