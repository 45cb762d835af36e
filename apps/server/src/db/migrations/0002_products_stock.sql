-- Products, per-branch prices and stock, batches with expiry (FEFO), the append-only stock ledger, price
-- changes, stock adjustments and transfers (issue 3). Every table is tenant-scoped: pharmacy_id first in the
-- primary key, foreign keys carry pharmacy_id, row-level security forced.
--
-- Ledger invariant (DATA-MODEL 1), kept by src/modules/stock/ledger.ts and checked by ledger-property.test.ts:
-- for every branch and product, branch_products.quantity + reserved_quantity = sum over its batches of
-- quantity + reserved_quantity = sum of its stock_movements.delta. 'reserve' and 'release' movements move
-- pieces between quantity and reserved_quantity and carry delta 0.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE products (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  sku text CHECK (sku IS NULL OR length(sku) BETWEEN 1 AND 64),
  barcodes text[] NOT NULL DEFAULT '{}',
  category text,
  package_size integer NOT NULL DEFAULT 1 CHECK (package_size >= 1),
  package_type text NOT NULL DEFAULT 'pieces',
  unit text NOT NULL DEFAULT 'piece',
  is_dda boolean NOT NULL DEFAULT false,
  tax_applied boolean NOT NULL DEFAULT false,
  tax_rate_basis_points integer NOT NULL DEFAULT 1600 CHECK (tax_rate_basis_points BETWEEN 0 AND 10000),
  tax_category text,
  -- NULL = the settings default minimum margin (22 %).
  min_margin_basis_points integer CHECK (min_margin_basis_points IS NULL OR min_margin_basis_points BETWEEN 1 AND 9999),
  low_stock_threshold integer NOT NULL DEFAULT 5 CHECK (low_stock_threshold >= 0),
  reorder_level integer NOT NULL DEFAULT 2 CHECK (reorder_level >= 0),
  is_active boolean NOT NULL DEFAULT true,
  -- Not empty: the product is offered only in these branches.
  restricted_branch_ids uuid[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid REFERENCES users (id),
  updated_by uuid REFERENCES users (id),
  last_price_update_at timestamptz,
  last_price_update_reason text,
  last_price_update_by uuid REFERENCES users (id),
  PRIMARY KEY (pharmacy_id, id)
);
CREATE UNIQUE INDEX products_sku ON products (pharmacy_id, lower(sku)) WHERE sku IS NOT NULL;
CREATE INDEX products_name_trgm ON products USING gin (lower(name) gin_trgm_ops);
-- The product search text: name, SKU and barcodes, lower-cased, kept in a stored column. One trigram index
-- serves a search word against all three (an OR over three indexes misleads the planner into scanning every
-- product, and a function evaluated per row on recheck is slow).
CREATE FUNCTION product_search_text(name text, sku text, barcodes text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT lower(name || ' ' || COALESCE(sku, '') || ' ' || array_to_string(barcodes, ' ')) $$;
ALTER TABLE products ADD COLUMN search_text text GENERATED ALWAYS AS (product_search_text(name, sku, barcodes)) STORED;
CREATE INDEX products_search_trgm ON products USING gin (search_text gin_trgm_ops);
CREATE INDEX products_barcodes ON products USING gin (barcodes);
CREATE INDEX products_name ON products (pharmacy_id, name, id);
CREATE INDEX products_category ON products (pharmacy_id, lower(category));

CREATE TABLE branch_products (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  branch_id uuid NOT NULL,
  product_id uuid NOT NULL,
  selling_price_cents bigint NOT NULL DEFAULT 0 CHECK (selling_price_cents >= 0),
  purchase_price_cents bigint NOT NULL DEFAULT 0 CHECK (purchase_price_cents >= 0),
  -- NULL = the product's minimum margin.
  min_margin_basis_points integer CHECK (min_margin_basis_points IS NULL OR min_margin_basis_points BETWEEN 1 AND 9999),
  is_available boolean NOT NULL DEFAULT true,
  -- Sellable pieces; reserved pieces have left it.
  quantity integer NOT NULL DEFAULT 0,
  reserved_quantity integer NOT NULL DEFAULT 0,
  -- NULL = the product's threshold.
  low_stock_threshold integer CHECK (low_stock_threshold IS NULL OR low_stock_threshold >= 0),
  last_stock_update_at timestamptz,
  last_stock_update_reason text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pharmacy_id, branch_id, product_id),
  FOREIGN KEY (pharmacy_id, branch_id) REFERENCES branches (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, product_id) REFERENCES products (pharmacy_id, id),
  CHECK (quantity >= 0 AND reserved_quantity >= 0)
);
CREATE INDEX branch_products_product ON branch_products (pharmacy_id, product_id);

CREATE TABLE batches (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  branch_id uuid NOT NULL,
  product_id uuid NOT NULL,
  batch_number text,
  expiry_date date,
  quantity integer NOT NULL DEFAULT 0,
  reserved_quantity integer NOT NULL DEFAULT 0,
  unit_cost_cents bigint NOT NULL DEFAULT 0 CHECK (unit_cost_cents >= 0),
  received_at timestamptz NOT NULL DEFAULT now(),
  source text NOT NULL CHECK (source IN ('opening', 'purchase', 'transfer', 'adjustment', 'import', 'return')),
  PRIMARY KEY (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, branch_id, product_id) REFERENCES branch_products (pharmacy_id, branch_id, product_id),
  CHECK (quantity >= 0 AND reserved_quantity >= 0)
);
CREATE INDEX batches_stock ON batches (pharmacy_id, branch_id, product_id, expiry_date);
CREATE INDEX batches_expiry ON batches (pharmacy_id, expiry_date) WHERE quantity > 0;

CREATE TABLE stock_movements (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  branch_id uuid NOT NULL,
  product_id uuid NOT NULL,
  batch_id uuid,
  kind text NOT NULL CHECK (kind IN ('sale', 'sale_return', 'purchase_receipt', 'purchase_edit', 'purchase_delete',
    'purchase_return', 'adjustment', 'transfer_out', 'transfer_in', 'reserve', 'release', 'reserved_sold', 'import', 'opening')),
  -- Change of the on-hand total (quantity + reserved); 0 for reserve and release.
  delta integer NOT NULL,
  -- The branch's on-hand total after this movement.
  quantity_after integer NOT NULL CHECK (quantity_after >= 0),
  reason text,
  reference_type text,
  reference_id text,
  user_id uuid REFERENCES users (id),
  at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, branch_id, product_id) REFERENCES branch_products (pharmacy_id, branch_id, product_id),
  FOREIGN KEY (pharmacy_id, batch_id) REFERENCES batches (pharmacy_id, id),
  CHECK (kind NOT IN ('reserve', 'release') OR delta = 0)
);
CREATE INDEX stock_movements_product ON stock_movements (pharmacy_id, product_id, at);
CREATE INDEX stock_movements_reference ON stock_movements (pharmacy_id, reference_type, reference_id);

CREATE TABLE price_changes (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  branch_id uuid NOT NULL,
  product_id uuid NOT NULL,
  old_selling_price_cents bigint,
  new_selling_price_cents bigint CHECK (new_selling_price_cents IS NULL OR new_selling_price_cents >= 0),
  old_purchase_price_cents bigint,
  new_purchase_price_cents bigint CHECK (new_purchase_price_cents IS NULL OR new_purchase_price_cents >= 0),
  reason text,
  user_id uuid REFERENCES users (id),
  at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, branch_id) REFERENCES branches (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, product_id) REFERENCES products (pharmacy_id, id)
);
CREATE INDEX price_changes_product ON price_changes (pharmacy_id, product_id, at);

CREATE TABLE stock_adjustments (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  branch_id uuid NOT NULL,
  reason text NOT NULL,
  user_id uuid REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, branch_id) REFERENCES branches (pharmacy_id, id)
);
CREATE INDEX stock_adjustments_at ON stock_adjustments (pharmacy_id, created_at DESC);

CREATE TABLE stock_adjustment_items (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  adjustment_id uuid NOT NULL,
  position integer NOT NULL,
  product_id uuid NOT NULL,
  batch_id uuid,
  delta integer NOT NULL CHECK (delta <> 0),
  reason_type text NOT NULL CHECK (reason_type IN ('count_correction', 'damage', 'expiry_write_off', 'other')),
  note text,
  PRIMARY KEY (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, adjustment_id) REFERENCES stock_adjustments (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, product_id) REFERENCES products (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, batch_id) REFERENCES batches (pharmacy_id, id)
);
CREATE INDEX stock_adjustment_items_adjustment ON stock_adjustment_items (pharmacy_id, adjustment_id, position);

CREATE TABLE stock_transfers (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  from_branch_id uuid NOT NULL,
  to_branch_id uuid NOT NULL,
  status text NOT NULL DEFAULT 'requested'
    CHECK (status IN ('requested', 'approved', 'dispatched', 'partially_received', 'received', 'cancelled')),
  note text,
  requested_by uuid REFERENCES users (id),
  requested_at timestamptz NOT NULL DEFAULT now(),
  approved_by uuid REFERENCES users (id),
  approved_at timestamptz,
  dispatched_by uuid REFERENCES users (id),
  dispatched_at timestamptz,
  received_by uuid REFERENCES users (id),
  received_at timestamptz,
  cancelled_by uuid REFERENCES users (id),
  cancelled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, from_branch_id) REFERENCES branches (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, to_branch_id) REFERENCES branches (pharmacy_id, id),
  CHECK (from_branch_id <> to_branch_id)
);
CREATE INDEX stock_transfers_at ON stock_transfers (pharmacy_id, created_at DESC);

CREATE TABLE stock_transfer_items (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  transfer_id uuid NOT NULL,
  position integer NOT NULL,
  product_id uuid NOT NULL,
  -- The source batch: asked for at request, or taken at dispatch (one line per batch taken).
  batch_id uuid,
  batch_number text,
  expiry_date date,
  unit_cost_cents bigint CHECK (unit_cost_cents IS NULL OR unit_cost_cents >= 0),
  quantity_requested integer NOT NULL CHECK (quantity_requested > 0),
  quantity_dispatched integer NOT NULL DEFAULT 0 CHECK (quantity_dispatched >= 0),
  quantity_received integer NOT NULL DEFAULT 0 CHECK (quantity_received >= 0),
  quantity_returned integer NOT NULL DEFAULT 0 CHECK (quantity_returned >= 0),
  PRIMARY KEY (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, transfer_id) REFERENCES stock_transfers (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, product_id) REFERENCES products (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, batch_id) REFERENCES batches (pharmacy_id, id),
  CHECK (quantity_received + quantity_returned <= quantity_dispatched)
);
CREATE INDEX stock_transfer_items_transfer ON stock_transfer_items (pharmacy_id, transfer_id, position);

-- ---------------------------------------------------------------- row-level security
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['products', 'branch_products', 'batches', 'stock_movements', 'price_changes', 'stock_adjustments',
                           'stock_adjustment_items', 'stock_transfers', 'stock_transfer_items'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id())', t);
  END LOOP;
END $$;

GRANT SELECT, INSERT, UPDATE, DELETE ON products, branch_products, batches, price_changes, stock_adjustments,
  stock_adjustment_items, stock_transfers, stock_transfer_items TO pharmapoint_app;
-- The ledger and the price history are append-only for the application.
GRANT SELECT, INSERT ON stock_movements TO pharmapoint_app;
REVOKE UPDATE, DELETE ON stock_movements, price_changes FROM pharmapoint_app;
