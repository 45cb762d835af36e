-- A tenant row names its pharmacy twice over: `FOREIGN KEY (pharmacy_id) REFERENCES pharmacies (id)` and a tenant key
-- such as `FOREIGN KEY (pharmacy_id, sale_id) REFERENCES sales (pharmacy_id, id)`. The second already proves the
-- first: its parent row has that pharmacy_id, and the parent's own keys prove that pharmacy exists. Yet PostgreSQL
-- runs both checks for every row written (and again for every row its transaction already wrote and now updates):
-- a 3-item sale ran 48 foreign key checks, 17 of them into pharmacies, about a third of PostgreSQL's CPU (decision
-- 0085). Dropped here, by one rule applied to every table: the key (pharmacy_id) -> pharmacies goes when the same
-- table has another foreign key
--   - whose first column is pharmacy_id and whose referenced first column is the parent's pharmacy_id (so the
--     parent row is the same pharmacy's),
--   - to another table (a key into the table itself proves nothing about the first row of a chain),
--   - whose columns are all NOT NULL (MATCH SIMPLE skips the check of a row with a NULL in the key, so a key on a
--     nullable column, e.g. sales.client_id or till_payment_requests.resolved_sale_id, proves nothing for rows
--     without one), or MATCH FULL.
-- Every parent keeps a key that reaches pharmacies the same way (test/tenant-foreign-keys.test.ts walks the
-- catalogue: every table with a pharmacy_id reaches pharmacies, and none keeps the redundant pair).
-- At this migration the rule drops the key of: batches, branch_products, customer_payment_allocations,
-- customer_payments, expenses, price_changes, product_import_items, purchase_items, purchase_return_items,
-- purchase_returns, purchases, sale_item_batches, sale_items, sale_payments, sale_return_items, sale_returns, sales,
-- stock_adjustment_items, stock_adjustments, stock_movements, stock_transfer_items, stock_transfers,
-- supplier_balances, supplier_payment_allocations, supplier_payments, suspended_sales.
-- What is lost is their ON DELETE CASCADE from pharmacies, which nothing uses: no code, test or script deletes a
-- pharmacy, and the application role may not (migration 0009). Deleting one now fails on the first remaining
-- reference instead of cascading; it would delete the pharmacy's rows child table first, as the owner, in one
-- transaction (decision 0085).
DO $$
DECLARE
  redundant record;
BEGIN
  FOR redundant IN
    SELECT direct.conrelid::regclass AS tbl, direct.conname
      FROM pg_constraint direct
      JOIN pg_attribute pa ON pa.attrelid = direct.conrelid AND pa.attnum = direct.conkey[1] AND pa.attname = 'pharmacy_id'
     WHERE direct.contype = 'f'
       AND direct.connamespace = 'public'::regnamespace
       AND direct.confrelid = 'pharmacies'::regclass
       AND cardinality(direct.conkey) = 1
       AND EXISTS (
         SELECT 1
           FROM pg_constraint tenant
           JOIN pg_attribute ta ON ta.attrelid = tenant.confrelid AND ta.attnum = tenant.confkey[1] AND ta.attname = 'pharmacy_id'
          WHERE tenant.contype = 'f'
            AND tenant.conrelid = direct.conrelid
            AND tenant.conkey[1] = direct.conkey[1]
            AND tenant.confrelid <> direct.conrelid
            AND tenant.confrelid <> 'pharmacies'::regclass
            AND (tenant.confmatchtype = 'f' OR NOT EXISTS (
                  SELECT 1 FROM pg_attribute c
                   WHERE c.attrelid = tenant.conrelid AND c.attnum = ANY (tenant.conkey) AND NOT c.attnotnull)))
     ORDER BY 1::text, 2
  LOOP
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', redundant.tbl, redundant.conname);
  END LOOP;
END
$$;
