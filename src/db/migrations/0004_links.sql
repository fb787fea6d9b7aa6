-- Payment links, the hosted checkout's visitors and the QRs issued to them, and merchant branding.

CREATE TABLE payment_links (
  token text PRIMARY KEY,
  client_id bigint NOT NULL REFERENCES clients(id),
  mode text NOT NULL CHECK (mode IN ('live', 'test')),
  amount bigint NOT NULL CHECK (amount > 0),
  description text NOT NULL,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paid', 'expired', 'cancelled')),
  success_url text,
  cancel_url text,
  expires_at timestamptz NOT NULL,
  allow_repeat boolean NOT NULL DEFAULT false,
  email_required boolean NOT NULL DEFAULT false,
  metadata jsonb,
  paid_count integer NOT NULL DEFAULT 0,
  -- QRs issued before this instant are not reused for visitors (merchant's refresh-qr starts a new cycle)
  qr_cycle_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Keyset pages per client and mode, newest first, optionally by status.
CREATE INDEX payment_links_page_idx ON payment_links (client_id, mode, created_at DESC, token DESC);
CREATE INDEX payment_links_status_page_idx ON payment_links (client_id, mode, status, created_at DESC, token DESC);
-- The link-expiry sweeper reads only active links.
CREATE INDEX payment_links_due_idx ON payment_links (expires_at) WHERE status = 'active';

-- A checkout visitor is a browser (httpOnly cookie) on one link; it carries the payer's e-mail.
CREATE TABLE checkout_visitors (
  link_token text NOT NULL REFERENCES payment_links(token),
  visitor_id text NOT NULL,
  email text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (link_token, visitor_id)
);

-- Every QR operation issued for a link: to whom (visitor, null for the merchant's own refresh-qr) and
-- with which payer e-mail, so that a visitor's QR can be reused and the e-mail reaches payment_link.paid.
CREATE TABLE checkout_operations (
  operation_id text PRIMARY KEY REFERENCES operations(id),
  link_token text NOT NULL REFERENCES payment_links(token),
  visitor_id text,
  email text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX checkout_operations_visitor_idx ON checkout_operations (link_token, visitor_id, created_at DESC);

-- Payments of a link (status reads, the newest paid one).
CREATE INDEX operations_link_idx ON operations (link_token, created_at DESC) WHERE link_token IS NOT NULL;

-- Checkout branding: one row per client, every field optional.
CREATE TABLE branding (
  client_id bigint PRIMARY KEY REFERENCES clients(id),
  display_name text,
  logo_url text,
  brand_color text,
  support_email text,
  updated_at timestamptz NOT NULL DEFAULT now()
);
