-- Per-day summaries of selling and spending (decision 0094): what the dashboard and the reports read, so a read of a
-- period adds up at most one row per branch, business day and key instead of every sale line.
--
-- daily_sales: per pharmacy, branch, business day (the sale's sale_date, so a backdated sale counts on the day it
--   was dated), payment method of the sale and cashier (no cashier: the nil uuid). sale_count and the sale-level
--   money (revenue = the sales' totals, subtotal, discount, tax) come from the sales rows, counted with the sale's
--   line 1 (every sale has at least one line; the till refuses an empty cart); cost_cents is the cost of
--   the lines (the batches each line took; a line without batch takes costs its recorded purchase price; a line
--   with neither is estimated at 70 % of its total, and that part is also in estimated_cost_cents);
--   returned_cents is what returns and voids refunded, returned_cost_cents the cost of the pieces they gave back;
--   void_count the voided sales, return_count the returns. Returns and voids count on the SALE's day and keys, so
--   a day's net figures are what its sales finally made: net revenue = revenue - returned, net cost = cost -
--   returned cost, sales = sale_count - void_count.
-- daily_product_sales: per pharmacy, branch, business day and product: pieces, lines, line totals, gross, discount,
--   tax, cost (as above), and the pieces, refunds and cost returns gave back.
-- daily_expenses: per pharmacy, branch, business day (expense_date) and category: approved expenses' count and
--   total (amount plus transport costs); an expense approved or rejected later moves in or out.
--
-- Every writer goes through the statement-level triggers below, in the transaction of the change: a sale (its
-- one statement writes the sale, its lines and their batch takes; the lines' trigger runs after the whole
-- statement and so sees the batch takes; one trigger, on the lines, keeps both tables of a sale), a return, a
-- void, an expense. Increments, never rewrites: the upserts
-- add the change's figures to the row (ON CONFLICT DO UPDATE SET x = x + EXCLUDED.x), in key order (ORDER BY), so two
-- transactions touching the same rows lock them in the same order and never deadlock on them. The test
-- daily-summaries.test.ts compares them with a full recomputation from the raw rows.

CREATE TABLE daily_sales (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  branch_id uuid NOT NULL,
  business_day date NOT NULL,
  payment_method text NOT NULL,
  cashier_id uuid NOT NULL,
  sale_count integer NOT NULL DEFAULT 0,
  void_count integer NOT NULL DEFAULT 0,
  return_count integer NOT NULL DEFAULT 0,
  revenue_cents bigint NOT NULL DEFAULT 0,
  subtotal_cents bigint NOT NULL DEFAULT 0,
  discount_cents bigint NOT NULL DEFAULT 0,
  tax_cents bigint NOT NULL DEFAULT 0,
  cost_cents bigint NOT NULL DEFAULT 0,
  estimated_cost_cents bigint NOT NULL DEFAULT 0,
  returned_cents bigint NOT NULL DEFAULT 0,
  returned_cost_cents bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (pharmacy_id, branch_id, business_day, payment_method, cashier_id)
);
-- All branches of a period.
CREATE INDEX daily_sales_day ON daily_sales (pharmacy_id, business_day);

CREATE TABLE daily_product_sales (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  branch_id uuid NOT NULL,
  business_day date NOT NULL,
  product_id uuid NOT NULL,
  quantity bigint NOT NULL DEFAULT 0,
  line_count integer NOT NULL DEFAULT 0,
  revenue_cents bigint NOT NULL DEFAULT 0,
  gross_cents bigint NOT NULL DEFAULT 0,
  discount_cents bigint NOT NULL DEFAULT 0,
  tax_cents bigint NOT NULL DEFAULT 0,
  cost_cents bigint NOT NULL DEFAULT 0,
  estimated_cost_cents bigint NOT NULL DEFAULT 0,
  returned_quantity bigint NOT NULL DEFAULT 0,
  returned_cents bigint NOT NULL DEFAULT 0,
  returned_cost_cents bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (pharmacy_id, branch_id, business_day, product_id)
);
CREATE INDEX daily_product_sales_day ON daily_product_sales (pharmacy_id, business_day);

CREATE TABLE daily_expenses (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  branch_id uuid NOT NULL,
  business_day date NOT NULL,
  category text NOT NULL,
  expense_count integer NOT NULL DEFAULT 0,
  amount_cents bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (pharmacy_id, branch_id, business_day, category)
);
CREATE INDEX daily_expenses_day ON daily_expenses (pharmacy_id, business_day);

CREATE FUNCTION daily_sales_of_sale_items() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH lines AS (
    SELECT s.pharmacy_id, s.branch_id, s.sale_date, s.payment_method, coalesce(s.cashier_id, '00000000-0000-0000-0000-000000000000'::uuid) AS cashier_id,
           i.product_id, i.quantity, i.total_cents, i.gross_cents, i.discount_cents, i.tax_cents,
           -- The sale's own figures ride on its line 1 (every sale has one), so a sale counts once however its lines are written.
           (i.line = 1)::int AS sale_count,
           CASE WHEN i.line = 1 THEN s.total_cents ELSE 0 END AS sale_total_cents,
           CASE WHEN i.line = 1 THEN s.subtotal_cents ELSE 0 END AS sale_subtotal_cents,
           CASE WHEN i.line = 1 THEN s.discount_cents ELSE 0 END AS sale_discount_cents,
           CASE WHEN i.line = 1 THEN s.tax_cents ELSE 0 END AS sale_tax_cents,
           CASE WHEN t.cost IS NOT NULL THEN t.cost WHEN i.cost_cents > 0 THEN i.cost_cents * i.quantity ELSE round(i.total_cents * 0.7)::bigint END AS cost_cents,
           CASE WHEN t.cost IS NULL AND i.cost_cents = 0 THEN round(i.total_cents * 0.7)::bigint ELSE 0 END AS estimated_cents
      FROM new_items i
      JOIN sales s ON s.pharmacy_id = i.pharmacy_id AND s.id = i.sale_id
      LEFT JOIN LATERAL (SELECT sum(b.quantity * b.unit_cost_cents)::bigint AS cost FROM sale_item_batches b
                          WHERE b.pharmacy_id = i.pharmacy_id AND b.sale_id = i.sale_id AND b.line = i.line) t ON true
  ), products AS (
    INSERT INTO daily_product_sales AS d (pharmacy_id, branch_id, business_day, product_id, quantity, line_count, revenue_cents, gross_cents,
                                          discount_cents, tax_cents, cost_cents, estimated_cost_cents)
    SELECT pharmacy_id, branch_id, sale_date, product_id, sum(quantity), count(*), sum(total_cents), sum(gross_cents), sum(discount_cents),
           sum(tax_cents), sum(cost_cents), sum(estimated_cents)
      FROM lines GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (pharmacy_id, branch_id, business_day, product_id) DO UPDATE
      SET quantity = d.quantity + EXCLUDED.quantity, line_count = d.line_count + EXCLUDED.line_count,
          revenue_cents = d.revenue_cents + EXCLUDED.revenue_cents, gross_cents = d.gross_cents + EXCLUDED.gross_cents,
          discount_cents = d.discount_cents + EXCLUDED.discount_cents, tax_cents = d.tax_cents + EXCLUDED.tax_cents,
          cost_cents = d.cost_cents + EXCLUDED.cost_cents, estimated_cost_cents = d.estimated_cost_cents + EXCLUDED.estimated_cost_cents
  )
  INSERT INTO daily_sales AS d (pharmacy_id, branch_id, business_day, payment_method, cashier_id, sale_count, revenue_cents, subtotal_cents,
                                discount_cents, tax_cents, cost_cents, estimated_cost_cents)
  SELECT pharmacy_id, branch_id, sale_date, payment_method, cashier_id, sum(sale_count), sum(sale_total_cents), sum(sale_subtotal_cents),
         sum(sale_discount_cents), sum(sale_tax_cents), sum(cost_cents), sum(estimated_cents)
    FROM lines GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (pharmacy_id, branch_id, business_day, payment_method, cashier_id) DO UPDATE
    SET sale_count = d.sale_count + EXCLUDED.sale_count, revenue_cents = d.revenue_cents + EXCLUDED.revenue_cents,
        subtotal_cents = d.subtotal_cents + EXCLUDED.subtotal_cents, discount_cents = d.discount_cents + EXCLUDED.discount_cents,
        tax_cents = d.tax_cents + EXCLUDED.tax_cents, cost_cents = d.cost_cents + EXCLUDED.cost_cents,
        estimated_cost_cents = d.estimated_cost_cents + EXCLUDED.estimated_cost_cents;
  RETURN NULL;
END $$;
CREATE TRIGGER sale_items_daily_summaries AFTER INSERT ON sale_items REFERENCING NEW TABLE AS new_items
  FOR EACH STATEMENT EXECUTE FUNCTION daily_sales_of_sale_items();

CREATE FUNCTION daily_sales_of_sale_returns() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO daily_sales AS d (pharmacy_id, branch_id, business_day, payment_method, cashier_id, void_count, return_count, returned_cents)
  SELECT s.pharmacy_id, s.branch_id, s.sale_date, s.payment_method, coalesce(s.cashier_id, '00000000-0000-0000-0000-000000000000'),
         count(*) FILTER (WHERE r.kind = 'void'), count(*) FILTER (WHERE r.kind = 'return'), sum(r.refund_cents)
    FROM new_returns r JOIN sales s ON s.pharmacy_id = r.pharmacy_id AND s.id = r.sale_id
   GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (pharmacy_id, branch_id, business_day, payment_method, cashier_id) DO UPDATE
    SET void_count = d.void_count + EXCLUDED.void_count, return_count = d.return_count + EXCLUDED.return_count,
        returned_cents = d.returned_cents + EXCLUDED.returned_cents;
  RETURN NULL;
END $$;
CREATE TRIGGER sale_returns_daily_summaries AFTER INSERT ON sale_returns REFERENCING NEW TABLE AS new_returns
  FOR EACH STATEMENT EXECUTE FUNCTION daily_sales_of_sale_returns();

CREATE FUNCTION daily_sales_of_sale_return_items() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH items AS (
    SELECT s.pharmacy_id, s.branch_id, s.sale_date, s.payment_method, coalesce(s.cashier_id, '00000000-0000-0000-0000-000000000000'::uuid) AS cashier_id,
           i.product_id, r.quantity, r.refund_cents, r.quantity * b.unit_cost_cents AS cost_cents
      FROM new_return_items r
      JOIN sales s ON s.pharmacy_id = r.pharmacy_id AND s.id = r.sale_id
      JOIN sale_items i ON i.pharmacy_id = r.pharmacy_id AND i.sale_id = r.sale_id AND i.line = r.line
      JOIN sale_item_batches b ON b.pharmacy_id = r.pharmacy_id AND b.sale_id = r.sale_id AND b.line = r.line AND b.batch_id = r.batch_id
  ), products AS (
    INSERT INTO daily_product_sales AS d (pharmacy_id, branch_id, business_day, product_id, returned_quantity, returned_cents, returned_cost_cents)
    SELECT pharmacy_id, branch_id, sale_date, product_id, sum(quantity), sum(refund_cents), sum(cost_cents)
      FROM items GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (pharmacy_id, branch_id, business_day, product_id) DO UPDATE
      SET returned_quantity = d.returned_quantity + EXCLUDED.returned_quantity, returned_cents = d.returned_cents + EXCLUDED.returned_cents,
          returned_cost_cents = d.returned_cost_cents + EXCLUDED.returned_cost_cents
  )
  INSERT INTO daily_sales AS d (pharmacy_id, branch_id, business_day, payment_method, cashier_id, returned_cost_cents)
  SELECT pharmacy_id, branch_id, sale_date, payment_method, cashier_id, sum(cost_cents)
    FROM items GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (pharmacy_id, branch_id, business_day, payment_method, cashier_id) DO UPDATE
    SET returned_cost_cents = d.returned_cost_cents + EXCLUDED.returned_cost_cents;
  RETURN NULL;
END $$;
CREATE TRIGGER sale_return_items_daily_summaries AFTER INSERT ON sale_return_items REFERENCING NEW TABLE AS new_return_items
  FOR EACH STATEMENT EXECUTE FUNCTION daily_sales_of_sale_return_items();

-- An expense counts while approved: added when it becomes approved, taken off when it stops being (or moves).
CREATE FUNCTION daily_expenses_of_expenses() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.status = 'approved' THEN
    UPDATE daily_expenses SET expense_count = expense_count - 1, amount_cents = amount_cents - OLD.total_cents
     WHERE pharmacy_id = OLD.pharmacy_id AND branch_id = OLD.branch_id AND business_day = OLD.expense_date AND category = OLD.category;
  END IF;
  IF NEW.status = 'approved' THEN
    INSERT INTO daily_expenses AS d (pharmacy_id, branch_id, business_day, category, expense_count, amount_cents)
    VALUES (NEW.pharmacy_id, NEW.branch_id, NEW.expense_date, NEW.category, 1, NEW.total_cents)
    ON CONFLICT (pharmacy_id, branch_id, business_day, category) DO UPDATE
      SET expense_count = d.expense_count + 1, amount_cents = d.amount_cents + EXCLUDED.amount_cents;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER expenses_daily_summaries AFTER INSERT OR UPDATE ON expenses
  FOR EACH ROW EXECUTE FUNCTION daily_expenses_of_expenses();

-- The summaries of what was recorded before them.
CREATE TEMPORARY VIEW sale_line_costs AS
  SELECT i.*, CASE WHEN t.cost IS NOT NULL THEN t.cost WHEN i.cost_cents > 0 THEN i.cost_cents * i.quantity ELSE round(i.total_cents * 0.7)::bigint END AS line_cost,
               CASE WHEN t.cost IS NULL AND i.cost_cents = 0 THEN round(i.total_cents * 0.7)::bigint ELSE 0 END AS line_estimated
          FROM sale_items i
          LEFT JOIN LATERAL (SELECT sum(b.quantity * b.unit_cost_cents)::bigint AS cost FROM sale_item_batches b
                              WHERE b.pharmacy_id = i.pharmacy_id AND b.sale_id = i.sale_id AND b.line = i.line) t ON true;

INSERT INTO daily_sales (pharmacy_id, branch_id, business_day, payment_method, cashier_id, sale_count, void_count, return_count, revenue_cents,
                         subtotal_cents, discount_cents, tax_cents, cost_cents, estimated_cost_cents, returned_cents, returned_cost_cents)
SELECT s.pharmacy_id, s.branch_id, s.sale_date, s.payment_method, coalesce(s.cashier_id, '00000000-0000-0000-0000-000000000000'),
       count(*), coalesce(sum(r.voids), 0), coalesce(sum(r.returns), 0), sum(s.total_cents), sum(s.subtotal_cents), sum(s.discount_cents),
       sum(s.tax_cents), coalesce(sum(l.cost), 0), coalesce(sum(l.estimated), 0), coalesce(sum(r.refunded), 0), coalesce(sum(ri.cost), 0)
  FROM sales s
  JOIN sale_items one ON one.pharmacy_id = s.pharmacy_id AND one.sale_id = s.id AND one.line = 1
  LEFT JOIN LATERAL (SELECT sum(i.line_cost) AS cost, sum(i.line_estimated) AS estimated FROM sale_line_costs i
                      WHERE i.pharmacy_id = s.pharmacy_id AND i.sale_id = s.id) l ON true
  LEFT JOIN LATERAL (SELECT count(*) FILTER (WHERE x.kind = 'void') AS voids, count(*) FILTER (WHERE x.kind = 'return') AS returns,
                            sum(x.refund_cents) AS refunded
                       FROM sale_returns x WHERE x.pharmacy_id = s.pharmacy_id AND x.sale_id = s.id) r ON true
  LEFT JOIN LATERAL (SELECT sum(y.quantity * b.unit_cost_cents) AS cost FROM sale_return_items y
                       JOIN sale_item_batches b ON b.pharmacy_id = y.pharmacy_id AND b.sale_id = y.sale_id AND b.line = y.line AND b.batch_id = y.batch_id
                      WHERE y.pharmacy_id = s.pharmacy_id AND y.sale_id = s.id) ri ON true
 GROUP BY 1, 2, 3, 4, 5;

INSERT INTO daily_product_sales (pharmacy_id, branch_id, business_day, product_id, quantity, line_count, revenue_cents, gross_cents, discount_cents,
                                 tax_cents, cost_cents, estimated_cost_cents, returned_quantity, returned_cents, returned_cost_cents)
SELECT s.pharmacy_id, s.branch_id, s.sale_date, i.product_id, sum(i.quantity), count(*), sum(i.total_cents), sum(i.gross_cents),
       sum(i.discount_cents), sum(i.tax_cents), sum(i.line_cost), sum(i.line_estimated), coalesce(sum(ri.quantity), 0),
       coalesce(sum(ri.refunded), 0), coalesce(sum(ri.cost), 0)
  FROM sale_line_costs i
  JOIN sales s ON s.pharmacy_id = i.pharmacy_id AND s.id = i.sale_id
  LEFT JOIN LATERAL (SELECT sum(y.quantity) AS quantity, sum(y.refund_cents) AS refunded, sum(y.quantity * b.unit_cost_cents) AS cost
                       FROM sale_return_items y
                       JOIN sale_item_batches b ON b.pharmacy_id = y.pharmacy_id AND b.sale_id = y.sale_id AND b.line = y.line AND b.batch_id = y.batch_id
                      WHERE y.pharmacy_id = i.pharmacy_id AND y.sale_id = i.sale_id AND y.line = i.line) ri ON true
 GROUP BY 1, 2, 3, 4;

INSERT INTO daily_expenses (pharmacy_id, branch_id, business_day, category, expense_count, amount_cents)
SELECT pharmacy_id, branch_id, expense_date, category, count(*), sum(total_cents)
  FROM expenses WHERE status = 'approved'
 GROUP BY 1, 2, 3, 4;

ALTER TABLE daily_sales ENABLE ROW LEVEL SECURITY;
ALTER TABLE daily_sales FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON daily_sales
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
ALTER TABLE daily_product_sales ENABLE ROW LEVEL SECURITY;
ALTER TABLE daily_product_sales FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON daily_product_sales
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
ALTER TABLE daily_expenses ENABLE ROW LEVEL SECURITY;
ALTER TABLE daily_expenses FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON daily_expenses
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());

-- The request role's writes reach them only through the triggers above, which run as the writer.
GRANT SELECT, INSERT ON daily_sales, daily_product_sales, daily_expenses TO pharmapoint_app;
GRANT UPDATE ON daily_sales, daily_product_sales, daily_expenses TO pharmapoint_app;

ANALYZE daily_sales;
ANALYZE daily_product_sales;
ANALYZE daily_expenses;
DROP VIEW sale_line_costs;
