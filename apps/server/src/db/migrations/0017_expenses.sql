-- Expenses (issue 9 item 11, seed 001 sections 3-5 and 9, decision 0027): what a branch spent, recorded at the till
-- (source POS, approved at once) or, with the back office, by hand. Money in integer cents; the transport costs of a
-- transport or travel expense are kept apart and total_cents is the amount plus them. A tenant table like the others:
-- pharmacy_id first in the primary key, foreign keys carry pharmacy_id, row-level security forced. The application
-- role may read, add and update (the back office approves or rejects a manual expense); never delete.

CREATE TABLE expenses (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  branch_id uuid NOT NULL,
  -- The pharmacy's business day the expense belongs to.
  expense_date date NOT NULL,
  description text NOT NULL CHECK (length(description) BETWEEN 1 AND 200),
  category text NOT NULL CHECK (length(category) BETWEEN 1 AND 60),
  -- The base amount (above 0, at most KSh 100,000,000.00).
  amount_cents bigint NOT NULL CHECK (amount_cents > 0 AND amount_cents <= 10000000000),
  currency text NOT NULL DEFAULT 'KES' CHECK (currency ~ '^[A-Z]{3}$'),
  payment_method text NOT NULL CHECK (length(payment_method) BETWEEN 1 AND 40),
  receipt_number text CHECK (receipt_number IS NULL OR length(receipt_number) <= 60),
  notes text CHECK (notes IS NULL OR length(notes) <= 500),
  -- As typed, in the Kenyan format (+254 or 0, then 1 or 7, then 8 digits).
  contact_phone text CHECK (contact_phone IS NULL OR length(contact_phone) <= 20),
  -- Transport and travel: destination and reason required (checked with the category by the domain).
  destination text CHECK (destination IS NULL OR length(destination) <= 120),
  reason text CHECK (reason IS NULL OR length(reason) <= 200),
  transport_type text CHECK (transport_type IS NULL OR length(transport_type) <= 40),
  distance_km numeric(9, 1) CHECK (distance_km IS NULL OR (distance_km >= 0 AND distance_km <= 100000)),
  fuel_cents bigint NOT NULL DEFAULT 0 CHECK (fuel_cents >= 0 AND fuel_cents <= 10000000000),
  toll_cents bigint NOT NULL DEFAULT 0 CHECK (toll_cents >= 0 AND toll_cents <= 10000000000),
  parking_cents bigint NOT NULL DEFAULT 0 CHECK (parking_cents >= 0 AND parking_cents <= 10000000000),
  meal_allowance_cents bigint NOT NULL DEFAULT 0 CHECK (meal_allowance_cents >= 0 AND meal_allowance_cents <= 10000000000),
  is_transport boolean NOT NULL DEFAULT false,
  -- What the expense cost: the amount plus the four transport costs.
  total_cents bigint NOT NULL,
  status text NOT NULL DEFAULT 'approved' CHECK (status IN ('pending', 'approved', 'rejected')),
  source text NOT NULL CHECK (source IN ('POS', 'manual')),
  entry_method text NOT NULL DEFAULT 'manual' CHECK (entry_method IN ('manual')),
  recorded_by uuid REFERENCES users (id),
  recorded_by_name text NOT NULL CHECK (length(recorded_by_name) BETWEEN 1 AND 200),
  recorded_by_email text,
  approved_by uuid REFERENCES users (id),
  approved_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, branch_id) REFERENCES branches (pharmacy_id, id),
  CHECK (total_cents = amount_cents + fuel_cents + toll_cents + parking_cents + meal_allowance_cents),
  CHECK (is_transport OR (fuel_cents = 0 AND toll_cents = 0 AND parking_cents = 0 AND meal_allowance_cents = 0)),
  CHECK (NOT is_transport OR (destination IS NOT NULL AND reason IS NOT NULL)),
  CHECK (status <> 'approved' OR approved_at IS NOT NULL),
  CHECK (source <> 'POS' OR status = 'approved')
);
CREATE INDEX expenses_date ON expenses (pharmacy_id, expense_date DESC, branch_id);
CREATE INDEX expenses_created ON expenses (pharmacy_id, created_at DESC, id);
CREATE INDEX expenses_category ON expenses (pharmacy_id, category, expense_date DESC);

ALTER TABLE expenses ENABLE ROW LEVEL SECURITY;
ALTER TABLE expenses FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON expenses
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());

GRANT SELECT, INSERT ON expenses TO pharmapoint_app;
GRANT UPDATE ON expenses TO pharmapoint_app;
