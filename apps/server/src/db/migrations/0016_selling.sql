-- Selling (issue 9, decision 0023): contacts (customers and suppliers), the per-tenant invoice counter, completed
-- sales with their lines, the batches each line took (FEFO; for returns and the DDA register) and their payments
-- (a split tender is several rows). Tenant tables: pharmacy_id first in the primary key, foreign keys carry
-- pharmacy_id, row-level security forced. A sale and everything under it is written once, in one transaction with
-- its stock movements (modules/sales); the application role may only read and append them. It may UPDATE
-- contacts (edited) and invoice_counters (taken in the sale's transaction).

CREATE TABLE contacts (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  type text NOT NULL CHECK (type IN ('customer', 'supplier')),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  -- Normalised: digits only, a 10-digit 0... number as 254... (seed 001 section 5).
  phone text CHECK (phone IS NULL OR phone ~ '^[0-9]{1,30}$'),
  email text CHECK (email IS NULL OR length(email) <= 254),
  location text CHECK (location IS NULL OR length(location) <= 120),
  address text CHECK (address IS NULL OR length(address) <= 300),
  notes text CHECK (notes IS NULL OR length(notes) <= 500),
  credit_period_days integer CHECK (credit_period_days IS NULL OR credit_period_days BETWEEN 0 AND 365),
  branch_id uuid,
  is_active boolean NOT NULL DEFAULT true,
  created_by uuid REFERENCES users (id),
  updated_by uuid REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, branch_id) REFERENCES branches (pharmacy_id, id)
);
CREATE INDEX contacts_name ON contacts (pharmacy_id, type, lower(name), id);
CREATE INDEX contacts_phone ON contacts (pharmacy_id, phone);
CREATE INDEX contacts_name_trgm ON contacts USING gin (lower(name) gin_trgm_ops);

-- One row per tenant and scope ('INV'): the next number to give. Locked and moved on in the sale's transaction, so
-- numbers are unique and without gaps (a rolled-back sale gives its number back with it).
CREATE TABLE invoice_counters (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  scope text NOT NULL CHECK (scope ~ '^[A-Z]{1,10}$'),
  next_value bigint NOT NULL CHECK (next_value >= 1),
  PRIMARY KEY (pharmacy_id, scope)
);

CREATE TABLE sales (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  -- The UUID the browser made for the sale (its Idempotency-Key): an offline sale keeps its id.
  id uuid NOT NULL,
  invoice_number text NOT NULL CHECK (invoice_number ~ '^INV-[0-9]{6,}$'),
  branch_id uuid NOT NULL,
  client_id uuid,
  -- The client as it was at the sale (the receipt shows it even if the contact changes); 'Walk-in Customer' without id.
  client_name text NOT NULL,
  client_phone text,
  client_location text,
  cashier_id uuid REFERENCES users (id),
  cashier_name text NOT NULL,
  sale_date date NOT NULL,
  is_backdated boolean NOT NULL DEFAULT false,
  backdated_by uuid REFERENCES users (id),
  subtotal_cents bigint NOT NULL CHECK (subtotal_cents >= 0),
  discount_type text CHECK (discount_type IN ('percent', 'fixed')),
  -- Basis points for a percentage, cents for a fixed amount.
  discount_value bigint CHECK (discount_value >= 0),
  discount_cents bigint NOT NULL DEFAULT 0 CHECK (discount_cents >= 0 AND discount_cents <= subtotal_cents),
  tax_cents bigint NOT NULL DEFAULT 0 CHECK (tax_cents >= 0),
  -- What rounding the total to the currency added (KES: whole shillings).
  rounding_cents bigint NOT NULL DEFAULT 0,
  total_cents bigint NOT NULL CHECK (total_cents >= 0),
  amount_paid_cents bigint NOT NULL CHECK (amount_paid_cents >= 0),
  change_cents bigint NOT NULL DEFAULT 0 CHECK (change_cents >= 0),
  -- A credit sale's balance owed by the client (total - paid).
  balance_due_cents bigint NOT NULL DEFAULT 0 CHECK (balance_due_cents >= 0),
  payment_method text NOT NULL,
  status text NOT NULL DEFAULT 'completed' CHECK (status IN ('completed', 'partially_returned', 'returned', 'voided')),
  from_reserved_stock boolean NOT NULL DEFAULT false,
  reservation_id text,
  notes text CHECK (notes IS NULL OR length(notes) <= 500),
  -- When the till made the sale (an offline till sends it later).
  client_time timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pharmacy_id, id),
  UNIQUE (pharmacy_id, invoice_number),
  FOREIGN KEY (pharmacy_id, branch_id) REFERENCES branches (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, client_id) REFERENCES contacts (pharmacy_id, id),
  CHECK (NOT is_backdated OR backdated_by IS NOT NULL),
  CHECK (balance_due_cents = 0 OR client_id IS NOT NULL)
);
CREATE INDEX sales_created ON sales (pharmacy_id, created_at DESC, id);
CREATE INDEX sales_date ON sales (pharmacy_id, sale_date, branch_id);
CREATE INDEX sales_client ON sales (pharmacy_id, client_id, created_at DESC) WHERE client_id IS NOT NULL;
CREATE INDEX sales_cashier ON sales (pharmacy_id, cashier_id, created_at DESC);

CREATE TABLE sale_items (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  sale_id uuid NOT NULL,
  line integer NOT NULL CHECK (line >= 1),
  product_id uuid NOT NULL,
  name text NOT NULL,
  sku text,
  -- Pieces (a W line holds whole packages' worth).
  quantity integer NOT NULL CHECK (quantity >= 1),
  unit_mode text NOT NULL CHECK (unit_mode IN ('P', 'W')),
  package_size integer NOT NULL CHECK (package_size >= 1),
  -- Per unit of the mode (one package in W); the list price is the branch's at the sale.
  unit_price_cents bigint NOT NULL CHECK (unit_price_cents >= 0),
  list_price_cents bigint NOT NULL CHECK (list_price_cents >= 0),
  -- Per piece, the branch's purchase price at the sale.
  cost_cents bigint NOT NULL CHECK (cost_cents >= 0),
  gross_cents bigint NOT NULL CHECK (gross_cents >= 0),
  discount_cents bigint NOT NULL DEFAULT 0 CHECK (discount_cents >= 0 AND discount_cents <= gross_cents),
  tax_rate_basis_points integer NOT NULL DEFAULT 0 CHECK (tax_rate_basis_points BETWEEN 0 AND 10000),
  tax_cents bigint NOT NULL DEFAULT 0 CHECK (tax_cents >= 0),
  total_cents bigint NOT NULL CHECK (total_cents >= 0),
  low_margin boolean NOT NULL DEFAULT false,
  is_dda boolean NOT NULL DEFAULT false,
  -- DDA: doctorName, hospitalName, prescriptionNumber, prescriptionDate, patientId, doctorLicense, notes.
  prescription jsonb,
  needs_refill boolean NOT NULL DEFAULT false,
  refill_days integer CHECK (refill_days IS NULL OR refill_days BETWEEN 1 AND 365),
  refill_due_date date,
  refill_completed_at timestamptz,
  PRIMARY KEY (pharmacy_id, sale_id, line),
  FOREIGN KEY (pharmacy_id, sale_id) REFERENCES sales (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, product_id) REFERENCES products (pharmacy_id, id),
  CHECK (NOT needs_refill OR (refill_days IS NOT NULL AND refill_due_date IS NOT NULL))
);
CREATE INDEX sale_items_product ON sale_items (pharmacy_id, product_id);
CREATE INDEX sale_items_refill ON sale_items (pharmacy_id, refill_due_date) WHERE needs_refill AND refill_completed_at IS NULL;
CREATE INDEX sale_items_dda ON sale_items (pharmacy_id, product_id, sale_id) WHERE is_dda;

-- The batches a line took, earliest expiry first.
CREATE TABLE sale_item_batches (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  sale_id uuid NOT NULL,
  line integer NOT NULL,
  batch_id uuid NOT NULL,
  batch_number text,
  expiry_date date,
  quantity integer NOT NULL CHECK (quantity >= 1),
  unit_cost_cents bigint NOT NULL CHECK (unit_cost_cents >= 0),
  PRIMARY KEY (pharmacy_id, sale_id, line, batch_id),
  FOREIGN KEY (pharmacy_id, sale_id, line) REFERENCES sale_items (pharmacy_id, sale_id, line),
  FOREIGN KEY (pharmacy_id, batch_id) REFERENCES batches (pharmacy_id, id)
);
CREATE INDEX sale_item_batches_batch ON sale_item_batches (pharmacy_id, batch_id);

CREATE TABLE sale_payments (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  sale_id uuid NOT NULL,
  position integer NOT NULL CHECK (position >= 1),
  method text NOT NULL CHECK (length(method) BETWEEN 1 AND 40),
  amount_cents bigint NOT NULL CHECK (amount_cents >= 0),
  -- The M-Pesa confirmation code or card slip number.
  reference text CHECK (reference IS NULL OR length(reference) <= 60),
  at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pharmacy_id, sale_id, position),
  FOREIGN KEY (pharmacy_id, sale_id) REFERENCES sales (pharmacy_id, id)
);
CREATE INDEX sale_payments_method ON sale_payments (pharmacy_id, method);

ALTER TABLE contacts ENABLE ROW LEVEL SECURITY;
ALTER TABLE contacts FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON contacts
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
ALTER TABLE invoice_counters ENABLE ROW LEVEL SECURITY;
ALTER TABLE invoice_counters FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON invoice_counters
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
ALTER TABLE sales ENABLE ROW LEVEL SECURITY;
ALTER TABLE sales FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON sales
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
ALTER TABLE sale_items ENABLE ROW LEVEL SECURITY;
ALTER TABLE sale_items FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON sale_items
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
ALTER TABLE sale_item_batches ENABLE ROW LEVEL SECURITY;
ALTER TABLE sale_item_batches FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON sale_item_batches
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
ALTER TABLE sale_payments ENABLE ROW LEVEL SECURITY;
ALTER TABLE sale_payments FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON sale_payments
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());

GRANT SELECT, INSERT ON contacts, invoice_counters, sales, sale_items, sale_item_batches, sale_payments TO pharmapoint_app;
GRANT UPDATE ON contacts, invoice_counters TO pharmapoint_app;
