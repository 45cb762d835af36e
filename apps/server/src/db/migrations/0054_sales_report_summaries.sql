-- Two more per-day summaries for the sales report (decision 0096), kept exactly like migration 0050's: statement-level
-- triggers in the writer's transaction add the change's figures to the row (increments, never rewrites).
--
-- daily_hour_sales: per pharmacy, branch, business day (the sale's sale_date) and hour of the day the sale was
--   recorded (its created_at in the pharmacy's time zone from its settings, Africa/Nairobi when unset or unknown):
--   sales, voids, revenue (the sales' totals) and what returns and voids refunded. Returns and voids count on the
--   SALE's day and hour, as in daily_sales.
-- daily_tax_sales: per pharmacy, branch, business day and the line's tax rate (basis points; 0 = exempt, 1600 =
--   16 % VAT): lines, line totals (tax included) and tax; what returns gave back of them (the refund, and the tax
--   in it: the line's tax times the share of its pieces returned so far, rounded on the running total so a fully
--   returned line gives back exactly its tax). The VAT summary by tax type reads it.
--
-- The test daily-summaries.test.ts compares both with a full recomputation from the raw rows.

CREATE TABLE daily_hour_sales (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  branch_id uuid NOT NULL,
  business_day date NOT NULL,
  hour smallint NOT NULL CHECK (hour BETWEEN 0 AND 23),
  sale_count integer NOT NULL DEFAULT 0,
  void_count integer NOT NULL DEFAULT 0,
  revenue_cents bigint NOT NULL DEFAULT 0,
  returned_cents bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (pharmacy_id, branch_id, business_day, hour)
);
CREATE INDEX daily_hour_sales_day ON daily_hour_sales (pharmacy_id, business_day);

CREATE TABLE daily_tax_sales (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  branch_id uuid NOT NULL,
  business_day date NOT NULL,
  tax_rate_basis_points integer NOT NULL,
  line_count integer NOT NULL DEFAULT 0,
  revenue_cents bigint NOT NULL DEFAULT 0,
  tax_cents bigint NOT NULL DEFAULT 0,
  returned_cents bigint NOT NULL DEFAULT 0,
  returned_tax_cents bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (pharmacy_id, branch_id, business_day, tax_rate_basis_points)
);
CREATE INDEX daily_tax_sales_day ON daily_tax_sales (pharmacy_id, business_day);

-- Slow movers: when a branch last sold a product.
CREATE INDEX daily_product_sales_product ON daily_product_sales (pharmacy_id, branch_id, product_id, business_day);

-- The pharmacy's time zone from its settings; the default when unset or not a zone the database knows.
CREATE FUNCTION pharmacy_time_zone(p text) RETURNS text LANGUAGE plpgsql STABLE AS $$
DECLARE
  zone text;
BEGIN
  SELECT document->>'timezone' INTO zone FROM settings WHERE pharmacy_id = p;
  IF zone IS NULL OR zone = '' THEN
    RETURN 'Africa/Nairobi';
  END IF;
  BEGIN
    PERFORM now() AT TIME ZONE zone;
    RETURN zone;
  EXCEPTION WHEN others THEN
    RETURN 'Africa/Nairobi';
  END;
END $$;

CREATE FUNCTION daily_hour_sales_of_sales() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH zones AS (SELECT p.pharmacy_id, pharmacy_time_zone(p.pharmacy_id) AS zone FROM (SELECT DISTINCT pharmacy_id FROM new_sales) p)
  INSERT INTO daily_hour_sales AS d (pharmacy_id, branch_id, business_day, hour, sale_count, revenue_cents)
  SELECT n.pharmacy_id, n.branch_id, n.sale_date, extract(hour FROM n.created_at AT TIME ZONE z.zone)::smallint, count(*), sum(n.total_cents)
    FROM new_sales n JOIN zones z ON z.pharmacy_id = n.pharmacy_id
   GROUP BY 1, 2, 3, 4
  ON CONFLICT (pharmacy_id, branch_id, business_day, hour) DO UPDATE
    SET sale_count = d.sale_count + EXCLUDED.sale_count, revenue_cents = d.revenue_cents + EXCLUDED.revenue_cents;
  RETURN NULL;
END $$;
CREATE TRIGGER sales_hour_summaries AFTER INSERT ON sales REFERENCING NEW TABLE AS new_sales
  FOR EACH STATEMENT EXECUTE FUNCTION daily_hour_sales_of_sales();

CREATE FUNCTION daily_hour_sales_of_sale_returns() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH zones AS (SELECT p.pharmacy_id, pharmacy_time_zone(p.pharmacy_id) AS zone FROM (SELECT DISTINCT pharmacy_id FROM new_returns) p)
  INSERT INTO daily_hour_sales AS d (pharmacy_id, branch_id, business_day, hour, void_count, returned_cents)
  SELECT s.pharmacy_id, s.branch_id, s.sale_date, extract(hour FROM s.created_at AT TIME ZONE z.zone)::smallint,
         count(*) FILTER (WHERE r.kind = 'void'), sum(r.refund_cents)
    FROM new_returns r
    JOIN sales s ON s.pharmacy_id = r.pharmacy_id AND s.id = r.sale_id
    JOIN zones z ON z.pharmacy_id = r.pharmacy_id
   GROUP BY 1, 2, 3, 4
  ON CONFLICT (pharmacy_id, branch_id, business_day, hour) DO UPDATE
    SET void_count = d.void_count + EXCLUDED.void_count, returned_cents = d.returned_cents + EXCLUDED.returned_cents;
  RETURN NULL;
END $$;
CREATE TRIGGER sale_returns_hour_summaries AFTER INSERT ON sale_returns REFERENCING NEW TABLE AS new_returns
  FOR EACH STATEMENT EXECUTE FUNCTION daily_hour_sales_of_sale_returns();

CREATE FUNCTION daily_tax_sales_of_sale_items() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO daily_tax_sales AS d (pharmacy_id, branch_id, business_day, tax_rate_basis_points, line_count, revenue_cents, tax_cents)
  SELECT s.pharmacy_id, s.branch_id, s.sale_date, i.tax_rate_basis_points, count(*), sum(i.total_cents), sum(i.tax_cents)
    FROM new_items i JOIN sales s ON s.pharmacy_id = i.pharmacy_id AND s.id = i.sale_id
   GROUP BY 1, 2, 3, 4
  ON CONFLICT (pharmacy_id, branch_id, business_day, tax_rate_basis_points) DO UPDATE
    SET line_count = d.line_count + EXCLUDED.line_count, revenue_cents = d.revenue_cents + EXCLUDED.revenue_cents,
        tax_cents = d.tax_cents + EXCLUDED.tax_cents;
  RETURN NULL;
END $$;
CREATE TRIGGER sale_items_tax_summaries AFTER INSERT ON sale_items REFERENCING NEW TABLE AS new_items
  FOR EACH STATEMENT EXECUTE FUNCTION daily_tax_sales_of_sale_items();

-- A return's tax: the line's tax on all pieces returned after it, less on those returned before it (the table already
-- holds this statement's rows when the trigger runs).
CREATE FUNCTION daily_tax_sales_of_sale_return_items() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH now_returned AS (
    SELECT pharmacy_id, sale_id, line, sum(quantity) AS quantity, sum(refund_cents) AS refund_cents
      FROM new_return_items GROUP BY 1, 2, 3
  ), lines AS (
    SELECT s.pharmacy_id, s.branch_id, s.sale_date, i.tax_rate_basis_points, n.refund_cents,
           round(i.tax_cents * a.quantity::numeric / i.quantity)::bigint - round(i.tax_cents * (a.quantity - n.quantity)::numeric / i.quantity)::bigint AS tax_cents
      FROM now_returned n
      JOIN sales s ON s.pharmacy_id = n.pharmacy_id AND s.id = n.sale_id
      JOIN sale_items i ON i.pharmacy_id = n.pharmacy_id AND i.sale_id = n.sale_id AND i.line = n.line
      CROSS JOIN LATERAL (SELECT sum(r.quantity) AS quantity FROM sale_return_items r
                           WHERE r.pharmacy_id = n.pharmacy_id AND r.sale_id = n.sale_id AND r.line = n.line) a
  )
  INSERT INTO daily_tax_sales AS d (pharmacy_id, branch_id, business_day, tax_rate_basis_points, returned_cents, returned_tax_cents)
  SELECT pharmacy_id, branch_id, sale_date, tax_rate_basis_points, sum(refund_cents), sum(tax_cents)
    FROM lines GROUP BY 1, 2, 3, 4
  ON CONFLICT (pharmacy_id, branch_id, business_day, tax_rate_basis_points) DO UPDATE
    SET returned_cents = d.returned_cents + EXCLUDED.returned_cents, returned_tax_cents = d.returned_tax_cents + EXCLUDED.returned_tax_cents;
  RETURN NULL;
END $$;
CREATE TRIGGER sale_return_items_tax_summaries AFTER INSERT ON sale_return_items REFERENCING NEW TABLE AS new_return_items
  FOR EACH STATEMENT EXECUTE FUNCTION daily_tax_sales_of_sale_return_items();

-- The summaries of what was recorded before them.
INSERT INTO daily_hour_sales (pharmacy_id, branch_id, business_day, hour, sale_count, void_count, revenue_cents, returned_cents)
SELECT s.pharmacy_id, s.branch_id, s.sale_date, extract(hour FROM s.created_at AT TIME ZONE pharmacy_time_zone(s.pharmacy_id))::smallint,
       count(*), coalesce(sum(r.voids), 0), sum(s.total_cents), coalesce(sum(r.refunded), 0)
  FROM sales s
  LEFT JOIN LATERAL (SELECT count(*) FILTER (WHERE x.kind = 'void') AS voids, sum(x.refund_cents) AS refunded
                       FROM sale_returns x WHERE x.pharmacy_id = s.pharmacy_id AND x.sale_id = s.id) r ON true
 GROUP BY 1, 2, 3, 4;

INSERT INTO daily_tax_sales (pharmacy_id, branch_id, business_day, tax_rate_basis_points, line_count, revenue_cents, tax_cents, returned_cents, returned_tax_cents)
SELECT s.pharmacy_id, s.branch_id, s.sale_date, i.tax_rate_basis_points, count(*), sum(i.total_cents), sum(i.tax_cents),
       coalesce(sum(r.refunded), 0), coalesce(sum(round(i.tax_cents * coalesce(r.quantity, 0)::numeric / i.quantity)), 0)::bigint
  FROM sale_items i
  JOIN sales s ON s.pharmacy_id = i.pharmacy_id AND s.id = i.sale_id
  LEFT JOIN LATERAL (SELECT sum(y.quantity) AS quantity, sum(y.refund_cents) AS refunded FROM sale_return_items y
                      WHERE y.pharmacy_id = i.pharmacy_id AND y.sale_id = i.sale_id AND y.line = i.line) r ON true
 GROUP BY 1, 2, 3, 4;

ALTER TABLE daily_hour_sales ENABLE ROW LEVEL SECURITY;
ALTER TABLE daily_hour_sales FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON daily_hour_sales
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
ALTER TABLE daily_tax_sales ENABLE ROW LEVEL SECURITY;
ALTER TABLE daily_tax_sales FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON daily_tax_sales
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());

-- The request role's writes reach them only through the triggers above, which run as the writer.
GRANT SELECT, INSERT, UPDATE ON daily_hour_sales, daily_tax_sales TO pharmapoint_app;

ANALYZE daily_hour_sales;
ANALYZE daily_tax_sales;
