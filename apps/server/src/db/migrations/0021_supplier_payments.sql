-- Contacts screen and supplier payments (issue 10 items 4-6, seed 002 sections 3-5, 8 and 9; decisions 0040-0042).
--
-- Contacts: a third type 'other' (doctors, insurers, ...: seed 002 'type (supplier among others)') and a supplier's
-- credit terms as people write them ('30 days', 'net 45', '2 months'), kept beside the days they give
-- (credit_period_days). Deactivation sets is_active = false (the row and its history stay).
--
-- Supplier payments: one row per payment (soft deleted: the request role deletes from no business table, decision
-- 0014), its allocationDetails as recorded (seed 002 section 3), and one allocation row per invoice (purchase) it
-- paid; an edit or a deletion marks the payment's allocations removed_at and writes new ones. A payment's credit
-- (overpayment) is its amount less its live allocations to purchases not deleted; the next payment's transaction
-- gives earlier credit to the oldest open invoices first (source 'credit').
-- Supplier balance = purchases (not deleted, not cancelled) - purchase returns - payments (not deleted).
-- Payments of a supplier are serialised by locking the supplier's contacts row (SELECT ... FOR UPDATE).

ALTER TABLE contacts DROP CONSTRAINT contacts_type_check;
ALTER TABLE contacts ADD CONSTRAINT contacts_type_check CHECK (type IN ('customer', 'supplier', 'other'));
ALTER TABLE contacts ADD COLUMN credit_terms text CHECK (credit_terms IS NULL OR length(credit_terms) BETWEEN 1 AND 40);
CREATE INDEX contacts_type_active ON contacts (pharmacy_id, type, is_active, lower(name), id);

CREATE TABLE supplier_payments (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  supplier_id uuid NOT NULL,
  -- The supplier's name when paid (seed 002 section 3: supplierName).
  supplier_name text NOT NULL CHECK (length(supplier_name) BETWEEN 1 AND 120),
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  payment_date date NOT NULL,
  method text NOT NULL CHECK (method IN ('M-Pesa', 'Bank Transfer', 'Cheque', 'Cash')),
  -- M-Pesa code, bank transfer reference or cheque number.
  reference text CHECK (reference IS NULL OR length(reference) BETWEEN 1 AND 100),
  notes text CHECK (notes IS NULL OR length(notes) <= 500),
  -- 'auto' (oldest invoice first) or 'specific' (the invoice chosen first).
  allocation_type text NOT NULL CHECK (allocation_type IN ('auto', 'specific')),
  invoice_id uuid,
  -- { type, allocations: [{ invoiceId, invoiceNumber, invoiceDate, invoiceTotal, previouslyPaid, allocationAmount,
  --   remainingBalance }], totalAllocated, overpayment, invoicesAffected } in cents, as at the last save.
  allocation_details jsonb NOT NULL,
  created_by uuid REFERENCES users (id),
  updated_by uuid REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  deleted_by uuid REFERENCES users (id),
  PRIMARY KEY (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, supplier_id) REFERENCES contacts (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, invoice_id) REFERENCES purchases (pharmacy_id, id),
  CHECK ((allocation_type = 'specific') = (invoice_id IS NOT NULL))
);
CREATE INDEX supplier_payments_supplier ON supplier_payments (pharmacy_id, supplier_id, payment_date, created_at) WHERE deleted_at IS NULL;
CREATE INDEX supplier_payments_date ON supplier_payments (pharmacy_id, payment_date DESC, created_at DESC) WHERE deleted_at IS NULL;

CREATE TABLE supplier_payment_allocations (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  payment_id uuid NOT NULL,
  purchase_id uuid NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  -- 'payment': when the payment was saved; 'credit': its overpayment given to a later purchase.
  source text NOT NULL CHECK (source IN ('payment', 'credit')),
  created_at timestamptz NOT NULL DEFAULT now(),
  removed_at timestamptz,
  PRIMARY KEY (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, payment_id) REFERENCES supplier_payments (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, purchase_id) REFERENCES purchases (pharmacy_id, id)
);
CREATE INDEX supplier_payment_allocations_payment ON supplier_payment_allocations (pharmacy_id, payment_id) WHERE removed_at IS NULL;
CREATE INDEX supplier_payment_allocations_purchase ON supplier_payment_allocations (pharmacy_id, purchase_id) WHERE removed_at IS NULL;

-- The supplier report's settings, per user (seed 002 section 3 keeps them in the browser; decision 0042).
CREATE TABLE supplier_report_settings (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  settings jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pharmacy_id, user_id)
);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['supplier_payments', 'supplier_payment_allocations', 'supplier_report_settings'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id())', t);
  END LOOP;
END $$;

-- UPDATE: edits and soft deletion of payments, removed allocations, settings saved again.
GRANT SELECT, INSERT, UPDATE ON supplier_payments, supplier_payment_allocations, supplier_report_settings TO pharmapoint_app;
