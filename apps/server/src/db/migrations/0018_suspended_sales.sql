-- Suspended sales with reserved stock (issue 9 item 7, seed 001 sections 3-5, decision 0028). A suspended sale holds
-- its cart (lines as jsonb, the prices the server computed at suspension), its client, payment method, amount paid
-- and reason, and which batches its stock was reserved from (FEFO). Its reserved pieces sit in
-- branch_products.reserved_quantity and batches.reserved_quantity, moved there by 'reserve' movements of the ledger
-- in the same transaction. Completing the resumed sale converts them to sold ('reserved_sold') and closes the row
-- (status 'completed', with the sale's id); cancelling releases them ('release') and closes it (status 'cancelled');
-- each in one transaction with the stock. The specification 'deletes' the suspended record: here it leaves the
-- suspended list and can never be resumed again, but the row stays as the record of what was reserved and what became
-- of it (the request role deletes from no business table, decision 0014). Closing takes the row's lock first: a second
-- completion or cancellation waits, then finds it closed and is refused (409).
CREATE TABLE suspended_sales (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  -- The UUID the till made when the Suspend dialog opened (its Idempotency-Key).
  id uuid NOT NULL,
  -- 'RES-' + timestamp + random suffix (seed 001 section 3).
  reservation_id text NOT NULL CHECK (reservation_id ~ '^RES-[0-9]{10,16}-[A-Z0-9]{4,12}$'),
  branch_id uuid NOT NULL,
  client_id uuid NOT NULL,
  client_name text NOT NULL,
  client_phone text,
  client_location text,
  -- [{line, productId, name, sku, quantity, unitMode, packageSize, unitPriceCents, listPriceCents, totalCents, isDda,
  --   prescription, needsRefill, refillDays, lowMargin}]
  lines jsonb NOT NULL CHECK (jsonb_typeof(lines) = 'array' AND jsonb_array_length(lines) >= 1),
  -- [{productId, name, quantity, batches: [{batchId, batchNumber, expiryDate, quantity}]}]
  reservations jsonb NOT NULL CHECK (jsonb_typeof(reservations) = 'array'),
  discount jsonb,
  subtotal_cents bigint NOT NULL CHECK (subtotal_cents >= 0),
  discount_cents bigint NOT NULL DEFAULT 0 CHECK (discount_cents >= 0),
  tax_cents bigint NOT NULL DEFAULT 0 CHECK (tax_cents >= 0),
  total_cents bigint NOT NULL CHECK (total_cents >= 0),
  payment_method text NOT NULL CHECK (length(payment_method) BETWEEN 1 AND 40),
  amount_paid_cents bigint NOT NULL CHECK (amount_paid_cents >= 0 AND amount_paid_cents <= total_cents),
  notes text NOT NULL CHECK (length(notes) BETWEEN 1 AND 200),
  cart_item_count integer NOT NULL CHECK (cart_item_count >= 1),
  version text NOT NULL DEFAULT '2.0',
  suspended_by uuid REFERENCES users (id),
  suspended_by_name text NOT NULL,
  suspended_by_email text,
  suspended_at timestamptz NOT NULL DEFAULT now(),
  status text NOT NULL DEFAULT 'suspended' CHECK (status IN ('suspended', 'completed', 'cancelled')),
  closed_at timestamptz,
  closed_by uuid REFERENCES users (id),
  -- The sale that completed it.
  sale_id uuid,
  PRIMARY KEY (pharmacy_id, id),
  UNIQUE (pharmacy_id, reservation_id),
  FOREIGN KEY (pharmacy_id, branch_id) REFERENCES branches (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, client_id) REFERENCES contacts (pharmacy_id, id),
  FOREIGN KEY (pharmacy_id, sale_id) REFERENCES sales (pharmacy_id, id),
  CHECK ((status = 'suspended') = (closed_at IS NULL)),
  CHECK (status <> 'completed' OR sale_id IS NOT NULL)
);
-- The list shows open suspensions only, newest first, by branch or client.
CREATE INDEX suspended_sales_open ON suspended_sales (pharmacy_id, suspended_at DESC, id) WHERE status = 'suspended';
CREATE INDEX suspended_sales_branch ON suspended_sales (pharmacy_id, branch_id, suspended_at DESC) WHERE status = 'suspended';
CREATE INDEX suspended_sales_client ON suspended_sales (pharmacy_id, client_id, suspended_at DESC) WHERE status = 'suspended';
CREATE UNIQUE INDEX suspended_sales_sale ON suspended_sales (pharmacy_id, sale_id) WHERE sale_id IS NOT NULL;

ALTER TABLE suspended_sales ENABLE ROW LEVEL SECURITY;
ALTER TABLE suspended_sales FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON suspended_sales
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
-- UPDATE: the row lock (SELECT ... FOR UPDATE) and closing it when completed or cancelled.
GRANT SELECT, INSERT, UPDATE ON suspended_sales TO pharmapoint_app;
