-- Partner money, part one (decisions 12, 21): a commission per paid plan QR of a partner's client, and a
-- ledger of signed entries that explains every tenge of the balance row, both written in one transaction.
CREATE TABLE commissions (
  id bigserial PRIMARY KEY,
  partner_id bigint NOT NULL REFERENCES partners(id),
  client_id bigint NOT NULL REFERENCES clients(id),
  operation_id text NOT NULL UNIQUE,
  plan text NOT NULL,
  base_amount bigint NOT NULL,
  rate_bps integer NOT NULL,
  amount bigint NOT NULL CHECK (amount >= 0),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'available', 'reversed', 'paid_out')),
  available_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX commissions_partner_idx ON commissions (partner_id, created_at DESC, id DESC);
CREATE INDEX commissions_due_idx ON commissions (available_at) WHERE status = 'pending';

CREATE TABLE partner_balances (
  partner_id bigint PRIMARY KEY REFERENCES partners(id),
  available_kzt bigint NOT NULL DEFAULT 0,
  pending_kzt bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE partner_ledger (
  id bigserial PRIMARY KEY,
  partner_id bigint NOT NULL REFERENCES partners(id),
  type text NOT NULL CHECK (type IN ('commission', 'release', 'withdrawal_hold', 'withdrawal_release', 'withdrawal_paid', 'subscription', 'adjustment')),
  amount bigint NOT NULL,
  available_delta bigint NOT NULL,
  pending_delta bigint NOT NULL,
  available_after bigint NOT NULL,
  pending_after bigint NOT NULL,
  ref text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX partner_ledger_partner_idx ON partner_ledger (partner_id, created_at DESC, id DESC);
