-- Supplier balances kept, not recomputed per read (issue 10, performance; decision 0061).
--
-- The supplier balances report, the payment-due alert and a report row's invoices used to add up every purchase,
-- return, payment and allocation of the pharmacy on each request. Two narrow tables now hold what they read, written
-- in the SAME transaction as every change that moves them (supplier payments recorded, edited, deleted; credit given
-- to invoices; purchases created, edited, received, deleted; purchase returns), by the supplier-payments module
-- (`syncSupplierBalances`), under the supplier's contacts row lock (FOR UPDATE), which also serialises payments.
--
-- purchase_balances: one row per purchase: its supplier, date, number, status and total as the purchase has them,
--   what its returns took off (returned_cents), what live allocations of live payments paid on it (paid_cents), and
--   whether it is a supplier invoice (not deleted, not cancelled: decision 0041, migration 0024). owed_cents is
--   total - returned - paid; credit_applied_cents is the supplier's credit given to it (oldest open invoice first),
--   outstanding_cents what is left; the open invoices (outstanding > 0) are the partial index below.
-- supplier_balances: one row per supplier that has purchases or payments: its invoices' total, count and last date,
--   their returns, its live payments' total, count and last date, and its credit (its live payments less their live
--   allocations to live invoices).
--   Balance = purchases_cents - returns_cents - paid_cents (purchases - returns - payments).
--
-- Both are derived data: the rows are rewritten from the base tables for the purchases and suppliers a transaction
-- touched (never incremented), and the test `supplier-balances.test.ts` checks them against a full recomputation.

CREATE TABLE purchase_balances (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  purchase_id uuid NOT NULL,
  supplier_id uuid NOT NULL,
  purchase_date date NOT NULL,
  purchase_number text NOT NULL,
  status text NOT NULL,
  is_invoice boolean NOT NULL,
  total_cents bigint NOT NULL,
  returned_cents bigint NOT NULL,
  paid_cents bigint NOT NULL,
  owed_cents bigint GENERATED ALWAYS AS (total_cents - returned_cents - paid_cents) STORED,
  -- The supplier's unallocated credit shown as already given to its open invoices, oldest first (decision 0041: the
  -- next payment or purchase allocates it so); outstanding_cents is what the invoice still owes after it.
  credit_applied_cents bigint NOT NULL DEFAULT 0,
  outstanding_cents bigint GENERATED ALWAYS AS (total_cents - returned_cents - paid_cents - credit_applied_cents) STORED,
  -- No foreign key to purchases: its check would take a share lock on the purchase row while the supplier's row is
  -- held, the opposite order of the purchases module's (supplier first, then purchase). Rows are written only from it.
  PRIMARY KEY (pharmacy_id, purchase_id)
);
CREATE INDEX purchase_balances_open ON purchase_balances (pharmacy_id, supplier_id, purchase_date, purchase_number, purchase_id)
  INCLUDE (outstanding_cents) WHERE is_invoice AND outstanding_cents > 0;
-- A supplier's rows (its totals are summed from them on every change).
CREATE INDEX purchase_balances_supplier ON purchase_balances (pharmacy_id, supplier_id) INCLUDE (is_invoice, total_cents, returned_cents, purchase_date);

CREATE TABLE supplier_balances (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  supplier_id uuid NOT NULL,
  purchases_cents bigint NOT NULL,
  purchase_count integer NOT NULL,
  last_purchase_date date,
  returns_cents bigint NOT NULL,
  paid_cents bigint NOT NULL,
  payment_count integer NOT NULL,
  last_payment_date date,
  credit_cents bigint NOT NULL,
  PRIMARY KEY (pharmacy_id, supplier_id),
  FOREIGN KEY (pharmacy_id, supplier_id) REFERENCES contacts (pharmacy_id, id)
);

DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['purchase_balances', 'supplier_balances'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id())', t);
  END LOOP;
END $$;

-- UPDATE: the rows are rewritten in place when what they sum changes (upserts).
GRANT SELECT, INSERT, UPDATE ON purchase_balances, supplier_balances TO pharmapoint_app;

-- Backfill: the same recomputation as the module's, for every pharmacy.
INSERT INTO purchase_balances (pharmacy_id, purchase_id, supplier_id, purchase_date, purchase_number, status, is_invoice, total_cents, returned_cents, paid_cents)
SELECT p.pharmacy_id, p.id, p.supplier_id, p.purchase_date, p.purchase_number, p.status, p.deleted_at IS NULL AND p.status <> 'cancelled', p.total_cents,
       coalesce((SELECT sum(r.total_cents) FROM purchase_returns r WHERE r.pharmacy_id = p.pharmacy_id AND r.purchase_id = p.id), 0),
       coalesce((SELECT sum(a.amount_cents) FROM supplier_payment_allocations a
                   JOIN supplier_payments sp ON sp.pharmacy_id = a.pharmacy_id AND sp.id = a.payment_id AND sp.deleted_at IS NULL
                  WHERE a.pharmacy_id = p.pharmacy_id AND a.purchase_id = p.id AND a.removed_at IS NULL), 0)
  FROM purchases p;

INSERT INTO supplier_balances (pharmacy_id, supplier_id, purchases_cents, purchase_count, last_purchase_date, returns_cents, paid_cents, payment_count, last_payment_date, credit_cents)
SELECT s.pharmacy_id, s.supplier_id, coalesce(b.total, 0), coalesce(b.n, 0), b.last, coalesce(b.returned, 0), coalesce(pa.total, 0), coalesce(pa.n, 0), pa.last,
       coalesce(pa.total, 0) - coalesce(al.allocated, 0)
  FROM (SELECT pharmacy_id, supplier_id FROM purchases UNION SELECT pharmacy_id, supplier_id FROM supplier_payments) s
  LEFT JOIN (SELECT pharmacy_id, supplier_id, sum(total_cents) AS total, count(*) AS n, max(purchase_date) AS last, sum(returned_cents) AS returned
               FROM purchase_balances WHERE is_invoice GROUP BY 1, 2) b ON b.pharmacy_id = s.pharmacy_id AND b.supplier_id = s.supplier_id
  LEFT JOIN (SELECT pharmacy_id, supplier_id, sum(amount_cents) AS total, count(*) AS n, max(payment_date) AS last
               FROM supplier_payments WHERE deleted_at IS NULL GROUP BY 1, 2) pa ON pa.pharmacy_id = s.pharmacy_id AND pa.supplier_id = s.supplier_id
  LEFT JOIN (SELECT sp.pharmacy_id, sp.supplier_id, sum(a.amount_cents) AS allocated
               FROM supplier_payments sp
               JOIN supplier_payment_allocations a ON a.pharmacy_id = sp.pharmacy_id AND a.payment_id = sp.id AND a.removed_at IS NULL
               JOIN purchases p ON p.pharmacy_id = a.pharmacy_id AND p.id = a.purchase_id AND p.deleted_at IS NULL AND p.status <> 'cancelled'
              WHERE sp.deleted_at IS NULL GROUP BY 1, 2) al ON al.pharmacy_id = s.pharmacy_id AND al.supplier_id = s.supplier_id;

UPDATE purchase_balances b SET credit_applied_cents = x.given
  FROM (SELECT b2.pharmacy_id, b2.purchase_id,
               least(b2.owed_cents, greatest(0, sb.credit_cents - (sum(b2.owed_cents) OVER w - b2.owed_cents))) AS given
          FROM purchase_balances b2 JOIN supplier_balances sb ON sb.pharmacy_id = b2.pharmacy_id AND sb.supplier_id = b2.supplier_id
         WHERE b2.is_invoice AND b2.owed_cents > 0 AND sb.credit_cents > 0
        WINDOW w AS (PARTITION BY b2.pharmacy_id, b2.supplier_id ORDER BY b2.purchase_date, b2.purchase_number, b2.purchase_id ROWS UNBOUNDED PRECEDING)) x
 WHERE b.pharmacy_id = x.pharmacy_id AND b.purchase_id = x.purchase_id AND x.given > 0;

-- Statistics for the planner at once (PGlite has no autovacuum; its maintenance would ANALYZE them within minutes).
ANALYZE purchase_balances;
ANALYZE supplier_balances;
