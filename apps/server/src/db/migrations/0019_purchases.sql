-- Purchases from suppliers, receiving into batches, and purchase returns (issue 10 items 1-3, seed 002 sections
-- 3-5, 8 and 9; decisions 0034-0036). Money in integer cents, quantities in integer pieces, rates and margins in
-- basis points. Tenant tables like the others: pharmacy_id first in the primary key, foreign keys carry pharmacy_id,
-- row-level security forced.
--
-- A purchase's stock goes through the ledger (kinds purchase_receipt, purchase_edit, purchase_delete,
-- purchase_return) in the same transaction as these rows. The request role deletes from no business table
-- (decision 0014): deleting a purchase sets deleted_at (its stock is taken out in the same transaction) and a
-- deleted purchase is gone from every list, total and balance. READERS OF purchases (supplier payments, the
-- supplier report) MUST filter `deleted_at IS NULL`. A line removed by an edit likewise gets removed_at.
--
-- Supplier balance = sum(purchases.total_cents where deleted_at IS NULL)
--                  - sum(purchase_returns.total_cents) - payments.

CREATE TABLE purchases (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  -- 'PO-' + a timestamp (milliseconds) for new ones (seed 002 section 3).
  purchase_number text NOT NULL CHECK (length(purchase_number) BETWEEN 1 AND 40),
  -- A contact of type supplier.
  supplier_id uuid NOT NULL,
  branch_id uuid NOT NULL,
  -- The date on the supplier's invoice (the pharmacy's business day).
  purchase_date date NOT NULL,
  reference text CHECK (reference IS NULL OR length(reference) <= 100),
  notes text CHECK (notes IS NULL OR length(notes) <= 1000),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'ordered', 'received', 'cancelled')),
  subtotal_cents bigint NOT NULL CHECK (subtotal_cents >= 0),
  tax_cents bigint NOT NULL CHECK (tax_cents >= 0),
  total_cents bigint NOT NULL CHECK (total_cents >= 0),
  created_by uuid REFERENCES users (id),
  updated_by uuid REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  deleted_by uuid REFERENCES users (id),
  PRIMARY KEY (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, supplier_id) REFERENCES contacts (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, branch_id) REFERENCES branches (pharmacy_id, id),
  CHECK (total_cents = subtotal_cents + tax_cents)
);
CREATE INDEX purchases_created ON purchases (pharmacy_id, created_at DESC, id) WHERE deleted_at IS NULL;
CREATE INDEX purchases_date ON purchases (pharmacy_id, purchase_date DESC, id) WHERE deleted_at IS NULL;
CREATE INDEX purchases_supplier ON purchases (pharmacy_id, supplier_id, purchase_date) WHERE deleted_at IS NULL;
CREATE INDEX purchases_branch ON purchases (pharmacy_id, branch_id, created_at DESC) WHERE deleted_at IS NULL;
CREATE INDEX purchases_number ON purchases (pharmacy_id, purchase_number);

CREATE TABLE purchase_items (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  purchase_id uuid NOT NULL,
  position integer NOT NULL CHECK (position >= 0),
  -- NULL only for a line whose product no longer exists (such lines are skipped by stock changes).
  product_id uuid,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  sku text,
  category text,
  quantity integer NOT NULL CHECK (quantity > 0),
  -- Pieces put into stock so far (partial receiving); all of them once the purchase is received.
  received_quantity integer NOT NULL DEFAULT 0 CHECK (received_quantity >= 0),
  -- Pieces sent back to the supplier (purchase returns), never more than received.
  returned_quantity integer NOT NULL DEFAULT 0 CHECK (returned_quantity >= 0),
  purchase_price_cents bigint NOT NULL CHECK (purchase_price_cents >= 0),
  selling_price_cents bigint NOT NULL CHECK (selling_price_cents >= 0),
  max_discount_basis_points integer CHECK (max_discount_basis_points IS NULL OR max_discount_basis_points BETWEEN 0 AND 10000),
  min_margin_basis_points integer NOT NULL CHECK (min_margin_basis_points BETWEEN 1 AND 9999),
  expiry_date date,
  batch_number text CHECK (batch_number IS NULL OR length(batch_number) <= 64),
  tax_applied boolean NOT NULL DEFAULT false,
  tax_rate_basis_points integer NOT NULL CHECK (tax_rate_basis_points BETWEEN 0 AND 10000),
  subtotal_cents bigint NOT NULL CHECK (subtotal_cents >= 0),
  tax_cents bigint NOT NULL CHECK (tax_cents >= 0),
  total_cents bigint NOT NULL CHECK (total_cents >= 0),
  -- The batch the received pieces went into.
  batch_id uuid,
  removed_at timestamptz,
  PRIMARY KEY (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, purchase_id) REFERENCES purchases (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, product_id) REFERENCES products (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, batch_id) REFERENCES batches (pharmacy_id, id),
  CHECK (received_quantity <= quantity),
  CHECK (returned_quantity <= received_quantity),
  CHECK (total_cents = subtotal_cents + tax_cents)
);
CREATE INDEX purchase_items_purchase ON purchase_items (pharmacy_id, purchase_id, position) WHERE removed_at IS NULL;
CREATE INDEX purchase_items_product ON purchase_items (pharmacy_id, product_id) WHERE removed_at IS NULL;
CREATE INDEX purchase_items_name_trgm ON purchase_items USING gin (lower(name) gin_trgm_ops);

-- Purchase returns: received pieces sent back to the supplier, batch by batch, with a reason. Append-only.
CREATE TABLE purchase_returns (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  -- 'PR-' + a timestamp (milliseconds).
  return_number text NOT NULL CHECK (length(return_number) BETWEEN 1 AND 40),
  purchase_id uuid NOT NULL,
  supplier_id uuid NOT NULL,
  branch_id uuid NOT NULL,
  return_date date NOT NULL,
  reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  -- What the supplier owes back: lowers the supplier's balance.
  total_cents bigint NOT NULL CHECK (total_cents >= 0),
  created_by uuid REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, purchase_id) REFERENCES purchases (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, supplier_id) REFERENCES contacts (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, branch_id) REFERENCES branches (pharmacy_id, id)
);
CREATE INDEX purchase_returns_created ON purchase_returns (pharmacy_id, created_at DESC, id);
CREATE INDEX purchase_returns_supplier ON purchase_returns (pharmacy_id, supplier_id, return_date);
CREATE INDEX purchase_returns_purchase ON purchase_returns (pharmacy_id, purchase_id);

CREATE TABLE purchase_return_items (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  return_id uuid NOT NULL,
  purchase_item_id uuid NOT NULL,
  product_id uuid NOT NULL,
  batch_id uuid,
  name text NOT NULL,
  quantity integer NOT NULL CHECK (quantity > 0),
  unit_cost_cents bigint NOT NULL CHECK (unit_cost_cents >= 0),
  total_cents bigint NOT NULL CHECK (total_cents >= 0),
  PRIMARY KEY (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, return_id) REFERENCES purchase_returns (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, purchase_item_id) REFERENCES purchase_items (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, product_id) REFERENCES products (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, batch_id) REFERENCES batches (pharmacy_id, id)
);
CREATE INDEX purchase_return_items_return ON purchase_return_items (pharmacy_id, return_id);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['purchases', 'purchase_items', 'purchase_returns', 'purchase_return_items'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id())', t);
  END LOOP;
END $$;

-- UPDATE: edits, receiving, the row lock (SELECT ... FOR UPDATE), soft deletion, returned quantities.
GRANT SELECT, INSERT, UPDATE ON purchases, purchase_items TO pharmapoint_app;
GRANT SELECT, INSERT ON purchase_returns, purchase_return_items TO pharmapoint_app;
