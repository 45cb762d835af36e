-- Reads that stay fast as a pharmacy grows (issue 6 item 13, decision 0022). The low-stock report and the
-- dashboard's branch summary read every product x branch pair (500,000 at 50,000 products and 10 branches: 1.9 s
-- and 1.2 s on PostgreSQL). stock_alerts keeps the pairs that are low or out of stock, maintained by triggers in
-- the transaction of every change that can move a pair in or out: a branch row's quantity or threshold, a product
-- created, renamed, (de)activated or given another threshold, a branch opened. The reports read these rows (an
-- index in the report's order) and count good pairs as active products minus the alerts.
--
-- A pair is 'out' when its sellable quantity is <= 0 (a product without a row in a branch is out there), 'low' when
-- the quantity is at or below COALESCE(branch threshold, product threshold); only active products have alerts;
-- branches are filtered by the reads (a deactivated branch keeps its rows).
CREATE TABLE stock_alerts (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  branch_id uuid NOT NULL,
  product_id uuid NOT NULL,
  status text NOT NULL CHECK (status IN ('out', 'low')),
  -- The product's name, for the report's order (kept by the products trigger).
  product_name text NOT NULL,
  PRIMARY KEY (pharmacy_id, branch_id, product_id)
);
-- The report's order: out first ('out' > 'low'), then product name.
CREATE INDEX stock_alerts_report ON stock_alerts (pharmacy_id, status DESC, product_name, product_id, branch_id);
CREATE INDEX stock_alerts_product ON stock_alerts (pharmacy_id, product_id);
ALTER TABLE stock_alerts ENABLE ROW LEVEL SECURITY;
ALTER TABLE stock_alerts FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON stock_alerts
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
GRANT SELECT ON stock_alerts TO pharmapoint_app;

-- Recomputes the alerts of these (pharmacy, branch, product) triples from the rows. Runs as the owner (the
-- request role only reads stock_alerts); called by the triggers below, in the changing transaction.
CREATE FUNCTION refresh_stock_alerts(in_pharmacies text[], in_branches uuid[], in_products uuid[]) RETURNS void
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
BEGIN
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

-- Branch rows: inserted in bulk (imports), updated one by one (the ledger).
CREATE FUNCTION stock_alerts_bp_inserted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
BEGIN
  PERFORM refresh_stock_alerts(array_agg(pharmacy_id), array_agg(branch_id), array_agg(product_id)) FROM new_rows;
  RETURN NULL;
END $$;
CREATE TRIGGER stock_alerts_bp_insert AFTER INSERT ON branch_products
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stock_alerts_bp_inserted();

CREATE FUNCTION stock_alerts_bp_changed() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM refresh_stock_alerts(ARRAY[OLD.pharmacy_id], ARRAY[OLD.branch_id], ARRAY[OLD.product_id]);
  ELSE
    PERFORM refresh_stock_alerts(ARRAY[NEW.pharmacy_id], ARRAY[NEW.branch_id], ARRAY[NEW.product_id]);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER stock_alerts_bp_update AFTER UPDATE OF quantity, low_stock_threshold ON branch_products
  FOR EACH ROW WHEN (OLD.quantity IS DISTINCT FROM NEW.quantity OR OLD.low_stock_threshold IS DISTINCT FROM NEW.low_stock_threshold)
  EXECUTE FUNCTION stock_alerts_bp_changed();
CREATE TRIGGER stock_alerts_bp_delete AFTER DELETE ON branch_products
  FOR EACH ROW EXECUTE FUNCTION stock_alerts_bp_changed();

-- Products: a new product is out in every branch until stock arrives; a rename, (de)activation or threshold
-- change recomputes its pairs; a deleted product (an undone import) leaves none.
CREATE FUNCTION stock_alerts_products_inserted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
BEGIN
  PERFORM refresh_stock_alerts(array_agg(n.pharmacy_id), array_agg(b.id), array_agg(n.id))
     FROM new_rows n JOIN branches b ON b.pharmacy_id = n.pharmacy_id;
  RETURN NULL;
END $$;
CREATE TRIGGER stock_alerts_products_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stock_alerts_products_inserted();

CREATE FUNCTION stock_alerts_product_changed() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM stock_alerts WHERE pharmacy_id = OLD.pharmacy_id AND product_id = OLD.id;
  ELSE
    PERFORM refresh_stock_alerts(array_agg(NEW.pharmacy_id), array_agg(b.id), array_agg(NEW.id))
       FROM branches b WHERE b.pharmacy_id = NEW.pharmacy_id;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER stock_alerts_product_update AFTER UPDATE OF name, is_active, low_stock_threshold ON products
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.is_active IS DISTINCT FROM NEW.is_active
                     OR OLD.low_stock_threshold IS DISTINCT FROM NEW.low_stock_threshold)
  EXECUTE FUNCTION stock_alerts_product_changed();
CREATE TRIGGER stock_alerts_product_delete AFTER DELETE ON products
  FOR EACH ROW EXECUTE FUNCTION stock_alerts_product_changed();

-- Branches: a new branch has no stock yet, so every active product is out there.
CREATE FUNCTION stock_alerts_branch_inserted() RETURNS trigger
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
BEGIN
  INSERT INTO stock_alerts (pharmacy_id, branch_id, product_id, status, product_name)
  SELECT NEW.pharmacy_id, NEW.id, x.id, 'out', x.name FROM products x WHERE x.pharmacy_id = NEW.pharmacy_id AND x.is_active
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER stock_alerts_branch_insert AFTER INSERT ON branches
  FOR EACH ROW EXECUTE FUNCTION stock_alerts_branch_inserted();

-- Backfill from the rows.
INSERT INTO stock_alerts (pharmacy_id, branch_id, product_id, status, product_name)
SELECT b.pharmacy_id, b.id, x.id, CASE WHEN COALESCE(bp.quantity, 0) <= 0 THEN 'out' ELSE 'low' END, x.name
  FROM branches b
  JOIN products x ON x.pharmacy_id = b.pharmacy_id AND x.is_active
  LEFT JOIN branch_products bp ON bp.pharmacy_id = b.pharmacy_id AND bp.branch_id = b.id AND bp.product_id = x.id
 WHERE COALESCE(bp.quantity, 0) <= COALESCE(bp.low_stock_threshold, x.low_stock_threshold);
