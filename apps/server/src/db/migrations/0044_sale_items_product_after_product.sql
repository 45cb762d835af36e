-- A sale's batch takes reference their line (sale_item_batches -> sale_items on (pharmacy_id, sale_id, line)), so
-- every take runs PostgreSQL's foreign key check `SELECT 1 FROM sale_items WHERE pharmacy_id = $1 AND sale_id = $2
-- AND line = $3 FOR KEY SHARE`. A connection plans that check once and keeps the plan; made while sale_items had no
-- statistics and a page or two (a new database, a server without autovacuum before the maintenance pass, PGlite), the
-- plan took sale_items_product (pharmacy_id, product_id) — with pharmacy_id alone as its condition it looks as cheap
-- as the primary key on a tiny table — and so read every sale line of the pharmacy for each take, until an ANALYZE
-- invalidated it: 0.24 ms a check at 3,000 lines, 0.85 ms at 30,000 (auto_explain, decision 0083).
-- The index serves lookups by product (the products' foreign key check when a product is deleted), which name both
-- columns: with product_id first it serves them the same, and no statement naming only the pharmacy can use it, so
-- the primary key is the only index the check can take, whatever the statistics.
DROP INDEX sale_items_product;
CREATE INDEX sale_items_product ON sale_items (product_id, pharmacy_id);
