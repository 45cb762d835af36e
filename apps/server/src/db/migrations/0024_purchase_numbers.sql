-- Purchase and purchase-return numbers unique per pharmacy, and the one definition of a supplier's invoice (issue
-- 10; decisions 0034, 0036 and 0041). Migration 0019 is not edited (migrations never are); this file supersedes two
-- things it said.
--
-- 1. Numbers. 'PO-' / 'PR-' plus the time in milliseconds (seed 002 section 3) could be shared by two purchases saved
--    in the same millisecond. They are now unique per pharmacy; the purchases module inserts with
--    ON CONFLICT (pharmacy_id, purchase_number) DO NOTHING and, when the number is taken, tries the next millisecond.
--    Numbers already shared get '-2', '-3', ... on all but the earliest row (by created_at, then id).
--
-- 2. What a supplier is owed. 0019's comment said every purchase not deleted counts. The rule everywhere (supplier
--    payments, the supplier balances report, the contact's page, the payment-due alert) is decision 0041's: an
--    invoice is a purchase neither deleted nor cancelled (a cancelled order is owed nothing), so
--      supplier balance = sum(purchases.total_cents WHERE deleted_at IS NULL AND status <> 'cancelled')
--                       - sum(purchase_returns.total_cents of those purchases)
--                       - sum(supplier_payments.amount_cents WHERE deleted_at IS NULL).
--    A cancelled purchase's returns and payment allocations do not count either; what was allocated to it becomes
--    the payment's credit again.

WITH d AS (SELECT pharmacy_id, id, row_number() OVER (PARTITION BY pharmacy_id, purchase_number ORDER BY created_at, id) AS n FROM purchases)
UPDATE purchases p SET purchase_number = p.purchase_number || '-' || d.n
  FROM d WHERE d.pharmacy_id = p.pharmacy_id AND d.id = p.id AND d.n > 1;
DROP INDEX purchases_number;
CREATE UNIQUE INDEX purchases_number ON purchases (pharmacy_id, purchase_number);

WITH d AS (SELECT pharmacy_id, id, row_number() OVER (PARTITION BY pharmacy_id, return_number ORDER BY created_at, id) AS n FROM purchase_returns)
UPDATE purchase_returns r SET return_number = r.return_number || '-' || d.n
  FROM d WHERE d.pharmacy_id = r.pharmacy_id AND d.id = r.id AND d.n > 1;
CREATE UNIQUE INDEX purchase_returns_number ON purchase_returns (pharmacy_id, return_number);

COMMENT ON TABLE purchases IS 'Purchases from suppliers (0019). A supplier invoice is a purchase with deleted_at IS NULL AND status <> ''cancelled'' (decision 0041; 0024). purchase_number is unique per pharmacy.';
