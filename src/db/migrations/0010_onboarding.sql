-- Onboarding (decisions 19): one state machine per client and mode. The sandbox mechanism keeps a code
-- (its SHA-256), its expiry, the attempts left, a lock, the resends; the official-API mechanism keeps the
-- sealed credentials and the trade points between start and verify.
CREATE TABLE onboarding (
  client_id bigint NOT NULL REFERENCES clients(id),
  mode text NOT NULL CHECK (mode IN ('live', 'test')),
  state text NOT NULL CHECK (state IN ('idle', 'code_sent', 'trade_point_required', 'connected', 'expired', 'locked', 'failed')),
  mechanism text NOT NULL CHECK (mechanism IN ('sandbox', 'qrapi')),
  phone text,
  display_name text,
  org_bin text,
  code_hash text,
  expires_at timestamptz,
  attempts_left integer,
  locked_until timestamptz,
  resends integer NOT NULL DEFAULT 0,
  last_sent_at timestamptz,
  credentials_sealed text,
  trade_points jsonb,
  account_id bigint,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, mode)
);

-- The last health check of an account (decisions 19), shown on it.
ALTER TABLE provider_accounts ADD COLUMN last_health jsonb;
