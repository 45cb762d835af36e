-- PostgreSQL checks a foreign key with `SELECT 1 FROM t WHERE pharmacy_id = $1 AND id = $2 FOR KEY SHARE`, planned
-- once per connection and kept. A sale runs 4 such checks into sales (its lines and payment) and 6 into products
-- (its lines; the branch rows it updates twice). Planned while the table had no statistics (a new database; a
-- server without autovacuum before the maintenance pass; PGlite), every index led by pharmacy_id costs exactly what
-- the primary key costs on a small table, and PostgreSQL keeps the first of equally cheap paths, which is the
-- newest index's: sales_status (migration 0020) and products_category, whose condition is pharmacy_id alone, so each
-- check read every sale (every product) of the pharmacy until an ANALYZE invalidated the plan: 0.12 ms a check into
-- sales averaged over 2,500 sales, 44 buffers (decision 0083). The cart's product read, planned the same way, read
-- every product of the pharmacy through products_category too. Those indexes serve lists and reports and stay.
-- Here the primary key's index of sales and of products is rebuilt, so it is the newest index of its table and the
-- one a tie goes to: lookups by primary key take it whatever the statistics. The foreign keys that reference the
-- key are dropped and added again exactly as they were (read from the catalogue); names and columns do not change
-- (the sale's id refusal reads sales_pkey). test/sale-foreign-key-plans.test.ts checks the plans on empty,
-- unanalysed tables: an index added to sales or products later that wins the tie fails it (rebuild the key after it).
DO $$
DECLARE
  t text;
  fk record;
  again text[];
  statement text;
BEGIN
  FOREACH t IN ARRAY ARRAY['sales', 'products'] LOOP
    again := '{}';
    EXECUTE format('CREATE UNIQUE INDEX %I ON %I (pharmacy_id, id)', t || '_pkey_rebuilt', t);
    FOR fk IN
      SELECT c.conrelid::regclass::text AS tbl, c.conname, pg_get_constraintdef(c.oid) AS def
        FROM pg_constraint c WHERE c.contype = 'f' AND c.confrelid = t::regclass ORDER BY c.conrelid::regclass::text, c.conname
    LOOP
      again := again || format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.tbl, fk.conname, fk.def);
      EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', fk.tbl, fk.conname);
    END LOOP;
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', t, t || '_pkey');
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I PRIMARY KEY USING INDEX %I', t, t || '_pkey', t || '_pkey_rebuilt');
    FOREACH statement IN ARRAY again LOOP
      EXECUTE statement;
    END LOOP;
  END LOOP;
END $$;
