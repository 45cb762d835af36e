-- Stock alerts kept by primary-key lookups (decision 0075). The triggers of migration 0015 recomputed a change's
-- alerts with joins of unnest(...) against products, branches, branch_products and stock_alerts. On tables the planner
-- has no statistics for (PGlite between its ANALYZE passes, a PostgreSQL without autovacuum, any table right after a
-- bulk load) those joins were planned as scans of the pharmacy's rows: at 5,000 products a 3-item sale spent 3.1 ms of
-- its 10 ms of database time in this trigger (three calls, one per branch row, each scanning products and stock_alerts),
-- and the cost grew with the catalogue. Now:
-- - a change of up to 64 (pharmacy, branch, product) keys is handled key by key, every statement an equality on a
--   whole primary key, so the plan is an index lookup whatever the statistics say; a larger change (an import, a new
--   branch's products) keeps the set-based statements, which suit it;
-- - an alert is written only when it changes: an upsert that skips an identical row, and a delete of keys no longer
--   low or out (most sales change neither: no row is written at all, where 0015 deleted and re-inserted it);
-- - the branch rows' update trigger runs once per statement over its transition tables instead of once per row.
CREATE OR REPLACE FUNCTION refresh_stock_alerts(in_pharmacies text[], in_branches uuid[], in_products uuid[]) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
DECLARE
  n integer := coalesce(array_length(in_products, 1), 0);
  v_status text;
  v_name text;
BEGIN
  IF n = 0 THEN
    RETURN;
  END IF;
  IF n <= 64 THEN
    FOR i IN 1 .. n LOOP
      SELECT CASE WHEN COALESCE(bp.quantity, 0) <= 0 THEN 'out' ELSE 'low' END, x.name
        INTO v_status, v_name
        FROM products x
        LEFT JOIN branch_products bp ON bp.pharmacy_id = in_pharmacies[i] AND bp.branch_id = in_branches[i] AND bp.product_id = in_products[i]
       WHERE x.pharmacy_id = in_pharmacies[i] AND x.id = in_products[i] AND x.is_active
         AND EXISTS (SELECT 1 FROM branches y WHERE y.pharmacy_id = in_pharmacies[i] AND y.id = in_branches[i])
         AND COALESCE(bp.quantity, 0) <= COALESCE(bp.low_stock_threshold, x.low_stock_threshold);
      IF FOUND THEN
        INSERT INTO stock_alerts AS a (pharmacy_id, branch_id, product_id, status, product_name)
        VALUES (in_pharmacies[i], in_branches[i], in_products[i], v_status, v_name)
        ON CONFLICT (pharmacy_id, branch_id, product_id) DO UPDATE SET status = EXCLUDED.status, product_name = EXCLUDED.product_name
         WHERE a.status IS DISTINCT FROM EXCLUDED.status OR a.product_name IS DISTINCT FROM EXCLUDED.product_name;
      ELSE
        DELETE FROM stock_alerts a WHERE a.pharmacy_id = in_pharmacies[i] AND a.branch_id = in_branches[i] AND a.product_id = in_products[i];
      END IF;
    END LOOP;
    RETURN;
  END IF;
  DELETE FROM stock_alerts a USING unnest(in_pharmacies, in_branches, in_products) AS k(ph, b, p)
   WHERE a.pharmacy_id = k.ph AND a.branch_id = k.b AND a.product_id = k.p;
  INSERT INTO stock_alerts (pharmacy_id, branch_id, product_id, status, product_name)
  SELECT k.ph, k.b, k.p, CASE WHEN COALESCE(bp.quantity, 0) <= 0 THEN 'out' ELSE 'low' END, x.name
    FROM (SELECT DISTINCT u.ph, u.b, u.p FROM unnest(in_pharmacies, in_branches, in_products) AS u(ph, b, p)) k
    JOIN products x ON x.pharmacy_id = k.ph AND x.id = k.p AND x.is_active
    JOIN branches y ON y.pharmacy_id = k.ph AND y.id = k.b
    LEFT JOIN branch_products bp ON bp.pharmacy_id = k.ph AND bp.branch_id = k.b AND bp.product_id = k.p
   WHERE COALESCE(bp.quantity, 0) <= COALESCE(bp.low_stock_threshold, x.low_stock_threshold);
END $$;
REVOKE ALL ON FUNCTION refresh_stock_alerts(text[], uuid[], uuid[]) FROM PUBLIC;

-- Branch rows updated: once per statement, for the rows whose quantity or threshold changed. (An UPDATE trigger with
-- transition tables cannot name columns, so it runs after every UPDATE of branch_products and picks the rows itself.)
CREATE FUNCTION stock_alerts_bp_updated() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
DECLARE
  ph text[];
  br uuid[];
  pr uuid[];
BEGIN
  SELECT array_agg(n.pharmacy_id), array_agg(n.branch_id), array_agg(n.product_id)
    INTO ph, br, pr
    FROM new_rows n JOIN old_rows o ON o.pharmacy_id = n.pharmacy_id AND o.branch_id = n.branch_id AND o.product_id = n.product_id
   WHERE o.quantity IS DISTINCT FROM n.quantity OR o.low_stock_threshold IS DISTINCT FROM n.low_stock_threshold;
  IF pr IS NOT NULL THEN
    PERFORM refresh_stock_alerts(ph, br, pr);
  END IF;
  RETURN NULL;
END $$;
DROP TRIGGER stock_alerts_bp_update ON branch_products;
CREATE TRIGGER stock_alerts_bp_update AFTER UPDATE ON branch_products
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stock_alerts_bp_updated();
