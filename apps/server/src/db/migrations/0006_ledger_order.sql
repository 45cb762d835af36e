-- The stock ledger's total order (issue 6). Movements of one branch and product are written while the ledger holds
-- that branch_products row locked, so the order they are inserted in is the ledger's order; `sequence` records it
-- (at and id do not: one transaction stamps every movement with the same instant). batch_quantity_after is the
-- batch's on-hand (quantity + reserved) after the movement, as quantity_after is the branch's.
--
-- Existing rows are numbered by time, then by their place in the table (rows of one transaction were inserted
-- together), before the column becomes an identity that numbers every new row.

ALTER TABLE stock_movements ADD COLUMN sequence bigint;
UPDATE stock_movements m SET sequence = o.n
  FROM (SELECT pharmacy_id, id, row_number() OVER (ORDER BY at, ctid) AS n FROM stock_movements) o
 WHERE o.pharmacy_id = m.pharmacy_id AND o.id = m.id;
ALTER TABLE stock_movements ALTER COLUMN sequence SET NOT NULL;
ALTER TABLE stock_movements ALTER COLUMN sequence ADD GENERATED ALWAYS AS IDENTITY;
SELECT setval(pg_get_serial_sequence('stock_movements', 'sequence'), COALESCE((SELECT max(sequence) FROM stock_movements), 0) + 1, false);

ALTER TABLE stock_movements ADD COLUMN batch_quantity_after integer;
UPDATE stock_movements m SET batch_quantity_after = o.after
  FROM (SELECT pharmacy_id, id, sum(delta) OVER (PARTITION BY pharmacy_id, batch_id ORDER BY sequence) AS after
          FROM stock_movements WHERE batch_id IS NOT NULL) o
 WHERE o.pharmacy_id = m.pharmacy_id AND o.id = m.id;
ALTER TABLE stock_movements ADD CONSTRAINT stock_movements_batch_quantity_after
  CHECK (batch_id IS NULL OR (batch_quantity_after IS NOT NULL AND batch_quantity_after >= 0));

-- The register of one branch and product in ledger order (the product history, the ledger checks), and of one
-- product across branches.
CREATE INDEX stock_movements_ledger ON stock_movements (pharmacy_id, branch_id, product_id, sequence);
DROP INDEX stock_movements_product;
CREATE INDEX stock_movements_product ON stock_movements (pharmacy_id, product_id, sequence);
