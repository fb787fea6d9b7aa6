-- The merchant's catalog of goods and services (decisions 27), and the line items that payments, links and
-- refunds carry for the fiscal receipt. Items of a catalog are per client and mode, like payment links.
CREATE TABLE catalog_items (
  id text PRIMARY KEY,
  client_id bigint NOT NULL REFERENCES clients(id),
  mode text NOT NULL CHECK (mode IN ('live', 'test')),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 128),
  price bigint NOT NULL CHECK (price > 0),
  unit_code integer NOT NULL DEFAULT 796,
  ntin text,
  gtin text,
  -- null: the register's default rate
  vat_rate_bps integer CHECK (vat_rate_bps BETWEEN 0 AND 10000),
  section_code text,
  position_type text NOT NULL DEFAULT 'goods' CHECK (position_type IN ('goods', 'work', 'service')),
  archived boolean NOT NULL DEFAULT false,
  -- milliseconds, as every column a list pages through (0005)
  created_at timestamptz(3) NOT NULL DEFAULT date_trunc('milliseconds', now()),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Keyset pages per client and mode, newest first; a name search reads the tenant's rows through it too
-- (a catalog is hundreds of rows, not millions).
CREATE INDEX catalog_items_page_idx ON catalog_items (client_id, mode, created_at DESC, id DESC);

-- A link's line items, resolved when the link is made; each QR its checkout issues carries them.
ALTER TABLE payment_links ADD COLUMN items jsonb;
-- The lines a refund returns ([{index, name, price, quantity, ...}]), null for a refund by amount.
ALTER TABLE refunds ADD COLUMN items jsonb;
