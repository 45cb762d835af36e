-- Decision 0087: a branch row's last stock update names the sale that made it by reference, as the ledger's movements
-- do, instead of the sale rewriting the row's reason once its invoice number is taken. The sale wrote 'Sale' with the
-- stock, then, after the invoice counter, UPDATEd the same rows again to 'Sale: INV-…' (a second row version of each
-- and a foreign key check per key of each: a row updated twice in one transaction is checked again). Now the ledger
-- writes the sale's id with the stock, and the reads compose 'Sale: INV-…' through it (LEFT JOIN sales), as the
-- product's movement history already does. No foreign key: the sale row is written after the stock, in the same
-- transaction; both commit or neither does.
ALTER TABLE branch_products ADD COLUMN last_stock_update_sale_id uuid;
