-- The stock alerts of a new product, written once and without planning per call (decision 0082).
--
-- Creating a product inserts the product and its branch rows in one statement (decision 0079), and two
-- statement-level triggers of migration 0015 then ran refresh_stock_alerts (plpgsql, key by key, every statement
-- planned for each call since migration 0037) over the same keys: the products trigger for every branch of each new
-- product, the branch rows trigger again for each new branch row. In bench/sale-statements.ts (BENCH_WRITE=product,
-- pg_stat_statements with track = all) that was 4 SELECTs planned at 0.07-0.14 ms each and 2-4 upserts per product,
-- about half of the PostgreSQL time of the product's INSERT statement.
--
-- New products: their alerts come from one INSERT over the transition table, by the rule refresh_stock_alerts
-- applies (an active product is 'out' at or below 0 in a branch, 'low' at or below the threshold, the branch row's
-- else the product's; a branch without a row for it counts as 0), each branch row looked up by its key.
-- refresh_stock_alerts also deleted the alerts of keys above their threshold; a new product has none to delete
-- (its id is new, and a branch row inserted above its threshold in the same statement is handled by the branch rows
-- trigger below, which deletes or never writes it, in whichever order the two run).
CREATE OR REPLACE FUNCTION stock_alerts_products_inserted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
BEGIN
  INSERT INTO stock_alerts AS a (pharmacy_id, branch_id, product_id, status, product_name)
  SELECT n.pharmacy_id, b.id, n.id, CASE WHEN COALESCE(bp.quantity, 0) <= 0 THEN 'out' ELSE 'low' END, n.name
    FROM new_rows n
    JOIN branches b ON b.pharmacy_id = n.pharmacy_id
    LEFT JOIN LATERAL (SELECT x.quantity, x.low_stock_threshold FROM branch_products x
                        WHERE x.pharmacy_id = n.pharmacy_id AND x.branch_id = b.id AND x.product_id = n.id OFFSET 0) bp ON true
   WHERE n.is_active AND COALESCE(bp.quantity, 0) <= COALESCE(bp.low_stock_threshold, n.low_stock_threshold)
  ON CONFLICT (pharmacy_id, branch_id, product_id) DO UPDATE SET status = EXCLUDED.status, product_name = EXCLUDED.product_name
   WHERE a.status IS DISTINCT FROM EXCLUDED.status OR a.product_name IS DISTINCT FROM EXCLUDED.product_name;
  RETURN NULL;
END $$;

-- New branch rows: only those inserted with stock can change an alert. A branch without a row for a product counts
-- as 0 pieces, so the pair is already 'out' (an active product) or has no alert (an inactive one) — the products,
-- branches and branch-row-deletion triggers keep it so — and a row inserted with quantity 0 leaves it exactly as it
-- is (0 is at or below every threshold, which is never negative). Rows inserted with stock (the streamed import's
-- opening quantities) are refreshed as before.
CREATE OR REPLACE FUNCTION stock_alerts_bp_inserted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
DECLARE
  ph text[];
  br uuid[];
  pr uuid[];
BEGIN
  SELECT array_agg(pharmacy_id), array_agg(branch_id), array_agg(product_id) INTO ph, br, pr FROM new_rows WHERE quantity > 0;
  IF pr IS NOT NULL THEN
    PERFORM refresh_stock_alerts(ph, br, pr);
  END IF;
  RETURN NULL;
END $$;
