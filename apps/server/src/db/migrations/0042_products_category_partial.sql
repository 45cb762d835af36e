-- products_category serves the product list's and the export's category filter, `lower(category) = lower($n)`, and
-- nothing else. Over (pharmacy_id, lower(category)) for every product, it also served any lookup of a product by
-- (pharmacy_id, id) that was planned while the planner knew no better: without statistics (this project's servers run
-- without autovacuum, PGlite between its ANALYZE passes, any table right after a bulk load) `pharmacy_id = $1` is
-- estimated at a row or two, and this index, smaller than the primary key, won the tie. A connection keeps such a
-- plan until an ANALYZE invalidates it: the foreign-key checks of every row referencing a product (branch rows, price
-- changes, adjustment, sale and purchase lines) and the stock alerts' lookups then read all the pharmacy's products
-- through this index, filtering on id (about 600 rows a check at 1,300 products in bench/sale-statements.ts,
-- BENCH_WRITE=product: four checks per new product; decisions 0037, 0082).
-- Partial on `category IS NOT NULL`, the index can serve only a statement that implies it — the category filter does
-- (lower is strict: a NULL category never equals anything) — so a lookup by id can use nothing but the primary key.
DROP INDEX products_category;
CREATE INDEX products_category ON products (pharmacy_id, lower(category)) WHERE category IS NOT NULL;
