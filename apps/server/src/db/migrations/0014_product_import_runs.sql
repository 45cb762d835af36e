-- A CSV import in short transactions (issue 6 item 13, decision 0021). The embedded database has one connection:
-- an import of 10,000 rows in one transaction held it for 27 s. Now an import is a run: a first short transaction
-- validates, takes the plan places of all its products and records the run ('importing'); then its products are
-- written in chunks of a few tens of milliseconds each, each in its own transaction (other requests get in
-- between); a last short transaction marks it 'done' and stores the answer of its Idempotency-Key. A failure in a
-- chunk (another request took one of the file's SKUs meanwhile, the process died) undoes the run: its products,
-- with their branch rows, batches and 'import' movements, are removed in chunks by undo_product_import(), and the
-- places are given back. A run left 'importing' without progress (a crash) is undone by the next import of the
-- pharmacy.
CREATE TABLE product_imports (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  user_id uuid REFERENCES users (id),
  status text NOT NULL CHECK (status IN ('importing', 'done', 'undone')),
  -- The Idempotency-Key the run claimed (its answer is stored when the run is done; an undone run frees it).
  idempotency_key text,
  -- Plan places taken by the run (its products).
  products integer NOT NULL CHECK (products >= 0),
  -- Products written so far (the places of the rest are given back by an undo).
  written integer NOT NULL DEFAULT 0 CHECK (written >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Moved on by every chunk: a run 'importing' with an old updated_at was abandoned.
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (pharmacy_id, id)
);
CREATE INDEX product_imports_importing ON product_imports (pharmacy_id, updated_at) WHERE status = 'importing';

-- The products a run created (what an undo removes).
CREATE TABLE product_import_items (
  pharmacy_id text NOT NULL REFERENCES pharmacies (id) ON DELETE CASCADE,
  import_id uuid NOT NULL,
  product_id uuid NOT NULL,
  PRIMARY KEY (pharmacy_id, import_id, product_id),
  FOREIGN KEY (pharmacy_id, import_id) REFERENCES product_imports (pharmacy_id, id)
);

ALTER TABLE product_imports ENABLE ROW LEVEL SECURITY;
ALTER TABLE product_imports FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON product_imports
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
ALTER TABLE product_import_items ENABLE ROW LEVEL SECURITY;
ALTER TABLE product_import_items FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON product_import_items
  USING (pharmacy_id = app_pharmacy_id()) WITH CHECK (pharmacy_id = app_pharmacy_id());
GRANT SELECT, INSERT ON product_imports, product_import_items TO pharmapoint_app;
GRANT UPDATE ON product_imports TO pharmapoint_app;

-- Undoes up to max_products products of an unfinished run of the transaction's own tenant (app_pharmacy_id(),
-- never a parameter) and returns how many of its products are left to undo (0: the run is 'undone', its places
-- given back and its Idempotency-Key freed). The request role may not delete (the ledger is append-only for it):
-- this function, owned by the owner, removes exactly the rows the run wrote. A product something else has used
-- since (a sale, an adjustment, a transfer, a price change) stays, with its places.
CREATE FUNCTION undo_product_import(run_id uuid, max_products integer) RETURNS integer
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
  AS $$
DECLARE
  tenant text := app_pharmacy_id();
  run product_imports%ROWTYPE;
  chunk uuid[];
  removable uuid[];
  remaining integer;
BEGIN
  IF tenant IS NULL OR tenant = '' THEN RAISE EXCEPTION 'undo_product_import: no tenant'; END IF;
  SELECT * INTO run FROM product_imports WHERE pharmacy_id = tenant AND id = run_id FOR UPDATE;
  IF NOT FOUND OR run.status <> 'importing' THEN RETURN 0; END IF;

  SELECT array_agg(product_id) INTO chunk
    FROM (SELECT product_id FROM product_import_items WHERE pharmacy_id = tenant AND import_id = run_id LIMIT max_products) c;
  IF chunk IS NOT NULL THEN
    SELECT array_agg(p.id) INTO removable
      FROM products p
     WHERE p.pharmacy_id = tenant AND p.id = ANY (chunk)
       AND NOT EXISTS (SELECT 1 FROM stock_movements m WHERE m.pharmacy_id = tenant AND m.product_id = p.id
                          AND (m.reference_type IS DISTINCT FROM 'import' OR m.reference_id IS DISTINCT FROM run_id::text))
       AND NOT EXISTS (SELECT 1 FROM price_changes x WHERE x.pharmacy_id = tenant AND x.product_id = p.id)
       AND NOT EXISTS (SELECT 1 FROM stock_adjustment_items x WHERE x.pharmacy_id = tenant AND x.product_id = p.id)
       AND NOT EXISTS (SELECT 1 FROM stock_transfer_items x WHERE x.pharmacy_id = tenant AND x.product_id = p.id);
    IF removable IS NOT NULL THEN
      DELETE FROM stock_movements WHERE pharmacy_id = tenant AND product_id = ANY (removable);
      DELETE FROM batches WHERE pharmacy_id = tenant AND product_id = ANY (removable);
      DELETE FROM branch_products WHERE pharmacy_id = tenant AND product_id = ANY (removable);
      DELETE FROM products WHERE pharmacy_id = tenant AND id = ANY (removable);
      UPDATE usage_counters SET products = greatest(products - cardinality(removable), 0), updated_at = now() WHERE pharmacy_id = tenant;
    END IF;
    DELETE FROM product_import_items WHERE pharmacy_id = tenant AND import_id = run_id AND product_id = ANY (chunk);
  END IF;

  SELECT count(*) INTO remaining FROM product_import_items WHERE pharmacy_id = tenant AND import_id = run_id;
  IF remaining = 0 THEN
    -- The places taken for products never written come back too.
    UPDATE usage_counters SET products = greatest(products - greatest(run.products - run.written, 0), 0), updated_at = now()
     WHERE pharmacy_id = tenant;
    UPDATE product_imports SET status = 'undone', updated_at = now() WHERE pharmacy_id = tenant AND id = run_id;
    IF run.idempotency_key IS NOT NULL THEN
      DELETE FROM idempotency_keys WHERE pharmacy_id = tenant AND key = run.idempotency_key AND status_code IS NULL;
    END IF;
  END IF;
  RETURN remaining;
END $$;
REVOKE ALL ON FUNCTION undo_product_import(uuid, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION undo_product_import(uuid, integer) TO pharmapoint_app;
