-- Partner money, part two (decisions 21): bank details (sealed), withdrawals confirmed by a messenger
-- code, and which commissions a paid withdrawal paid out.
CREATE TABLE partner_bank (
  partner_id bigint PRIMARY KEY REFERENCES partners(id),
  details_sealed text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE withdrawals (
  id bigserial PRIMARY KEY,
  partner_id bigint NOT NULL REFERENCES partners(id),
  amount bigint NOT NULL CHECK (amount > 0),
  status text NOT NULL CHECK (status IN ('confirmation_required', 'processing', 'paid', 'rejected', 'cancelled')),
  requested_by bigint NOT NULL REFERENCES users(id),
  code_hash text,
  code_expires_at timestamptz,
  attempts_left integer NOT NULL DEFAULT 5,
  bank_sealed text NOT NULL,
  reference text,
  reason text,
  paid_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX withdrawals_partner_idx ON withdrawals (partner_id, created_at DESC, id DESC);
CREATE INDEX withdrawals_status_idx ON withdrawals (status, created_at DESC, id DESC);
-- At most one open withdrawal per partner: bank details stay frozen while it is.
CREATE UNIQUE INDEX withdrawals_open_key ON withdrawals (partner_id) WHERE status IN ('confirmation_required', 'processing');

ALTER TABLE commissions ADD COLUMN withdrawal_id bigint REFERENCES withdrawals(id);
