-- Returns, voids and later payments of sales (issue 10 items 8 and 10, decision 0038): a return (or a void) of a
-- sale with the pieces it gave back per line and batch, the refund and how it was paid; a customer's later payment
-- of credit sales with its allocations (oldest first). Tenant tables: pharmacy_id first in the primary key, foreign
-- keys carry pharmacy_id, row-level security forced; written once, in the transaction of their stock movements.
-- A sale changes in place only in what these move on: its status, what it still owes, what it refunded and what
-- was paid later (column grants below), and when it was voided and by whom.

ALTER TABLE sales
  ADD COLUMN refunded_cents bigint NOT NULL DEFAULT 0 CHECK (refunded_cents >= 0 AND refunded_cents <= total_cents),
  ADD COLUMN paid_later_cents bigint NOT NULL DEFAULT 0 CHECK (paid_later_cents >= 0),
  ADD COLUMN voided_at timestamptz,
  ADD COLUMN voided_by uuid REFERENCES users (id);
CREATE INDEX sales_owing ON sales (pharmacy_id, client_id, sale_date, created_at) WHERE balance_due_cents > 0;
CREATE INDEX sales_status ON sales (pharmacy_id, status, sale_date);

CREATE TABLE sale_returns (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  -- Made by the browser (its Idempotency-Key).
  id uuid NOT NULL,
  return_number text NOT NULL CHECK (return_number ~ '^RET-[0-9]{6,}$'),
  sale_id uuid NOT NULL,
  branch_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('return', 'void')),
  reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 300),
  refund_cents bigint NOT NULL CHECK (refund_cents >= 0),
  -- The part of the refund that lowered what the client owed on the sale; the rest was paid out in refund_method.
  credit_cents bigint NOT NULL DEFAULT 0 CHECK (credit_cents >= 0 AND credit_cents <= refund_cents),
  refund_method text CHECK (refund_method IS NULL OR length(refund_method) BETWEEN 1 AND 40),
  refund_reference text CHECK (refund_reference IS NULL OR length(refund_reference) <= 60),
  created_by uuid REFERENCES users (id),
  created_by_name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pharmacy_id, id),
  UNIQUE (pharmacy_id, return_number),
  FOREIGN KEY (pharmacy_id, sale_id) REFERENCES sales (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, branch_id) REFERENCES branches (pharmacy_id, id),
  CHECK (refund_cents = credit_cents OR refund_method IS NOT NULL)
);
CREATE INDEX sale_returns_sale ON sale_returns (pharmacy_id, sale_id, created_at);
CREATE INDEX sale_returns_created ON sale_returns (pharmacy_id, created_at DESC);

-- The pieces of a line returned into (or written off from) one batch.
CREATE TABLE sale_return_items (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  return_id uuid NOT NULL,
  sale_id uuid NOT NULL,
  line integer NOT NULL,
  batch_id uuid NOT NULL,
  quantity integer NOT NULL CHECK (quantity >= 1),
  condition text NOT NULL CHECK (condition IN ('restock', 'damaged')),
  -- The line's refund is on its first batch row; the others carry 0.
  refund_cents bigint NOT NULL DEFAULT 0 CHECK (refund_cents >= 0),
  PRIMARY KEY (pharmacy_id, return_id, line, batch_id, condition),
  FOREIGN KEY (pharmacy_id, return_id) REFERENCES sale_returns (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, sale_id, line, batch_id) REFERENCES sale_item_batches (pharmacy_id, sale_id, line, batch_id)
);
CREATE INDEX sale_return_items_sale ON sale_return_items (pharmacy_id, sale_id, line);

CREATE TABLE customer_payments (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  -- Made by the browser (its Idempotency-Key).
  id uuid NOT NULL,
  client_id uuid NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  method text NOT NULL CHECK (length(method) BETWEEN 1 AND 40),
  reference text CHECK (reference IS NULL OR length(reference) <= 60),
  notes text CHECK (notes IS NULL OR length(notes) <= 300),
  created_by uuid REFERENCES users (id),
  created_by_name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, client_id) REFERENCES contacts (pharmacy_id, id)
);
CREATE INDEX customer_payments_client ON customer_payments (pharmacy_id, client_id, created_at DESC);
CREATE INDEX customer_payments_created ON customer_payments (pharmacy_id, created_at);

CREATE TABLE customer_payment_allocations (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  payment_id uuid NOT NULL,
  sale_id uuid NOT NULL,
  amount_cents bigint NOT NULL CHECK (amount_cents > 0),
  -- What the sale still owed after this allocation.
  balance_after_cents bigint NOT NULL CHECK (balance_after_cents >= 0),
  PRIMARY KEY (pharmacy_id, payment_id, sale_id),
  FOREIGN KEY (pharmacy_id, payment_id) REFERENCES customer_payments (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, sale_id) REFERENCES sales (pharmacy_id, id)
);
CREATE INDEX customer_payment_allocations_sale ON customer_payment_allocations (pharmacy_id, sale_id);

ALTER TABLE sale_returns ENABLE ROW LEVEL SECURITY;
ALTER TABLE sale_returns FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON sale_returns
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
ALTER TABLE sale_return_items ENABLE ROW LEVEL SECURITY;
ALTER TABLE sale_return_items FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON sale_return_items
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
ALTER TABLE customer_payments ENABLE ROW LEVEL SECURITY;
ALTER TABLE customer_payments FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON customer_payments
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
ALTER TABLE customer_payment_allocations ENABLE ROW LEVEL SECURITY;
ALTER TABLE customer_payment_allocations FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON customer_payment_allocations
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());

GRANT SELECT, INSERT ON sale_returns, sale_return_items, customer_payments, customer_payment_allocations TO pharmapoint_app;
-- The sale's row lock (SELECT ... FOR UPDATE) and what a return, a void or a later payment moves on.
GRANT UPDATE (status, balance_due_cents, refunded_cents, paid_later_cents, voided_at, voided_by) ON sales TO pharmapoint_app;
